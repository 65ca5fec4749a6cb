package chat

import (
	"strings"
	"sync/atomic"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// retryHost is a test host with the core's Retry.
type retryHost struct {
	*testHost
	retries atomic.Int32
}

func (h *retryHost) Retry() { h.retries.Add(1) }

// interruptedNote is what the store's recovery records of a turn a kill
// cut short: the saved part of the reply, and the question when it had not
// reached the messages.
func interruptedNote(after int, text, reasoning, input string) agent.Note {
	return agent.Note{After: after, Kind: agent.NoteFailed, End: &agent.TurnEnd{Outcome: agent.TurnInterrupted},
		Text: text, Reasoning: reasoning, Input: input, Error: "the app closed"}
}

// A reply a kill cut short comes back as the reply it was, rendered as a
// reply (its Markdown parsed), marked "Interrupted — the app closed before
// this reply finished" with Retry (the core's, as a failed turn's), and no
// error notice.
func TestInterruptedReplyShowsItsPartWithRetry(t *testing.T) {
	h := newHarness(t)
	host := &retryHost{testHost: h.d.host}
	h.d.transcript.d.host = host
	h.ui(func() { h.d.win.Resize(fyne.NewSize(900, 2000)) })
	h.d.transcript.ShowSession(agent.Session{ID: "s", Messages: []protocol.ProviderMessage{
		{Role: protocol.RoleUser, Content: "first"},
		{Role: protocol.RoleAssistant, Content: "first answer"},
		{Role: protocol.RoleUser, Content: "tell me more"},
	}, Notes: []agent.Note{interruptedNote(3, "The part that **arrived**", "thinking", "")}})

	var av *assistantView
	h.waitFor("the interrupted reply", func() bool {
		for _, v := range h.d.transcript.liveViews() {
			if a, ok := v.(*assistantView); ok && a.r.snap.text == "The part that **arrived**" {
				av = a
			}
		}
		return av != nil
	})
	h.ui(func() {
		if got := strings.TrimSpace(av.text.body.plain()); got != "The part that arrived" {
			t.Errorf("the partial reply reads %q, not rendered as a reply", got)
		}
		if !av.think.Visible() {
			t.Error("its reasoning is not offered")
		}
		cut := av.footer.cut
		if !cut.box.Visible() || !av.footer.box.Visible() || cut.label.Text != "Interrupted — the app closed before this reply finished" {
			t.Fatalf("the mark: shown %v, %q", cut.box.Visible(), cut.label.Text)
		}
		if !cut.retry.Visible() {
			t.Fatal("no Retry on the interrupted reply")
		}
		if av.footer.status.Visible() {
			t.Error(`the interrupted reply says "Stopped"`)
		}
		if av.footer.regen.Visible() {
			t.Error("the interrupted reply offers Regenerate beside Retry")
		}
		for _, v := range h.d.transcript.liveViews() {
			if n, ok := v.(*noticeView); ok {
				t.Errorf("a notice beside the reply: %q", n.label.Text)
			}
		}
		test.Tap(cut.retry)
	})
	if n := host.retries.Load(); n != 1 {
		t.Fatalf("Retry ran the core's Retry %d times", n)
	}
	if got := h.d.host.resends(); len(got) != 0 {
		t.Errorf("Retry also resent %q", got)
	}
	// The earlier reply, finished, has no mark.
	h.ui(func() {
		for _, v := range h.d.transcript.liveViews() {
			if a, ok := v.(*assistantView); ok && a.r.snap.text == "first answer" && a.footer.cut.box.Visible() {
				t.Error("the finished reply is marked interrupted")
			}
		}
	})
}

// A kill before any reply came: the question (which had not reached the
// messages) is shown, then a quiet notice, not an error, saying so with
// Retry; a host without the core's Retry resends the question.
func TestInterruptedBeforeAnyReplyIsANoticeWithRetry(t *testing.T) {
	h := newHarness(t)
	h.ui(func() { h.d.win.Resize(fyne.NewSize(900, 2000)) })
	h.d.transcript.ShowSession(agent.Session{ID: "s", Messages: []protocol.ProviderMessage{
		{Role: protocol.RoleUser, Content: "first"},
		{Role: protocol.RoleAssistant, Content: "first answer"},
	}, Notes: []agent.Note{interruptedNote(2, "", "", "the lost question")}})

	var nv *noticeView
	var asked bool
	h.waitFor("the question and the notice", func() bool {
		nv, asked = nil, false
		for _, v := range h.d.transcript.liveViews() {
			switch v := v.(type) {
			case *noticeView:
				nv = v
			case *userView:
				asked = asked || v.r.snap.text == "the lost question"
			}
		}
		return nv != nil && asked
	})
	h.ui(func() {
		if nv.label.Text != InterruptedText() || !nv.retry.Visible() {
			t.Fatalf("the notice reads %q, Retry shown %v", nv.label.Text, nv.retry.Visible())
		}
		if nv.label.Importance == uikit.Importance(uikit.NoticeError) {
			t.Error("an interrupted turn is shown as an error")
		}
		test.Tap(nv.retry)
	})
	if got := h.d.host.resends(); len(got) != 1 || got[0] != "the lost question" {
		t.Fatalf("Retry resent %q", got)
	}
}
