package sdk_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/sdk"
)

// A shutdown without a timeout gets the SDK's default 5 s: an OnShutdown
// that does not return is left behind and the answer goes out at 9/10 of
// it, before the host gives up. Host and plugin are goroutines on io.Pipe
// in a synctest bubble, so the 4.5 s are the bubble's clock.
func TestShutdownDefaultBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		p := &sdk.Plugin{Name: "demo", Version: "1", OnShutdown: func(context.Context) { <-release }}
		h := startHost(t, p, hostOptions{})
		h.handshake()
		start := time.Now()
		if _, err := h.call(protocol.MethodShutdown, protocol.ShutdownParams{}); err != nil {
			t.Fatal(err)
		}
		if elapsed := time.Since(start); elapsed != 4500*time.Millisecond {
			t.Fatalf("the shutdown answer came after %s, want 4.5s", elapsed)
		}
		close(release) // the bubble ends only once every goroutine has
		if err := h.waitServe(); err != nil {
			t.Fatal(err)
		}
	})
}
