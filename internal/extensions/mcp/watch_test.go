package mcp

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// Every watcher is told of a change (and may read the Manager from its
// call); one stopped before the change is not.
func TestWatchTellsEveryWatcherUntilStopped(t *testing.T) {
	t.Parallel() // its own Manager and processes: see slow in manager_test.go
	node := testutil.Node(t)
	m := NewManager(Options{Handshake: time.Minute})
	defer m.Close()
	var told, stopped atomic.Int32
	var blind atomic.Bool
	defer m.Watch(func() {
		if len(m.Servers()) != 1 {
			blind.Store(true)
		}
		told.Add(1)
	})()
	stop := m.Watch(func() { stopped.Add(1) })
	stop()
	m.Start([]Server{{Name: "crashes", Server: mcpspec.Server{Command: node, Args: []string{"-e", "process.exit(3)"}}}})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := m.WaitStarted(ctx); err != nil {
		t.Fatal(err)
	}
	testutil.WaitUntil(t, "the watcher told of the failed start", func() bool { return told.Load() > 0 })
	if blind.Load() {
		t.Error("the watcher did not read the server it was told of")
	}
	if n := stopped.Load(); n != 0 {
		t.Errorf("a stopped watcher was called %d times", n)
	}
}

// A start failure's line names the server and masks a secret in its error.
func TestStartFailureLine(t *testing.T) {
	line := Status{Name: "web", Err: "401: token=sk-abcdefghijklmnopqrstuvwx rejected"}.StartFailure()
	if !strings.HasPrefix(line, "mcp server web did not start: 401: ") || strings.Contains(line, "sk-abcdefghijklmnopqrstuvwx") {
		t.Fatalf("line %q", line)
	}
}
