// The sandbox's pause image: a pod's first process, holding its namespaces. It reaps children (it may be PID 1 of a
// shared PID namespace) and exits on SIGINT or SIGTERM, as Kubernetes' build/pause/linux/pause.c does.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	signals := make(chan os.Signal, 8)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM, syscall.SIGCHLD)
	for s := range signals {
		if s == syscall.SIGCHLD {
			for {
				var status syscall.WaitStatus
				pid, err := syscall.Wait4(-1, &status, syscall.WNOHANG, nil)
				if pid <= 0 || err != nil {
					break
				}
			}
			continue
		}
		os.Exit(0)
	}
}
