package dialogs

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"
)

func (h *settingsHost) MarketURL() (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.market, nil
}

// SetMarketURL refuses what is not a URL, as the market's config does.
func (h *settingsHost) SetMarketURL(u string) error {
	if u != "" && !strings.Contains(u, "://") {
		return errors.New("market URL " + u + ": want an http, https or file URL")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.market = u
	return nil
}

// Settings shows the market URL set and saves a new one (Enter or Save),
// saying so; one the core refuses is not saved and the reason is shown.
func TestSettingsSetsTheMarketURL(t *testing.T) {
	h := &settingsHost{mode: ThemeSystem, market: "https://old.example/index.json"}
	s, b := openSettings(t, nil, h)
	waitFor(t, b.OnUI, "the URL set", func() bool { return s.market.Text == "https://old.example/index.json" })
	b.OnUI(func() {
		s.market.SetText("market.example")
		s.market.OnSubmitted(s.market.Text)
	})
	waitFor(t, b.OnUI, "the refusal", func() bool { return strings.HasPrefix(s.marketNote.Text, "Not saved: ") })
	b.OnUI(func() {
		if s.marketNote.Importance != widget.DangerImportance {
			t.Error("a refused URL is not shown as an error")
		}
		s.market.SetText(" file:///srv/market ")
		s.market.OnSubmitted(s.market.Text)
	})
	waitFor(t, b.OnUI, "the save", func() bool { return strings.HasPrefix(s.marketNote.Text, "Saved: ") })
	if u, _ := h.MarketURL(); u != "file:///srv/market" {
		t.Fatalf("saved %q", u)
	}
}
