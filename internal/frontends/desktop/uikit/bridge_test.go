package uikit

import (
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// Posted work runs in order, and nothing runs after Stop.
func TestBridgeRunsPostsInOrderUntilStopped(t *testing.T) {
	test.NewTempApp(t)
	b := NewBridge()
	var mu sync.Mutex
	var got []int
	done := make(chan struct{})
	for i := range 100 {
		b.Post(func() {
			mu.Lock()
			got = append(got, i)
			mu.Unlock()
			if i == 99 {
				close(done)
			}
		})
	}
	<-done
	b.Stop()
	var late atomic.Bool
	b.Post(func() { late.Store(true) })
	b.OnUI(func() {}) // still usable by tests after Stop
	mu.Lock()
	defer mu.Unlock()
	want := make([]int, 100)
	for i := range want {
		want[i] = i
	}
	if !slices.Equal(got, want) {
		t.Errorf("ran %v", got)
	}
	if late.Load() {
		t.Error("work posted after Stop ran")
	}
}

// A burst of kicks runs fn far fewer times than it was kicked, and a run
// starts after the last kick: fn reads how many kicks were made when it
// starts, and the test waits for the run that saw all 1,000 (a Kick made
// while a run is pending is answered by that run, which has not started
// yet). It waits on that run, not on the clock.
func TestThrottleCoalescesAndEndsAfterTheLastKick(t *testing.T) {
	test.NewTempApp(t)
	b := NewBridge()
	t.Cleanup(b.Stop)
	const kicks = 1_000
	var made, runs atomic.Int64
	sawAll := make(chan struct{})
	var once sync.Once
	th := NewThrottle(b, 50*time.Millisecond, func() {
		runs.Add(1)
		if made.Load() == kicks {
			once.Do(func() { close(sawAll) })
		}
	})
	for range kicks {
		made.Add(1)
		th.Kick()
	}
	select {
	case <-sawAll:
	case <-time.After(15 * time.Second): // a hang guard, not a wait
		t.Fatalf("no run started after the last kick (%d runs)", runs.Load())
	}
	if n := runs.Load(); n >= kicks || n < 1 {
		t.Errorf("%d runs for %d kicks", n, kicks)
	}
}
