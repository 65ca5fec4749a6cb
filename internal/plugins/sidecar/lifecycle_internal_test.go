package sidecar

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// Call waits for the sidecar's failure only when the connection is going
// away, never for the caller's own timeout or the peer's answer.
func TestAwaitsCrash(t *testing.T) {
	live := context.Background()
	expired, cancel := context.WithCancel(context.Background())
	cancel()
	closed := fmt.Errorf("sidecar: connection closed: %w", ndjson.ErrClosed)
	tests := []struct {
		name string
		ctx  context.Context
		err  error
		want bool
	}{
		{"answered", live, nil, false},
		{"the peer's error answer", live, protocol.NewError(protocol.ReasonInternal, "no"), false},
		{"the connection ended", live, closed, true},
		{"the connection timed the call out before ctx said so", live,
			fmt.Errorf("sidecar: m: %w", context.DeadlineExceeded), false},
		{"cancelled by the caller", live, fmt.Errorf("m: %w", context.Canceled), false},
		{"the caller's ctx is done, whatever the error", expired, closed, false},
		{"a write failure", live, errors.New("sidecar: write: broken pipe"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := awaitsCrash(tt.ctx, tt.err); got != tt.want {
				t.Fatalf("awaitsCrash(%v) = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}
