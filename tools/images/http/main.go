// An HTTP stand-in (for nginx and the like): answers every request with the image it was built as, so that an image
// change is visible from outside the pod. IMAGE is set in the image's configuration (libs/local-cluster registry.ts),
// PORT defaults to 80 as nginx's. It stops at once on SIGTERM.
package main

import (
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	image := os.Getenv("IMAGE")
	port := os.Getenv("PORT")
	if port == "" {
		port = "80"
	}
	host, _ := os.Hostname()
	http.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, "%s %s\n", image, host)
	})
	go func() {
		stop := make(chan os.Signal, 1)
		signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
		<-stop
		os.Exit(0)
	}()
	// a line for `kubectl logs` (and `logs --previous` after an in-place restart)
	fmt.Printf("serving %s on :%s\n", image, port)
	if err := http.ListenAndServe(":"+port, nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
