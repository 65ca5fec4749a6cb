package agent

import (
	"context"
	"slices"
)

// Permissions are the approvals in force: standing rules and the tools the
// current session approved "for this session".
type Permissions struct {
	Always  []Rule
	Session []string
}

// Permissions lists the approvals in force (for Settings).
func (c *Core) Permissions() Permissions {
	p := Permissions{Always: c.settings.Get().AlwaysRules()}
	c.mu.Lock()
	p.Session = slices.Clone(c.session.Approved)
	c.mu.Unlock()
	return p
}

// RevokeAlways removes a standing approval: the next such call asks again.
// It holds the busy token (a turn deciding a permission never sees a rule
// half-revoked).
func (c *Core) RevokeAlways(r Rule) error {
	return c.guarded(OpRevoke, func() error { return c.settings.RevokeRule(r) })
}

// RevokeSession removes a "for this session" approval and saves the
// session. It holds the busy token.
func (c *Core) RevokeSession(ctx context.Context, tool string) error {
	return c.guarded(OpRevoke, func() error {
		c.mu.Lock()
		c.session.Approved = slices.DeleteFunc(c.session.Approved, func(t string) bool { return t == tool })
		c.mu.Unlock()
		return c.save(ctx)
	})
}
