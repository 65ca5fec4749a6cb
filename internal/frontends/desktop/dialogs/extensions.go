package dialogs

import (
	"context"
	"strings"

	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// loadExtensions reads the xdev extensions' status off the UI goroutine
// and shows it in the manager's second tab.
func (m *PluginManager) loadExtensions() {
	c := m.host.Core()
	if c == nil {
		return
	}
	dir := m.host.ExtensionsDir()
	m.host.Async("xdev extensions", func(context.Context) error {
		st := c.ExtensionStatus()
		m.b.Post(func() {
			m.exts.Segments = extensionDetails(st, dir)
			m.exts.Refresh()
		})
		return nil
	})
}

// extensionDetails renders each extension: state, what it declared, why
// it failed or died, its stderr tail. Strings are redacted again here.
func extensionDetails(st []agent.ExtensionStatus, dir string) []widget.RichTextSegment {
	r := redact.String
	para := func(s string) widget.RichTextSegment {
		return &widget.TextSegment{Style: widget.RichTextStyleParagraph, Text: s}
	}
	if len(st) == 0 {
		return []widget.RichTextSegment{para(i18n.T("No xdev v1 extensions. Executables in %s are started with the app.", dir))}
	}
	var segs []widget.RichTextSegment
	for _, e := range st {
		segs = append(segs, &widget.TextSegment{Style: widget.RichTextStyleSubHeading, Text: r(e.Name) + " — " + e.State},
			para(i18n.T("File: %s", r(e.Path))))
		if len(e.Capabilities) > 0 {
			segs = append(segs, para(i18n.T("Declares: %s", r(strings.Join(e.Capabilities, "; ")))))
		}
		if e.Failure != "" {
			segs = append(segs, para(i18n.T("Why: %s", r(e.Failure))))
		}
		if e.StderrTail != "" {
			segs = append(segs, &widget.TextSegment{Style: widget.RichTextStyleCodeBlock, Text: r(e.StderrTail)})
		}
	}
	return segs
}
