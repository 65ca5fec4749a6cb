package desktop

import (
	"context"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// The approval card says what "For this session" and "Always" would allow;
// for a call no approval can cover it says why and offers only once or
// deny.
func TestApprovalCardSaysWhatItCovers(t *testing.T) {
	cases := []struct {
		req       agent.ApprovalRequest
		line      string
		widerShow bool
	}{
		{agent.ApprovalRequest{CallID: "c1", Tool: "run_command", Arguments: `{"command":"git status"}`,
			Covers: "run_command `git status …` in /w"},
			"For this session / Always would allow: run_command `git status …` in /w", true},
		{agent.ApprovalRequest{CallID: "c2", Tool: "run_command", Arguments: `{"command":"LANG=C echo hi"}`,
			Covers: "`LANG=C echo hi` sets variables, so no approval can cover it", OnceOnly: true},
			"Only once: `LANG=C echo hi` sets variables, so no approval can cover it", false},
	}
	h := newHarness(t) // one window: Fyne's test driver shares its font caches unguarded
	for _, c := range cases {
		ctx, cancel := context.WithCancel(context.Background())
		got := make(chan agent.Approval, 1)
		go func() { got <- h.d.Approve(ctx, c.req) }()
		h.waitFor("approval buttons", func() bool {
			return h.transcriptButton("Approve once") != nil && strings.Contains(h.renderedTranscript(), c.line)
		})
		h.ui(func() {
			for _, label := range []string{"For this session", "Always"} {
				if shown := h.transcriptButton(label) != nil; shown != c.widerShow {
					t.Errorf("%s: %q shown %v, want %v", c.req.Arguments, label, shown, c.widerShow)
				}
			}
		})
		cancel()
		<-got
		h.waitFor("buttons gone", func() bool { return h.transcriptButton("Approve once") == nil })
	}
}
