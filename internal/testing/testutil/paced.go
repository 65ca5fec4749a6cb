package testutil

import (
	"testing"
	"time"
)

// Paced calls feed n times at rate calls per second, catching up after a
// late wake-up: a benchmark op that is a fixed burst at a fixed rate means
// the same with -benchtime 1x as with longer runs.
func Paced(n, rate int, feed func(i int)) {
	start := time.Now()
	for i := range n {
		for float64(i) >= time.Since(start).Seconds()*float64(rate) {
			time.Sleep(100 * time.Microsecond)
		}
		feed(i)
	}
}

// EventuallyTimeout is how long Eventually waits before it calls a wait a
// hang. It never orders events: a test on a machine shared with other
// builds may take many times its quiet-machine duration, so it is generous.
const EventuallyTimeout = 15 * time.Second

// Eventually is the one way a test waits for state another process (or a
// goroutine outside the test's reach) produces: it checks at once, then
// every few milliseconds, backing off to 10 ms, until check holds, and fails
// tb with "timed out waiting for <what>" after EventuallyTimeout. It is a
// hang guard, never a clock: check says when the awaited state is reached.
// What the test itself can wait on (a channel, a process exit, a read) it
// waits on directly; time the code owns runs in a testing/synctest bubble.
func Eventually(tb testing.TB, what string, check func() bool) {
	tb.Helper()
	if !within(EventuallyTimeout, check) {
		tb.Fatalf("timed out waiting for %s", what)
	}
}

// within checks at once, then every few milliseconds, backing off to 10 ms,
// until check holds (true) or limit has passed (false).
func within(limit time.Duration, check func() bool) bool {
	deadline := time.Now().Add(limit)
	pause := time.Millisecond
	for !check() {
		if time.Now().After(deadline) {
			return false
		}
		// Polling another process's state is the one sleep a wait may
		// have: there is no event to wait on.
		time.Sleep(pause)
		pause = min(2*pause, 10*time.Millisecond)
	}
	return true
}

// WaitUntil is Eventually under its older name, kept for the callers that
// use it.
func WaitUntil(tb testing.TB, what string, check func() bool) {
	tb.Helper()
	Eventually(tb, what, check)
}
