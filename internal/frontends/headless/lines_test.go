package headless

import (
	"context"
	"io"
	"testing"
	"testing/synctest"
)

// A plugin's question outranks the loop: the line typed while both wait is
// the answer; the next one goes to the loop; the end reaches both.
//
// The test runs in a synctest bubble so that "both wait" is a fact, not a
// guess: synctest.Wait returns only once the loop, the question and the
// reader are all blocked. Counting goroutines whose stack shows wait() let
// the line go out while the question was still on its way to its select,
// and the loop took it (a CI run hung on <-answer for ten minutes).
func TestQuestionOutranksTheLoop(t *testing.T) {
	synctest.Test(t, questionOutranksTheLoop)
}

func questionOutranksTheLoop(t *testing.T) {
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
		s, _ := l.next(ctx, nil)
		answer <- s
	}()
	synctest.Wait()
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
	if s, ok := l.next(ctx, nil); ok {
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
	if _, ok := l.next(ctx, nil); ok {
		t.Fatal("a cancelled question got a line")
	}
	go io.WriteString(w, "kept\n")
	if s, ok := l.next(context.Background(), nil); !ok || s != "kept" {
		t.Fatalf("got %q %v", s, ok)
	}
	w.Close()
}

// A reply written the moment the question is printed is the answer, even
// while the asker has not reached its read yet and the loop is waiting.
func TestReplyToAPrintedQuestionIsItsAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, w := io.Pipe()
		l := newLineReader(r)
		defer l.close()
		loop := make(chan string, 1)
		go func() {
			s, _ := l.nextInput(context.Background())
			loop <- s
		}()
		synctest.Wait() // the loop waits, the reader reads
		got, ok := l.next(context.Background(), func() {
			go io.WriteString(w, "yes\n")
			synctest.Wait() // the line is read and offered before the asker reads
		})
		if !ok || got != "yes" {
			t.Fatalf("the question got %q %v", got, ok)
		}
		select {
		case s := <-loop:
			t.Fatalf("the loop got %q", s)
		default:
		}
		w.Close()
		if s := <-loop; s != "" {
			t.Fatalf("the loop got %q at the end", s)
		}
	})
}
