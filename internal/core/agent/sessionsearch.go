package agent

import (
	"context"
	"errors"
)

// SessionHit is one chat found by SearchSessionText.
type SessionHit struct {
	Summary
	// MessageIndex is the index in Session.Messages of the message that
	// matched; -1 when the title matched (or a message a failed turn kept,
	// which is a note, not a message).
	MessageIndex int
	// Snippet is the matching line, redacted, at most 200 characters
	// (cut around the match, "…" marking a cut).
	Snippet string
}

// PinSession pins or unpins a chat.
func (c *Core) PinSession(id string, pinned bool) error {
	return errors.New("pin session: not yet")
}

// SearchSessionText searches the titles and message text of saved chats.
func (c *Core) SearchSessionText(ctx context.Context, q string, limit int) []SessionHit {
	return nil
}

// ImportSession saves an exported chat.
func (c *Core) ImportSession(ctx context.Context, data []byte) (string, error) {
	return "", errors.New("import session: not yet")
}
