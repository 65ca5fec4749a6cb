package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/reasonix/reasonix-desktop/internal/extensions/settings"
)

// runCommandTool is the built-in tool whose approvals are scoped to a
// program (see AlwaysRule).
const runCommandTool = "run_command"

// Permissions are the approvals in force: standing rules and the current
// session's "for this session" approvals, both scoped rules.
type Permissions struct {
	Always []Rule
	// SessionRules are the current session's approvals, in the order given.
	SessionRules []Rule
	// Session describes each of SessionRules (Rule.Describe), in the same
	// order: what Settings lists, and what RevokeSession takes.
	Session []string
}

// Permissions lists the approvals in force (for Settings).
func (c *Core) Permissions() Permissions {
	p := Permissions{Always: c.settings.Get().AlwaysRules()}
	c.mu.Lock()
	p.SessionRules = slices.Clone(c.session.Approvals)
	c.mu.Unlock()
	for _, r := range p.SessionRules {
		p.Session = append(p.Session, r.Describe())
	}
	return p
}

// RevokeAlways removes a standing approval: the next such call asks again.
// It holds the busy token (a turn deciding a permission never sees a rule
// half-revoked).
func (c *Core) RevokeAlways(r Rule) error {
	return c.guarded(OpRevoke, func() error { return c.settings.RevokeRule(r) })
}

// RevokeSession removes the "for this session" approval whose description
// (Permissions.Session, Rule.Describe) is rule, and saves the session. A
// bare tool name, as older front ends pass, revokes every session approval
// of that tool. It holds the busy token.
func (c *Core) RevokeSession(ctx context.Context, rule string) error {
	return c.revokeSession(ctx, func(r Rule) bool { return r.Describe() == rule || r.Tool == rule })
}

// RevokeSessionRule removes one "for this session" approval and saves the
// session. It holds the busy token.
func (c *Core) RevokeSessionRule(ctx context.Context, rule Rule) error {
	return c.revokeSession(ctx, func(r Rule) bool { return r == rule })
}

func (c *Core) revokeSession(ctx context.Context, match func(Rule) bool) error {
	return c.guarded(OpRevoke, func() error {
		c.mu.Lock()
		before := len(c.session.Approvals)
		c.session.Approvals = slices.DeleteFunc(c.session.Approvals, match)
		changed := len(c.session.Approvals) != before
		c.mu.Unlock()
		if !changed {
			return nil
		}
		return c.save(ctx)
	})
}

// approvalRule is the rule an approval of a call writes ("session" or
// "always"), or false when no rule may cover the call: a run_command that
// cmdscope cannot prove is one program (assignments, wrappers, options
// that run programs, shell syntax), or with no program at all.
func approvalRule(tool, workspace string, args json.RawMessage) (Rule, bool) {
	r := AlwaysRule(tool, workspace, args)
	if r.Tool == runCommandTool && r.CommandPrefix == "" || r.Tool == settings.WebFetchTool && r.Host == "" {
		return Rule{}, false
	}
	return r, true
}

// onceOnly says why no approval of a call can go beyond "once".
func onceOnly(tool string, args json.RawMessage) string {
	if tool == settings.WebFetchTool {
		return "a " + tool + " call without an http(s) address cannot be approved beyond once"
	}
	if tool != runCommandTool {
		return "a " + tool + " call cannot be approved beyond once"
	}
	a := settings.CommandScope(args)
	if a.Line == "" {
		return "a " + tool + " call without a program cannot be approved beyond once"
	}
	return fmt.Sprintf("`%s` %s, so no approval can cover it", shorten(a.Line), a.Reason)
}

// shorten keeps a command line in a notice to one readable length.
func shorten(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return s
}

// approvalCovers is what the approval card says a "session" or "always"
// answer would allow, or (onceOnly) why only "once" is possible.
func approvalCovers(tool Tool, workspace string, args json.RawMessage) (covers string, once bool) {
	if tool.AlwaysAsk {
		return tool.Name + " says it may destroy data, so it is asked about every time", true
	}
	r, ok := approvalRule(tool.Name, workspace, args)
	if !ok {
		return onceOnly(tool.Name, args), true
	}
	return r.Describe(), false
}

// approveForSession records a "for this session" approval of a call.
func (c *Core) approveForSession(tool, workspace string, args json.RawMessage) {
	r, ok := approvalRule(tool, workspace, args)
	if !ok {
		c.notice("approved once: " + onceOnly(tool, args))
		return
	}
	c.mu.Lock()
	if !slices.Contains(c.session.Approvals, r) {
		c.session.Approvals = append(c.session.Approvals, r)
	}
	c.mu.Unlock()
}

// sessionAllows reports whether one of the session's approvals allows the
// call (each scoped like an "always" rule). Called with c.mu held.
func (s *Session) sessionAllows(tool, workspace string, args json.RawMessage) bool {
	for _, r := range s.Approvals {
		if r.Allows(tool, workspace, args) {
			return true
		}
	}
	return false
}
