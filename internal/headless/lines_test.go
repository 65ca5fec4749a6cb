package headless

import (
	"bytes"
	"context"
	"io"
	"runtime"
	"testing"
	"time"
)

// waiting is how many goroutines are blocked waiting for a line.
func waiting() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	return bytes.Count(buf, []byte("headless.(*lineReader).wait("))
}

// A plugin's question outranks the loop: the line typed while both wait is
// the answer; the next one goes to the loop; the end reaches both.
func TestQuestionOutranksTheLoop(t *testing.T) {
	r, w := io.Pipe()
	l := newLineReader(r)
	defer l.close()
	ctx := context.Background()
	loop := make(chan string, 2)
	go func() {
		for {
			s, ok := l.nextInput(ctx)
			if !ok {
				close(loop)
				return
			}
			loop <- s
		}
	}()
	answer := make(chan string, 1)
	go func() {
		s, _ := l.next(ctx)
		answer <- s
	}()
	deadline := time.Now().Add(10 * time.Second)
	for waiting() < 2 {
		if time.Now().After(deadline) {
			t.Fatal("the askers never waited")
		}
		runtime.Gosched()
	}
	io.WriteString(w, "yes\n")
	if got := <-answer; got != "yes" {
		t.Fatalf("the question got %q", got)
	}
	io.WriteString(w, "/actions\n")
	if got := <-loop; got != "/actions" {
		t.Fatalf("the loop got %q", got)
	}
	w.Close()
	if _, ok := <-loop; ok {
		t.Fatal("the loop did not see the end of the input")
	}
	if s, ok := l.next(ctx); ok {
		t.Fatalf("a question after the end got %q", s)
	}
}

// A question whose context ends leaves its line to the next asker.
func TestAbandonedQuestionKeepsItsLine(t *testing.T) {
	r, w := io.Pipe()
	l := newLineReader(r)
	defer l.close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, ok := l.next(ctx); ok {
		t.Fatal("a cancelled question got a line")
	}
	go io.WriteString(w, "kept\n")
	if s, ok := l.next(context.Background()); !ok || s != "kept" {
		t.Fatalf("got %q %v", s, ok)
	}
	w.Close()
}
