// An HTTP stand-in (for nginx and the like): answers every request with the image it was built as, so that an image
// change is visible from outside the pod. IMAGE is set in the image's configuration (libs/local-cluster registry.ts),
// PORT defaults to 80 as nginx's. It stops at once on SIGTERM. The image's /bin holds the toolbox (a shell and
// coreutils) for `kubectl exec`.
//
// For the real-node scenarios (docs/real-nodes.md "Proof"): with TRACE_FILE set (a file on a volume), it appends one
// line when it starts and one per request to /hook/<name> (a lifecycle hook's httpGet), each
// "<ID or IMAGE> <start|hook/<name>> <host name> <unix ms>", so a test reads the start order of a pod's containers, the
// pods that used a volume, and the hooks the kubelet ran. GET /trace answers with that file. With HANDOVER_SOCKET set,
// two instances in one pod hand the listening socket over (hot upgrade, ./handover.go).
package main

import (
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

var traceMu sync.Mutex

const htmlDir = "/usr/share/nginx/html"

func trace(file, id, what, host string) {
	if file == "" {
		return
	}
	traceMu.Lock()
	defer traceMu.Unlock()
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s %s %s %d\n", id, what, host, time.Now().UnixMilli())
	f.Sync()
}

func main() {
	image := os.Getenv("IMAGE")
	port := os.Getenv("PORT")
	if port == "" {
		port = "80"
	}
	traceFile := os.Getenv("TRACE_FILE")
	id := os.Getenv("ID")
	if id == "" {
		id = image
	}
	host, _ := os.Hostname()
	// as nginx, "/" and "/index.html" answer with the file /usr/share/nginx/html/index.html (404 once it is moved
	// away, as OpenKruise's StatefulSet specs do to fail an httpGet readiness probe); it holds the image and host name
	index := filepath.Join(htmlDir, "index.html")
	if err := os.MkdirAll(htmlDir, 0o755); err == nil {
		if _, err := os.Stat(index); err != nil {
			os.WriteFile(index, []byte(fmt.Sprintf("%s %s\n", image, host)), 0o644)
		}
	}
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" || r.URL.Path == "/index.html" {
			b, err := os.ReadFile(index)
			if err != nil {
				http.Error(w, "404 Not Found", http.StatusNotFound)
				return
			}
			w.Write(b)
			return
		}
		fmt.Fprintf(w, "%s %s\n", image, host)
	})
	http.HandleFunc("/hook/", func(w http.ResponseWriter, r *http.Request) {
		what := strings.TrimPrefix(r.URL.Path, "/")
		fmt.Printf("%s %s\n", id, what)
		trace(traceFile, id, what, host)
		fmt.Fprintf(w, "%s %s\n", id, what)
	})
	http.HandleFunc("/trace", func(w http.ResponseWriter, _ *http.Request) {
		b, err := os.ReadFile(traceFile)
		if err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		w.Write(b)
	})
	go func() {
		stop := make(chan os.Signal, 1)
		signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
		<-stop
		waitDrained()
		os.Exit(0)
	}()
	trace(traceFile, id, "start", host)
	// a line for `kubectl logs` (and `logs --previous` after an in-place restart)
	fmt.Printf("serving %s on :%s\n", image, port)
	// HANDOVER_SOCKET: take the listener over from the instance serving there (hot upgrade, ./handover.go)
	if err := serve(port, os.Getenv("HANDOVER_SOCKET")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
