package desktop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// With the real core and the echo model: an edit_file call's approval card
// shows the diff of what approving writes, nothing is written before the
// approval, and the done card keeps the diff.
func TestEditApprovalShowsTheDiffAndTheCardKeepsIt(t *testing.T) {
	h := newHarness(t)
	h.install("echo-provider")
	c := h.chatReady()
	file := filepath.Join(c.Session().WorkspaceRoot, "notes.txt")
	if err := os.WriteFile(file, []byte("alpha\nbeta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.send(`call edit_file {"path":"notes.txt","old_string":"alpha","new_string":"ALPHA"}`)
	h.waitFor("the approval with its diff", func() bool {
		s := h.renderedTranscript()
		return h.transcriptButton("Approve once") != nil && strings.Contains(s, "- alpha") && strings.Contains(s, "+ ALPHA")
	})
	if b, _ := os.ReadFile(file); string(b) != "alpha\nbeta\n" {
		t.Fatalf("written before the approval: %q", b)
	}
	h.ui(func() { test.Tap(h.transcriptButton("Approve once")) })
	h.waitFor("the edit done, its card keeping the diff", func() bool {
		s := h.renderedTranscript()
		return !h.d.state.Busy() && strings.Contains(s, "• done") && strings.Contains(s, "+ ALPHA") &&
			h.transcriptButton("Approve once") == nil
	})
	if b, _ := os.ReadFile(file); string(b) != "ALPHA\nbeta\n" {
		t.Fatalf("after the approval the file holds %q", b)
	}
}

// With the real core: a running command streams its output to its card,
// and Stop ends that call (the turn goes on and ends).
func TestStopEndsARunningCommand(t *testing.T) {
	h := newHarness(t)
	h.install("echo-provider")
	h.chatReady()
	h.send(`call run_command {"command":"echo started; sleep 60"}`)
	h.waitFor("the approval", func() bool { return h.transcriptButton("Approve once") != nil })
	h.ui(func() { test.Tap(h.transcriptButton("Approve once")) })
	h.waitFor("the output and Stop", func() bool {
		return strings.Contains(h.renderedTranscript(), "started") && h.transcriptButton("Stop") != nil &&
			h.transcriptButton("Stopping") == nil
	})
	// The card's Stop, not the composer's: the last "Stop" button shown
	// is the card's (the composer is outside the transcript).
	h.ui(func() { test.Tap(h.transcriptButton("Stop")) })
	h.waitFor("the call stopped and the turn ended", func() bool {
		s := h.renderedTranscript()
		return !h.d.state.Busy() && strings.Contains(s, "stopped by the user") && h.transcriptButton("Stop") == nil
	})
}
