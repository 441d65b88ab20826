// A stand-in that exits with a code (docs/real-nodes.md "Images"): EXIT_CODE (default 1) after DELAY_SECONDS
// (default 0), for specs that need a failing or completing container.
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

func main() {
	code, err := strconv.Atoi(os.Getenv("EXIT_CODE"))
	if err != nil {
		code = 1
	}
	if d, err := strconv.Atoi(os.Getenv("DELAY_SECONDS")); err == nil && d > 0 {
		time.Sleep(time.Duration(d) * time.Second)
	}
	fmt.Printf("%s exiting with %d\n", os.Getenv("IMAGE"), code)
	os.Exit(code)
}
