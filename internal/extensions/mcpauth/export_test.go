package mcpauth

import "time"

// NewAt is New on a clock of the test's (a process whose tokens expired).
func NewAt(cfg Config, now func() time.Time) *Auth {
	cfg.now = now
	return New(cfg)
}
