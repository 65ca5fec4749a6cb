package desktop

import (
	"strings"
	"sync"
	"testing"
)

// /retry (and Retry) asked while the chat is not ready waits and runs once
// it is, saying so meanwhile; a chat opened meanwhile drops it (it was asked
// of the other one).
func TestRetryWaitsForTheChat(t *testing.T) {
	h := newHarness(t)
	newFakeCore(t, h.d)
	h.waitFor("the composer", func() bool { return !h.d.composer.sendBtn.Disabled() })
	noticed := func() bool {
		for _, n := range h.d.notes.Entries() {
			if n.Title == "there is no failed message to retry" {
				return true
			}
		}
		return false
	}
	h.ui(func() {
		h.d.state.SetReady(false)
		h.d.composer.retry()
		if !strings.Contains(h.d.readyLine.Text, "Retrying as soon as it is ready") || h.d.composer.waiting == nil {
			t.Errorf("/retry while loading: the status line says %q", h.d.readyLine.Text)
		}
		h.d.state.SetReady(true)
	})
	// The fake core has nothing to retry: that it says so shows it was asked.
	h.waitFor("the retry run once the chat is ready", noticed)
	h.waitFor("the retry over", func() bool { return !h.d.state.Busy() })
	h.ui(func() {
		h.d.state.SetReady(false)
		h.d.composer.retry()
		h.d.transcript.show(h.d.newTranscript()) // another chat on screen
		h.d.state.SetReady(true)
		if h.d.composer.waiting != nil || h.d.state.Busy() { // a retry that runs makes the window busy at once
			t.Errorf("a retry asked of another chat: still waiting %v, run %v", h.d.composer.waiting != nil, h.d.state.Busy())
		}
	})
}

// The UI's calls run until Close waits for them; a call asked meanwhile or
// later does not run, and asking while Close waits is safe (a WaitGroup
// grown while waited on panicked once: "WaitGroup is reused before previous
// Wait has returned").
func TestCallsStopAtClose(t *testing.T) {
	l := &coreLink{}
	ran := make(chan struct{})
	l.goCall(func() { close(ran) })
	<-ran
	var wg sync.WaitGroup
	for range 8 { // callers racing the close
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				l.goCall(func() {})
			}
		}()
	}
	l.wait()
	wg.Wait()
	late := false
	l.goCall(func() { late = true })
	l.wait()
	if late {
		t.Error("a call asked after Close ran")
	}
}
