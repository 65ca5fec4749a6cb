package headless

import (
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/foundation/termsafe"
	"github.com/reasonix/reasonix-desktop/internal/foundation/textdiff"
)

// listRewinds prints /rewind's list: each of the user's messages with its
// number and what rewinding to it restores (the core's text), or in JSON
// each plan with the diff restoring applies.
func (f *Frontend) listRewinds(line string, res agent.CommandResult) {
	if !f.opts.JSON {
		f.print("%s\n", termsafe.String(strings.TrimSuffix(res.Text, "\n")))
		return
	}
	out := make([]jsonRewind, 0, len(res.Rewinds))
	for _, c := range res.Rewinds {
		files := c.Plan.Files
		if files == nil {
			files = []textdiff.File{}
		}
		out = append(out, jsonRewind{MessageIndex: c.Plan.MessageIndex, Message: redact.String(c.Message), Files: files,
			Conflicts: c.Plan.Conflicts, DropsMessages: c.Plan.DropsMessages, Untracked: redactAll(c.Plan.Untracked)})
	}
	f.event(jsonEvent{Kind: KindRewinds, Command: redact.String(line), Result: &jsonResult{Rewinds: out}})
}

// rewound prints what /rewind <n> did. The terminal has no composer to
// put the rewound message back in: it prints it, for the user to send
// again (or edit and send).
func (f *Frontend) rewound(line string, res agent.CommandResult) {
	r := res.Rewound
	if r == nil {
		r = &agent.RewindResult{}
	}
	if f.opts.JSON {
		restored := r.Restored
		if restored == nil {
			restored = []string{}
		}
		f.event(jsonEvent{Kind: KindRewound, Command: redact.String(line), Result: &jsonResult{
			Output: redact.String(res.Text), Restored: restored, Draft: redact.String(r.Draft)}})
		return
	}
	// Only a rewind of the conversation gives the message back (the core
	// says so in its text); a code-only one keeps the message in the chat.
	text, back := strings.CutSuffix(res.Text, "; your message is back in the composer")
	f.print("%s\n", termsafe.String(text))
	if back && r.Draft != "" {
		f.print("%s\n", i18n.T("your message is back: %s", safe(r.Draft)))
	}
}

func redactAll(in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = redact.String(s)
	}
	return out
}
