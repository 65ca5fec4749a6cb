package agent

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// RewindChoice is one of the user's messages /rewind lists: its index,
// its first line and what rewinding to it does.
type RewindChoice struct {
	Plan    RewindPlan
	Message string // the message's first line, redacted
}

func init() {
	builtins["/rewind"] = builtin{"/rewind [<n> [code|conversation|both] [--force]]",
		"list your messages and what rewinding to each restores, or rewind to message n (both by default)", (*Core).cmdRewind}
}

// cmdRewind answers /rewind: without arguments it lists the rewinds, with
// a message index it does one.
func (c *Core) cmdRewind(ctx context.Context, cl CommandLine) (CommandResult, error) {
	words := strings.Fields(cl.Args)
	if len(words) == 0 {
		return c.listRewinds(ctx)
	}
	n, err := strconv.Atoi(words[0])
	if err != nil {
		return CommandResult{}, fmt.Errorf("/rewind: %q is not a message number (/rewind lists them)", words[0])
	}
	mode, force := RewindBoth, false
	for _, w := range words[1:] {
		switch w {
		case "--force", "-f", "force":
			force = true
		case string(RewindCode), string(RewindConversation), string(RewindBoth):
			mode = RewindMode(w)
		default:
			return CommandResult{}, fmt.Errorf("/rewind: %q is neither a mode (code, conversation, both) nor --force", w)
		}
	}
	res, err := c.Rewind(ctx, n, mode, force)
	if err != nil {
		return CommandResult{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "rewound to message %d (%s)", n, mode)
	if mode != RewindConversation {
		if len(res.Restored) == 0 {
			b.WriteString("; no file needed restoring")
		} else {
			fmt.Fprintf(&b, "; restored %s", strings.Join(res.Restored, ", "))
		}
	}
	if mode != RewindCode {
		b.WriteString("; your message is back in the composer")
	}
	return CommandResult{Kind: CommandRewound, Rewound: &res, Text: redact.String(b.String())}, nil
}

// listRewinds plans a rewind to each of the user's messages.
func (c *Core) listRewinds(ctx context.Context) (CommandResult, error) {
	s := c.Session()
	var out []RewindChoice
	var b strings.Builder
	for i, m := range s.Messages {
		if m.Role != protocol.RoleUser || isSummary(s.Messages, i) {
			continue
		}
		p, err := c.PlanRewind(ctx, i)
		if errors.Is(err, ErrBusy) {
			return CommandResult{}, err
		}
		if err != nil {
			return CommandResult{}, fmt.Errorf("/rewind: message %d: %w", i, err)
		}
		line := redact.String(plainLine(m.Content))
		out = append(out, RewindChoice{Plan: p, Message: line})
		fmt.Fprintf(&b, "%d  %s\n", i, shorten(line))
		switch {
		case len(p.Files) == 0:
			b.WriteString("     no file to restore")
		default:
			paths := make([]string, len(p.Files))
			for k, f := range p.Files {
				paths[k] = f.NewPath
				if paths[k] == "" {
					paths[k] = f.OldPath + " (removed)"
				}
			}
			fmt.Fprintf(&b, "     restores %s", strings.Join(paths, ", "))
		}
		fmt.Fprintf(&b, "; drops %d messages\n", p.DropsMessages)
		if len(p.Conflicts) > 0 {
			fmt.Fprintf(&b, "     changed outside the agent: %s (needs --force)\n", strings.Join(p.Conflicts, ", "))
		}
		for _, u := range p.Untracked {
			b.WriteString("     " + u + "\n")
		}
	}
	if len(out) == 0 {
		return CommandResult{Kind: CommandRewinds, Text: "no message to rewind to"}, nil
	}
	b.WriteString("/rewind <n> [code|conversation|both] [--force] rewinds to message n")
	return CommandResult{Kind: CommandRewinds, Rewinds: out, Text: redact.String(b.String())}, nil
}
