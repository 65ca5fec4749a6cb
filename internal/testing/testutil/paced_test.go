package testutil

import (
	"fmt"
	"runtime"
	"testing"
	"testing/synctest"
	"time"
)

// fatalTB records a Fatalf and ends the goroutine as testing.T does.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// runEventually runs Eventually on a goroutine of its own (a Fatalf ends
// it) and returns the failure, if any, and the time it took.
func runEventually(check func() bool) (msg string, took time.Duration) {
	tb := &fatalTB{}
	done := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(done)
		Eventually(tb, "the thing", check)
	}()
	<-done
	return tb.msg, time.Since(start)
}

func TestEventuallyReturnsOnceTheCheckHolds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		calls := 0
		msg, took := runEventually(func() bool { calls++; return calls == 5 })
		if msg != "" || calls != 5 {
			t.Fatalf("failed %q after %d checks", msg, calls)
		}
		// Four pauses backing off from 1 ms: 1+2+4+8.
		if took != 15*time.Millisecond {
			t.Fatalf("took %s, want 15ms", took)
		}
	})
}

func TestEventuallyIsAHangGuard(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		msg, took := runEventually(func() bool { return false })
		if msg != "timed out waiting for the thing" {
			t.Fatalf("failure %q", msg)
		}
		if took < EventuallyTimeout || took > EventuallyTimeout+10*time.Millisecond {
			t.Fatalf("gave up after %s, want %s", took, EventuallyTimeout)
		}
	})
}
