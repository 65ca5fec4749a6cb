package desktop

import (
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/chat"
)

// Stats are the transcript's rendering figures (the binary's --stats).
type Stats = chat.Stats

// Stats reads the figures (any goroutine, also after the app stopped).
func (d *UI) Stats() Stats { return d.transcript.Stats() }
