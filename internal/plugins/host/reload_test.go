package host_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/plugins/host"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// Restart and New chat both reload; fired together they used to run two
// starts at once, publish generations out of order and shut a generation
// down under a turn that had just taken it. Here 100 rounds of both race
// with turns: generations only ever grow, no turn sees a stopped sidecar,
// and each reload either publishes or reports the turn (ErrBusy).
func TestConcurrentReloadsAreSingleFlight(t *testing.T) {
	f := newFixture(t)
	f.add("alpha", nil)
	rt := f.runtime()
	if _, err := rt.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	var (
		stop      atomic.Bool
		published atomic.Int64
		busy      atomic.Int64
		wg        sync.WaitGroup
		errMu     sync.Mutex
		errs      []error
	)
	fail := func(err error) {
		errMu.Lock()
		errs = append(errs, err)
		errMu.Unlock()
	}
	reload := func(newChat bool, i int) {
		defer wg.Done()
		if newChat {
			rt.SetSession(fmt.Sprintf("chat-%d", i), t.TempDir())
		}
		gen, err := rt.Reload(context.Background())
		switch {
		case errors.Is(err, host.ErrBusy):
			busy.Add(1)
		case err != nil:
			fail(fmt.Errorf("reload %d: %w", i, err))
		default:
			published.Add(1)
			if gen.Number < 2 {
				fail(fmt.Errorf("reload %d published generation %d", i, gen.Number))
			}
		}
	}
	// A watcher: the published generation number never goes back.
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		last := int64(0)
		for !stop.Load() {
			if g := rt.Current(); g != nil {
				if g.Number < last {
					fail(fmt.Errorf("generation went back from %d to %d", last, g.Number))
				}
				last = g.Number
			}
		}
	}()
	// Turns: while held, the generation they took is never shut down.
	turns := make(chan struct{})
	go func() {
		defer close(turns)
		for !stop.Load() {
			release := rt.Hold()
			gen := rt.Current()
			for _, c := range gen.Clients() {
				if c.State() == sidecar.StateStopped {
					fail(fmt.Errorf("a turn started on generation %d while it was shut down", gen.Number))
				}
			}
			// The behaviour under test, not a wait: a turn holds the
			// runtime for a while, as a real turn's work does.
			time.Sleep(time.Millisecond)
			for name := range map[string]bool{"alpha": true} {
				if c, ok := gen.Client(name); ok && c.State() == sidecar.StateStopped {
					fail(fmt.Errorf("generation %d was shut down under a turn", gen.Number))
				}
			}
			release()
			// The behaviour under test, not a wait: the user idle between
			// turns, when the reloads get their chance to publish.
			time.Sleep(15 * time.Millisecond)
		}
	}()
	for i := range 100 {
		wg.Add(2)
		go reload(false, i) // Restart
		go reload(true, i)  // New chat
		wg.Wait()
	}
	stop.Store(true)
	<-watched
	<-turns
	for _, err := range errs {
		t.Error(err)
	}
	final := rt.Current().Number
	t.Logf("200 reloads: %d published, %d busy, final generation %d", published.Load(), busy.Load(), final)
	if published.Load() == 0 {
		t.Fatal("no reload published")
	}
	if final < published.Load()+1 {
		t.Fatalf("final generation %d after %d publishes", final, published.Load())
	}
}

// Shutdown during a reload's start cancels it: nothing is published and no
// sidecar of the cancelled generation is left running.
func TestShutdownDuringAReloadLeavesNothingRunning(t *testing.T) {
	f := newFixture(t)
	logFile := filepath.Join(t.TempDir(), "events")
	f.add("slow", map[string]any{"env": map[string]any{"MISBEHAVE_LOG": logFile, "MISBEHAVE_INIT_DELAY_MS": "2000"}})
	rt := f.runtime()
	done := make(chan error, 1)
	go func() {
		_, err := rt.Reload(context.Background())
		done <- err
	}()
	// Wait until the sidecar is in its handshake (it logs it), then shut down.
	testutil.Eventually(t, "the sidecar in its handshake", func() bool {
		b, _ := os.ReadFile(logFile)
		return strings.Contains(string(b), "start")
	})
	start := time.Now()
	rt.Shutdown(context.Background())
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a reload cancelled by Shutdown published a generation")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the reload did not end after Shutdown")
	}
	if d := time.Since(start); d > 1500*time.Millisecond {
		t.Fatalf("the reload ended %s after Shutdown: the start was not cancelled", d)
	}
	if rt.Current() != nil {
		t.Fatal("a generation is published")
	}
	testutil.WaitDead(t, pidsIn(t, logFile)...)
}

// pidsIn reads the pids misbehave logged ("<event> <plugin> <pid>").
func pidsIn(t *testing.T, logFile string) []int {
	t.Helper()
	b, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if n, err := strconv.Atoi(f[len(f)-1]); err == nil {
			pids = append(pids, n)
		}
	}
	return pids
}
