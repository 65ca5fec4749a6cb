package chat

import (
	"slices"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// versionHost is a Host that keeps versions: it records what Edit asks to
// edit; canEdit is whether the chat is idle and the core's.
type versionHost struct {
	*testHost
	canEdit bool
	edited  []string
}

func (h *versionHost) Regenerate()          {}
func (h *versionHost) ShowVersion(int)      {}
func (h *versionHost) EditLast(text string) { h.edited = append(h.edited, text) }
func (h *versionHost) CanEdit() bool        { return h.canEdit }

// Edit is in the menu of the last question only, once it was answered and
// while the Host can edit; it hands the Host that question's text.
func TestEditIsOfferedOnTheLastAnsweredQuestion(t *testing.T) {
	h := newHarness(t)
	vh := &versionHost{testHost: h.d.host, canEdit: true}
	h.d.transcript.d.host = vh
	turn := func(q, a string) {
		h.d.Emit(agent.Event{Kind: agent.EventUserMessage, Text: q})
		h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
		h.d.Emit(agent.Event{Kind: agent.EventText, Text: a})
		h.d.Emit(agent.Event{Kind: agent.EventTurnDone})
	}
	turn("first question", "first answer")
	turn("second question", "second answer")
	h.waitFor("both answers", func() bool { return len(h.d.transcript.view.rows) == 4 })
	menuHasEdit := func(user string) (edit func(), ok bool) {
		for _, r := range h.d.transcript.view.rows {
			if r.snap.kind != itemUser || r.snap.text != user {
				continue
			}
			for _, it := range msgMenu(h.d.transcript.d, func() *row { return r }).Items {
				if it.Label == "Edit" {
					return it.Action, true
				}
			}
		}
		return nil, false
	}
	h.ui(func() {
		if _, ok := menuHasEdit("first question"); ok {
			t.Error("an earlier question offers Edit")
		}
		edit, ok := menuHasEdit("second question")
		if !ok {
			t.Fatal("the last answered question does not offer Edit")
		}
		edit()
		if !slices.Equal(vh.edited, []string{"second question"}) {
			t.Errorf("Edit asked to edit %q", vh.edited)
		}
		vh.canEdit = false // a reply runs, or the chat is not the core's yet
		if _, ok := menuHasEdit("second question"); ok {
			t.Error("Edit is offered while the Host cannot edit")
		}
		vh.canEdit = true
	})
	// A question not answered yet (it failed before an answer) is Retry's.
	h.d.Emit(agent.Event{Kind: agent.EventUserMessage, Text: "third question"})
	h.waitFor("the third question", func() bool { return len(h.d.transcript.view.rows) == 5 })
	h.ui(func() {
		for _, q := range []string{"second question", "third question"} {
			if _, ok := menuHasEdit(q); ok {
				t.Errorf("%q offers Edit with no answer after the last question", q)
			}
		}
	})
}
