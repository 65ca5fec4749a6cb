package dialogs

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"
)

// MarketURL is the saved URL unless the environment sets one (marketEnv),
// as the core's is.
func (h *settingsHost) MarketURL() (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.marketEnv != "" {
		return h.marketEnv, nil
	}
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

// A URL saved while the environment sets the market is saved, and the
// note says the environment's market is the one searched.
func TestSettingsSaysTheEnvironmentsMarketWins(t *testing.T) {
	h := &settingsHost{mode: ThemeSystem, marketEnv: "https://env.example/index.json"}
	s, b := openSettings(t, nil, h)
	waitFor(t, b.OnUI, "the URL set", func() bool { return s.market.Text == h.marketEnv })
	b.OnUI(func() {
		s.market.SetText("https://mine.example/index.json")
		s.market.OnSubmitted(s.market.Text)
	})
	waitFor(t, b.OnUI, "the note", func() bool { return strings.HasPrefix(s.marketNote.Text, "Saved, but the environment") })
	b.OnUI(func() {
		if !strings.Contains(s.marketNote.Text, "Discover searches https://env.example/index.json") || s.marketNote.Importance != widget.WarningImportance {
			t.Errorf("note %q (importance %v)", s.marketNote.Text, s.marketNote.Importance)
		}
	})
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.market != "https://mine.example/index.json" {
		t.Errorf("saved %q", h.market)
	}
}
