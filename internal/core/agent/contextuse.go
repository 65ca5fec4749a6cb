package agent

// ContextUse is what the next request would send, against the model's
// context window.
type ContextUse struct {
	// Tokens is the estimate of the system prompt, the history the
	// request would carry (after compaction) and the tool schemas.
	Tokens int64
	// Window is the model's context window (0 unknown).
	Window int64
	// Measured: Tokens starts from the provider's own count of the last
	// request (its usage) plus an estimate of what was added since; false,
	// it is all estimated (about 4 characters a token for Latin text, 1.5
	// tokens a CJK character).
	Measured bool
}

// ContextUse estimates what the next request of the current chat sends.
func (c *Core) ContextUse() ContextUse { return ContextUse{} }
