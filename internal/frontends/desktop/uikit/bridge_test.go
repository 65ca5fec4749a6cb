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

// A burst of kicks runs fn far fewer times than it was kicked, and the last
// run starts after the last kick.
func TestThrottleCoalescesAndEndsAfterTheLastKick(t *testing.T) {
	test.NewTempApp(t)
	b := NewBridge()
	t.Cleanup(b.Stop)
	var runs atomic.Int64
	var lastRun atomic.Int64
	th := NewThrottle(b, 50*time.Millisecond, func() {
		runs.Add(1)
		lastRun.Store(time.Now().UnixNano())
	})
	for range 1_000 {
		th.Kick()
	}
	lastKick := time.Now().UnixNano()
	for lastRun.Load() < lastKick {
		time.Sleep(5 * time.Millisecond) // test polling; bounded by the test timeout
	}
	if n := runs.Load(); n >= 1_000 || n < 1 {
		t.Errorf("%d runs for 1,000 kicks", n)
	}
}
