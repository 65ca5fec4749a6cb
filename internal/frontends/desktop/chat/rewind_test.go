package chat

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/textdiff"
)

// rewindHost is a Host that rewinds: it records what Rewind to here asks.
type rewindHost struct {
	*testHost
	can   bool
	asked []string
}

func (h *rewindHost) RewindTo(text string, fromEnd int) {
	h.asked = append(h.asked, text+"#"+string(rune('0'+fromEnd)))
}
func (h *rewindHost) CanRewind() bool { return h.can }

// Each of the user's messages offers Rewind to here while the host can
// rewind; it names the message by its text and how many of the same text
// follow it. The assistant's messages do not offer it.
func TestRewindIsOfferedOnUserMessages(t *testing.T) {
	h := newHarness(t)
	rh := &rewindHost{testHost: h.d.host, can: true}
	h.d.transcript.d.host = rh
	for _, q := range []string{"same", "other", "same"} {
		h.d.Emit(agent.Event{Kind: agent.EventUserMessage, Text: q})
		h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
		h.d.Emit(agent.Event{Kind: agent.EventText, Text: "answer to " + q})
		h.d.Emit(agent.Event{Kind: agent.EventTurnDone})
	}
	h.waitFor("the turns", func() bool { return len(h.d.transcript.view.rows) == 6 })
	rewindItem := func(r *row) *fyne.MenuItem {
		for _, it := range msgMenu(h.d.transcript.d, func() *row { return r }).Items {
			if it.Label == "Rewind to here…" {
				return it
			}
		}
		return nil
	}
	h.ui(func() {
		for _, r := range h.d.transcript.view.rows {
			it := rewindItem(r)
			if (it != nil) != (r.snap.kind == itemUser) {
				t.Errorf("row %d (%q): Rewind offered %v", r.index, r.snap.text, it != nil)
			}
			if it != nil {
				it.Action()
			}
		}
		if want := []string{"same#1", "other#0", "same#0"}; !slices.Equal(rh.asked, want) {
			t.Errorf("asked %v, want %v", rh.asked, want)
		}
		rh.can = false // a reply runs
		if rewindItem(h.d.transcript.view.rows[0]) != nil {
			t.Error("Rewind offered while the host cannot rewind")
		}
	})
}

type rewindCall struct {
	index int
	mode  agent.RewindMode
	force bool
}

// fakeRewinding plans plan and records the rewinds; one with conflicts
// not forced fails as the core's does.
type fakeRewinding struct {
	plan  agent.RewindPlan
	mu    sync.Mutex
	calls []rewindCall
}

func (f *fakeRewinding) PlanRewind(_ context.Context, i int) (agent.RewindPlan, error) {
	p := f.plan
	p.MessageIndex = i
	return p, nil
}

func (f *fakeRewinding) Rewind(_ context.Context, i int, mode agent.RewindMode, force bool) (agent.RewindResult, error) {
	f.mu.Lock()
	f.calls = append(f.calls, rewindCall{i, mode, force})
	f.mu.Unlock()
	if len(f.plan.Conflicts) > 0 && !force && mode != agent.RewindConversation {
		return agent.RewindResult{}, errors.New("changed outside the agent: " + strings.Join(f.plan.Conflicts, ", "))
	}
	return agent.RewindResult{Restored: []string{"a.txt"}, Draft: "the first message"}, nil
}

func (f *fakeRewinding) recorded() []rewindCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

// findButton is the visible button reading text under o.
func findButton(o fyne.CanvasObject, text string) *widget.Button {
	switch w := o.(type) {
	case *widget.Button:
		if w.Text == text && w.Visible() {
			return w
		}
	case *fyne.Container:
		for _, c := range w.Objects {
			if b := findButton(c, text); b != nil {
				return b
			}
		}
	case fyne.Widget:
		r := test.WidgetRenderer(w)
		for _, c := range r.Objects() {
			if b := findButton(c, text); b != nil {
				return b
			}
		}
	}
	return nil
}

func overlayButton(h *harness, text string) (b *widget.Button) {
	h.ui(func() {
		for _, o := range h.d.win.Canvas().Overlays().List() {
			if b = findButton(o, text); b != nil {
				return
			}
		}
	})
	return b
}

func rewindPlan(conflicts ...string) agent.RewindPlan {
	return agent.RewindPlan{
		Files:         []textdiff.File{textdiff.Compute("a.txt", "a.txt", "edited\n", "original\n", textdiff.Options{})},
		Conflicts:     conflicts,
		DropsMessages: 6,
		Untracked:     []string{"run_command `make` ran after this message: what it changed is not tracked"},
	}
}

// The rewind dialog shows what restoring does (the files as diffs, what it
// cannot take back, what it drops) and rewinds code and conversation when
// asked; done gets the draft.
func TestRewindDialogWithoutConflicts(t *testing.T) {
	h := newHarness(t)
	f := &fakeRewinding{plan: rewindPlan()}
	done := make(chan agent.RewindResult, 1)
	var v *RewindDialog
	h.ui(func() {
		v = ShowRewind(RewindDeps{Win: h.d.win, Bridge: h.d.b, Core: f, CopyText: h.d.host.CopyText}, 2, func(r agent.RewindResult) { done <- r })
	})
	h.waitFor("the plan", func() bool { return v.planned })
	h.ui(func() {
		shown := diffShown(v.diff)
		if !strings.Contains(shown, "- edited") || !strings.Contains(shown, "+ original") {
			t.Errorf("the dialog's diff:\n%s", shown)
		}
		if v.conflict.Visible() {
			t.Errorf("a conflict is shown: %q", v.conflict.Text)
		}
		if !strings.Contains(v.notes.Text, "not tracked") || !strings.Contains(v.drops.Text, "6 messages") {
			t.Errorf("notes %q, drops %q", v.notes.Text, v.drops.Text)
		}
		if v.code.Disabled() || v.conv.Disabled() || v.both.Disabled() {
			t.Error("a choice is disabled")
		}
		test.Tap(v.both)
	})
	res := <-done
	if res.Draft != "the first message" {
		t.Errorf("draft %q", res.Draft)
	}
	if got := f.recorded(); !slices.Equal(got, []rewindCall{{2, agent.RewindBoth, false}}) {
		t.Errorf("rewinds %v", got)
	}
}

// Files changed outside the agent are named, and restoring them asks
// first: "Restore anyway?" then rewinds with force.
func TestRewindDialogWithConflicts(t *testing.T) {
	h := newHarness(t)
	f := &fakeRewinding{plan: rewindPlan("a.txt")}
	done := make(chan agent.RewindResult, 1)
	var v *RewindDialog
	h.ui(func() {
		v = ShowRewind(RewindDeps{Win: h.d.win, Bridge: h.d.b, Core: f, CopyText: h.d.host.CopyText}, 0, func(r agent.RewindResult) { done <- r })
	})
	h.waitFor("the plan", func() bool { return v.planned })
	h.ui(func() {
		if !v.conflict.Visible() || !strings.Contains(v.conflict.Text, "a.txt") {
			t.Errorf("conflict %q shown %v", v.conflict.Text, v.conflict.Visible())
		}
		test.Tap(v.code)
		if v.confirm == nil {
			t.Fatal("restoring over a conflict did not ask")
		}
	})
	if got := f.recorded(); len(got) != 0 {
		t.Fatalf("rewound before the answer: %v", got)
	}
	yes := overlayButton(h, "Yes")
	if yes == nil {
		t.Fatal("no Yes in the confirmation")
	}
	h.ui(func() { test.Tap(yes) })
	<-done
	if got := f.recorded(); !slices.Equal(got, []rewindCall{{0, agent.RewindCode, true}}) {
		t.Errorf("rewinds %v", got)
	}
}

// Code only keeps the message in the conversation: nothing goes back to
// the composer.
func TestRewindCodeOnlyLeavesNoDraft(t *testing.T) {
	h := newHarness(t)
	f := &fakeRewinding{plan: rewindPlan()}
	done := make(chan agent.RewindResult, 1)
	var v *RewindDialog
	h.ui(func() {
		v = ShowRewind(RewindDeps{Win: h.d.win, Bridge: h.d.b, Core: f, CopyText: h.d.host.CopyText}, 4, func(r agent.RewindResult) { done <- r })
	})
	h.waitFor("the plan", func() bool { return v.planned })
	h.ui(func() { test.Tap(v.code) })
	if res := <-done; res.Draft != "" || !slices.Equal(res.Restored, []string{"a.txt"}) {
		t.Errorf("code only gave %+v", res)
	}
	if got := f.recorded(); !slices.Equal(got, []rewindCall{{4, agent.RewindCode, false}}) {
		t.Errorf("rewinds %v", got)
	}
}

// The window's keys in the dialog: Enter picks code and conversation, but
// over a conflict it only asks; while "Restore anyway?" is open Enter does
// nothing and Esc answers no, leaving the dialog open. Nothing is rewound.
func TestRewindKeysNeverOverwrite(t *testing.T) {
	h := newHarness(t)
	f := &fakeRewinding{plan: rewindPlan("a.txt")}
	var cancel, confirm func()
	popped := false
	keys := func(c, ok func()) func() {
		cancel, confirm = c, ok
		return func() { popped = true }
	}
	var v *RewindDialog
	h.ui(func() {
		v = ShowRewind(RewindDeps{Win: h.d.win, Bridge: h.d.b, Core: f, CopyText: h.d.host.CopyText, Keys: keys}, 0,
			func(agent.RewindResult) { t.Error("rewound") })
	})
	h.waitFor("the plan", func() bool { return v.planned })
	h.ui(func() {
		confirm()
		first := v.confirm
		if first == nil {
			t.Fatal("Enter over a conflict did not ask")
		}
		confirm()
		if v.confirm != first {
			t.Error("Enter on the question asked again or answered it")
		}
		cancel()
		if v.confirm != nil || popped {
			t.Errorf("Esc on the question: question open %v, dialog closed %v", v.confirm != nil, popped)
		}
		cancel()
		if !popped {
			t.Error("Esc did not close the dialog")
		}
	})
	if got := f.recorded(); len(got) != 0 {
		t.Errorf("rewinds %v", got)
	}
}
