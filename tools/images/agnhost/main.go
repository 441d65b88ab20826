// An agnhost stand-in (Kubernetes' e2e test image `registry.k8s.io/e2e-test-images/agnhost`, which OpenKruise's
// ContainerRecreateRequest specs run as a second container): one program, subcommands as its first argument.
// With none it runs `pause`, as the image's default command does (docs/real-nodes.md "Images").
//
//   - pause: does nothing until SIGTERM or SIGINT, then exits 0.
//   - netexec [--http-port=8080]: serves HTTP; /hostname answers the host name, /echo?msg=X answers X, every other
//     path the image name; exits 0 on SIGTERM.
//
// Any other subcommand exits 1 saying so.
package main

import (
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func waitForStop() {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	<-stop
	os.Exit(0)
}

func netexec(args []string) {
	port := "8080"
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--http-port="); ok {
			port = v
		}
	}
	host, _ := os.Hostname()
	mux := http.NewServeMux()
	mux.HandleFunc("/hostname", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, host) })
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, r.URL.Query().Get("msg")) })
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintf(w, "%s %s\n", os.Getenv("IMAGE"), host) })
	go func() {
		if err := http.ListenAndServe(":"+port, mux); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}()
	fmt.Printf("%s netexec on :%s\n", os.Getenv("IMAGE"), port)
	waitForStop()
}

func main() {
	sub := "pause"
	if len(os.Args) > 1 {
		sub = os.Args[1]
	}
	switch sub {
	case "pause":
		fmt.Printf("%s paused\n", os.Getenv("IMAGE"))
		waitForStop()
	case "netexec":
		netexec(os.Args[2:])
	default:
		fmt.Fprintf(os.Stderr, "agnhost stand-in: unknown subcommand %q (pause, netexec)\n", sub)
		os.Exit(1)
	}
}
