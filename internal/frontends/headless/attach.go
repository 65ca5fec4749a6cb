package headless

import (
	"context"
	"errors"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// Attacher is the part of the core that sends a message with attachments
// (*agent.Core satisfies it); called, like Core's methods, only from the
// goroutine running the line.
type Attacher interface {
	SendWithAttachments(ctx context.Context, text string, atts []agent.Attachment) error
}

var _ Attacher = (*agent.Core)(nil)

// SendAttached sends text as a message with attachments (`chat --attach`):
// never a command. An attachment the core refuses (an image for a model
// without vision, a file over its limit, a binary file) is printed as the
// line's error naming the file, nothing having been sent; a turn's failure
// is printed by its events. Either way the error wraps ErrShown.
func (f *Frontend) SendAttached(ctx context.Context, core Attacher, text string, atts []agent.Attachment) error {
	err := f.turn(core, func() error { return core.SendWithAttachments(ctx, text, atts) })
	var refused *agent.AttachmentError
	if errors.As(err, &refused) {
		f.fail(text, refused)
	}
	return err
}
