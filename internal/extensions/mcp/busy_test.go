package mcp

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// hogCPU keeps every core busy until the test ends: the machine a user
// starts the app on while a build runs.
func hogCPU(t *testing.T) {
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := 0
			for !stop.Load() {
				x++
			}
			_ = x
		}()
	}
	t.Cleanup(func() { stop.Store(true); wg.Wait() })
}

// Twenty node servers start with the host's own limits (the 5 s handshake
// bound, the start slots, the retries) while a CPU hog keeps every core
// busy, and none fails: with 8 starting at once whatever the cores, 11-16
// of 20 failed for the session on 2 busy cores.
func TestTwentyServersStartBesideACPUHog(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 20 node processes beside a CPU hog")
	}
	hogCPU(t)
	base := everything(t)
	var servers []Server
	for i := range 20 {
		s := base
		s.Name = fmt.Sprintf("e%02d", i)
		servers = append(servers, s)
	}
	retries := &countRetries{}
	m := NewManager(Options{Log: slog.New(retries)})
	t.Cleanup(m.Close)
	start := time.Now()
	m.Start(servers)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := m.WaitStarted(ctx); err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, st := range m.Servers() {
		if st.State != StateReady {
			failed++
			t.Errorf("%s: %s %s", st.Name, st.State, st.Err)
		}
	}
	t.Logf("20 servers beside a CPU hog on %d cores: %d failed, %d starts tried again, all started in %v",
		runtime.NumCPU(), failed, retries.n.Load(), time.Since(start).Round(time.Millisecond))
}

// countRetries counts the starts tried again (the log's record of each).
type countRetries struct{ n atomic.Int64 }

func (c *countRetries) Enabled(context.Context, slog.Level) bool { return true }
func (c *countRetries) Handle(_ context.Context, r slog.Record) error {
	if strings.Contains(r.Message, "trying again") {
		c.n.Add(1)
	}
	return nil
}
func (c *countRetries) WithAttrs([]slog.Attr) slog.Handler { return c }
func (c *countRetries) WithGroup(string) slog.Handler      { return c }
