// A `sleep`-style stand-in (for busybox's `sleep 1000000` and the like): does nothing until SIGTERM or SIGINT, then
// exits 0 at once, as a shell's sleep does when its pod stops (docs/real-nodes.md "Images").
package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	fmt.Printf("%s sleeping\n", os.Getenv("IMAGE"))
	<-stop
	os.Exit(0)
}
