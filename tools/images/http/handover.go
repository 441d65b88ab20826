// Listener handover for hot upgrades (docs/sidecarset.md "Hot upgrade on a real node"): with HANDOVER_SOCKET set (a
// unix socket path on a volume the two hot-upgrade twins of a SidecarSet sidecar share), a starting instance first
// asks the one serving there for its listening socket (SCM_RIGHTS) and serves on it; the old instance then stops
// accepting, finishes what it serves and stays idle until the kubelet replaces it with the empty image. The socket is
// never closed in between, so no connection is refused during the swap — what OpenKruise's hotupgrade sample does
// with its migrate.sh PostStartHook. The new instance writes /tmp/serving (in its own file system) once it serves, so
// a PostStartHook that waits for that file holds the kubelet's "started" until the swap is done.
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"sync/atomic"
	"syscall"
	"time"
)

const servingMark = "/tmp/serving"

var (
	// set once the listener went to the next instance
	handedOver atomic.Bool
	// connections open (accepted, not yet closed)
	open atomic.Int64
)

func track(_ net.Conn, st http.ConnState) {
	switch st {
	case http.StateNew:
		open.Add(1)
	case http.StateClosed, http.StateHijacked:
		open.Add(-1)
	}
}

// waitDrained holds a stop (SIGTERM) of an instance that handed its listener over until it has answered what it
// accepted before (bounded): its connections are not cut by the kubelet resetting it to the empty image.
func waitDrained() {
	for end := time.Now().Add(3 * time.Second); handedOver.Load() && open.Load() > 0 && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
}

// takeOver returns the listener of the instance serving at path, or nil when none answers there.
func takeOver(path string) net.Listener {
	conn, err := net.DialTimeout("unix", path, 2*time.Second)
	if err != nil {
		return nil
	}
	defer conn.Close()
	uc := conn.(*net.UnixConn)
	uc.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 16)
	oob := make([]byte, syscall.CmsgSpace(4))
	_, oobn, _, _, err := uc.ReadMsgUnix(buf, oob)
	if err != nil {
		fmt.Fprintln(os.Stderr, "handover:", err)
		return nil
	}
	msgs, err := syscall.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		fmt.Fprintln(os.Stderr, "handover: no control message", err)
		return nil
	}
	fds, err := syscall.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1 {
		fmt.Fprintln(os.Stderr, "handover: no descriptor", err)
		return nil
	}
	f := os.NewFile(uintptr(fds[0]), "listener")
	defer f.Close()
	ln, err := net.FileListener(f)
	if err != nil {
		fmt.Fprintln(os.Stderr, "handover:", err)
		return nil
	}
	fmt.Println("took the listener over from the previous instance")
	return ln
}

// giveAway serves the listener's descriptor at path to the next instance, once; then this one stops accepting.
func giveAway(path string, ln net.Listener) {
	os.Remove(path)
	ul, err := net.Listen("unix", path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "handover:", err)
		return
	}
	conn, err := ul.Accept()
	// the path is the next instance's from now on: it listens there once it serves
	ul.(*net.UnixListener).SetUnlinkOnClose(false)
	ul.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, "handover:", err)
		return
	}
	defer conn.Close()
	f, err := ln.(*net.TCPListener).File()
	if err != nil {
		fmt.Fprintln(os.Stderr, "handover:", err)
		return
	}
	defer f.Close()
	if _, _, err := conn.(*net.UnixConn).WriteMsgUnix([]byte("L"), syscall.UnixRights(int(f.Fd())), nil); err != nil {
		fmt.Fprintln(os.Stderr, "handover:", err)
		return
	}
	// the socket stays open in the next instance: closing this copy refuses nothing. Not srv.Shutdown: it drops a
	// connection accepted whose request is read after the shutdown began (net/http conn.serve), which the client sees
	// as a hang-up; closing the listener only ends the accept loop, and what was accepted is answered.
	handedOver.Store(true)
	fmt.Println("gave the listener to the next instance; no longer accepting")
	ln.Close()
}

// serve runs the server on the port, or on the listener taken over at handover (then gives it on in turn).
func serve(port, handover string) error {
	srv := &http.Server{Addr: ":" + port, ConnState: track}
	var ln net.Listener
	if handover != "" {
		ln = takeOver(handover)
	}
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", ":"+port); err != nil {
			return err
		}
	}
	// the image has no /tmp of its own
	os.MkdirAll("/tmp", 0o1777)
	os.WriteFile(servingMark, []byte("serving\n"), 0o644)
	if handover == "" {
		return srv.Serve(ln)
	}
	go giveAway(handover, ln)
	if err := srv.Serve(ln); !handedOver.Load() {
		return err
	}
	// handed over: idle until the kubelet stops this instance (SIGTERM exits)
	select {}
}
