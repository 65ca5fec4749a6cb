package plugin

import (
	"context"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// A server that accepts and never answers: the clone gives up at its
// deadline and its staging folder goes.
func TestCloneFromASilentServerTimesOut(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	held := make(chan net.Conn, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held <- c // kept open, never written to
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		for {
			select {
			case c := <-held:
				c.Close()
			default:
				return
			}
		}
	})
	// The server never answers, so any bound ends the clone the same way;
	// a short one is waited out in real time (git is a real process), so it
	// is short.
	old := cloneTimeout
	cloneTimeout = 300 * time.Millisecond
	t.Cleanup(func() { cloneTimeout = old })
	_, layout := newStore(t)
	url := "http://" + ln.Addr().String() + "/plugin.git"
	_, _, err = Clone(context.Background(), layout, url)
	if err == nil || !strings.Contains(err.Error(), "git clone "+url+": no complete answer within 300ms") {
		t.Fatalf("clone: %v", err)
	}
	entries, err := os.ReadDir(layout.StagingDir())
	if err != nil || len(entries) != 0 {
		t.Fatalf("staging folder keeps %v (%v)", entries, err)
	}
}
