package headless

import (
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// The terminal question says what a session or always answer would cover,
// and for a call no approval can cover, why only once is offered.
func TestApprovalQuestionSaysWhatItCovers(t *testing.T) {
	cases := []struct {
		req        agent.ApprovalRequest
		has, hasnt []string
	}{
		{agent.ApprovalRequest{Tool: "run_command", Arguments: `{"command":"git status"}`, Covers: "run_command `git status …` in /w"},
			[]string{`Allow run_command {"command":"git status"}?`, "session or always covers: run_command `git status …` in /w", "[s]ession / [a]lways"}, nil},
		{agent.ApprovalRequest{Tool: "run_command", Arguments: `{"command":"LANG=C echo hi"}`, Covers: "`LANG=C echo hi` sets variables, so no approval can cover it", OnceOnly: true},
			[]string{"only once: `LANG=C echo hi` sets variables", "[o]nce / [N]o"}, []string{"[s]ession", "[a]lways"}},
		{agent.ApprovalRequest{Tool: "write_file", Arguments: `{}`},
			[]string{"Allow write_file {}? [o]nce / [s]ession / [a]lways / [N]o: "}, nil},
		{agent.ApprovalRequest{Tool: "run_command", Arguments: `{}`, Covers: "x\x1b[2Jy", OnceOnly: true},
			nil, []string{"\x1b"}},
	}
	for _, c := range cases {
		q := approvalQuestion(c.req, "")
		for _, s := range c.has {
			if !strings.Contains(q, s) {
				t.Errorf("question %q lacks %q", q, s)
			}
		}
		for _, s := range c.hasnt {
			if strings.Contains(q, s) {
				t.Errorf("question %q holds %q", q, s)
			}
		}
	}
}
