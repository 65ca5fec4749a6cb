package desktop

import (
	"context"
	"errors"

	"github.com/reasonix/reasonix-desktop/internal/desktop/chat"
)

// Stats are the transcript's rendering figures (the binary's --stats).
type Stats = chat.Stats

// Stats reads the figures (any goroutine, also after the app stopped).
func (d *UI) Stats() Stats { return d.transcript.Stats() }

// OpenSession loads a saved session and returns once the core switched to
// it (a goroutine, never the UI one); --stats times it to its first frame.
func (d *UI) OpenSession(ctx context.Context, id string) error {
	c := d.getCore()
	if c == nil {
		return errors.New("the core is not attached")
	}
	d.transcript.Opening()
	return c.LoadSession(ctx, id)
}
