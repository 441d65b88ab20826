// A stand-in that ignores SIGTERM, for a slow stop (docs/real-nodes.md "Images"): the kubelet must wait out the pod's
// terminationGracePeriodSeconds and then send SIGKILL. Each SIGTERM it receives is logged with the time.
package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	term := make(chan os.Signal, 8)
	signal.Notify(term, syscall.SIGTERM, syscall.SIGINT)
	fmt.Printf("%s running, ignoring SIGTERM\n", os.Getenv("IMAGE"))
	for s := range term {
		fmt.Printf("%s: %v ignored\n", time.Now().UTC().Format(time.RFC3339Nano), s)
	}
}
