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

// WaitUntil polls check every 10 ms until it holds, failing tb with "timed
// out waiting for <what>" after 15 s. It is a hang guard: it never orders
// events, check says when the awaited state is reached.
func WaitUntil(tb testing.TB, what string, check func() bool) {
	tb.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !check() {
		if time.Now().After(deadline) {
			tb.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
