package desktop

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/core/tools/todo"
	"github.com/reasonix/reasonix-desktop/internal/foundation/textdiff"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// A running command's Stop reaches the core's StopCall for that call.
func TestStopOnARunningCommandStopsThatCall(t *testing.T) {
	h := newHarness(t)
	f := newFakeCore(t, h.d)
	h.waitFor("the chat loaded", h.d.canRewind) // its load would replace the card
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	h.d.Emit(agent.Event{Kind: agent.EventToolProgress, Call: &agent.ToolCall{ID: "call_3", Name: "run_command",
		Arguments: `{"command":"make"}`, State: agent.ToolRunning, Progress: &agent.ToolProgress{Output: "building…"}}})
	h.waitFor("the running card's output and Stop", func() bool {
		return strings.Contains(h.renderedTranscript(), "building…") && h.transcriptButton("Stop") != nil
	})
	h.ui(func() { test.Tap(h.transcriptButton("Stop")) })
	h.waitFor("StopCall", func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		return slices.Equal(f.stopped, []string{"call_3"})
	})
}

// The todo event shows the checklist in the chat on screen.
func TestTodoEventShowsTheChecklist(t *testing.T) {
	h := newHarness(t)
	newFakeCore(t, h.d)
	h.waitFor("the chat loaded", h.d.canRewind) // its load shows the saved list (none)
	h.d.Emit(agent.Event{Kind: agent.EventTodo, Todos: []todo.Item{
		{Content: "Write the test", Status: "in_progress", ActiveForm: "Writing the test"},
		{Content: "Make it pass", Status: "pending"}}})
	h.waitFor("the checklist", func() bool {
		s := h.renderedTranscript()
		return strings.Contains(s, "Writing the test") && strings.Contains(s, "Make it pass") &&
			strings.Contains(s, "Plan · 0 of 2 done")
	})
}

// Rewind to here on the first message: the dialog shows the plan, Code and
// conversation rewinds to that message's index, the chat shows what the
// core holds then, and the message's text is in the composer.
func TestRewindToHereRewindsAndDrafts(t *testing.T) {
	h := newHarness(t)
	f := newFakeCore(t, h.d)
	f.mu.Lock()
	f.messages = []protocol.ProviderMessage{
		{Role: protocol.RoleUser, Content: "fix it"}, {Role: protocol.RoleAssistant, Content: "fixed once"},
		{Role: protocol.RoleUser, Content: "fix it"}, {Role: protocol.RoleAssistant, Content: "fixed twice"}}
	f.rewindPlan = agent.RewindPlan{DropsMessages: 4,
		Files: []textdiff.File{textdiff.Compute("a.txt", "a.txt", "fixed\n", "broken\n", textdiff.Options{})}}
	f.mu.Unlock()
	h.waitFor("the chat ready", h.d.canRewind)
	h.d.transcript.get().ShowSession(f.Session())
	h.waitFor("the chat shown", func() bool { return strings.Contains(h.renderedTranscript(), "fixed twice") })
	h.ui(func() { h.d.chatHost().RewindTo("fix it", 1) }) // the first of the two
	h.waitFor("the plan", func() bool {
		b := overlayHas(h.d.win, "Code and conversation")
		return b != nil && !b.Disabled()
	})
	h.ui(func() { test.Tap(overlayHas(h.d.win, "Code and conversation")) })
	h.waitFor("the rewound chat and the draft", func() bool {
		return h.d.composer.entry.Text == "draft of 0" && !strings.Contains(h.renderedTranscript(), "fixed")
	})
	f.mu.Lock()
	defer f.mu.Unlock()
	if !slices.Equal(f.rewound, []string{"0 both false"}) {
		t.Errorf("rewinds %v", f.rewound)
	}
}

func TestUserMessageIndex(t *testing.T) {
	msgs := []protocol.ProviderMessage{{Role: protocol.RoleUser, Content: "a"}, {Role: protocol.RoleAssistant, Content: "a"},
		{Role: protocol.RoleUser, Content: "b"}, {Role: protocol.RoleUser, Content: "a"},
		{Role: protocol.RoleUser, Content: "<hook context>\n\nwith context"}, {Role: protocol.RoleUser, Content: "with file\n<file a.txt>"}}
	for _, c := range []struct {
		text    string
		fromEnd int
		want    int
	}{{"a", 0, 3}, {"a", 1, 0}, {"a", 2, -1}, {"b", 0, 2}, {"c", 0, -1}, {"with context", 0, 4}, {"with file", 0, 5}} {
		if got := userMessageIndex(msgs, c.text, c.fromEnd); got != c.want {
			t.Errorf("%q %d: %d, want %d", c.text, c.fromEnd, got, c.want)
		}
	}
}

// The command palette offers the latest user messages to rewind to (the
// keyboard's way): picking one opens its dialog, and Enter there rewinds
// code and conversation.
func TestPaletteRewindsWithTheKeyboard(t *testing.T) {
	h := newHarness(t)
	f := newFakeCore(t, h.d)
	f.mu.Lock()
	f.messages = []protocol.ProviderMessage{
		{Role: protocol.RoleUser, Content: "first\nsecond line"}, {Role: protocol.RoleAssistant, Content: "a"},
		{Role: protocol.RoleUser, Content: "again"}, {Role: protocol.RoleAssistant, Content: "b"}}
	f.mu.Unlock()
	h.waitFor("the chat ready", h.d.canRewind)
	var run func()
	h.ui(func() {
		var got []string
		for _, e := range h.d.paletteEntries() {
			if e.Kind == "Rewind" {
				got = append(got, e.Label+" · "+e.Detail)
				if e.Detail == "message 0" {
					run = e.Run
				}
			}
		}
		if want := []string{"Rewind to here: again · message 2", "Rewind to here: first · message 0"}; !slices.Equal(got, want) {
			t.Errorf("palette rewind entries %q, want %q", got, want)
		}
	})
	if run == nil {
		t.Fatal("no entry for the first message")
	}
	h.ui(run)
	h.waitFor("the plan", func() bool {
		b := overlayHas(h.d.win, "Code and conversation")
		return b != nil && !b.Disabled()
	})
	h.ui(func() { h.d.typedKey(key(fyne.KeyReturn)) })
	h.waitFor("the rewind", func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		return slices.Equal(f.rewound, []string{"0 both false"})
	})
}

// /rewind 0 typed in the window: the chat shows the rewound conversation
// (the core's session event does not redraw the same chat) and the
// message is back in the composer.
func TestSlashRewindRedrawsAndDrafts(t *testing.T) {
	h := newHarness(t)
	f := newFakeCore(t, h.d)
	f.mu.Lock()
	f.messages = []protocol.ProviderMessage{{Role: protocol.RoleUser, Content: "edit it"}, {Role: protocol.RoleAssistant, Content: "edited it"}}
	f.rewindCmd = &agent.CommandResult{Kind: agent.CommandRewound, Name: "/rewind", Text: "Rewound to message 0: restored a.txt",
		Rewound: &agent.RewindResult{Restored: []string{"a.txt"}, Draft: "edit it"}}
	f.mu.Unlock()
	h.waitFor("the chat ready", h.d.canRewind)
	h.d.transcript.get().ShowSession(f.Session())
	h.waitFor("the chat shown", func() bool { return strings.Contains(h.renderedTranscript(), "edited it") })
	h.ui(func() { h.d.execCommand("/rewind 0", true) })
	h.waitFor("the rewound chat and the draft", func() bool {
		s := h.renderedTranscript()
		return h.d.composer.entry.Text == "edit it" && !strings.Contains(s, "edited it") && strings.Contains(s, "restored a.txt")
	})
}
