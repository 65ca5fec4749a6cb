package dialogs

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/markdown"
)

// localMarket serves a copy of the market package's static test market
// (internal/packages/market/testdata/market: hookify, security-guidance,
// release-note-kit, a mirror whose download is not what was reviewed, and
// a skill, an MCP server and a theme) over HTTP, as a private market is.
// setIndex replaces its index.json.
func localMarket(t *testing.T) (url string, setIndex func(func(string) string)) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "market")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "..", "packages", "market", "testdata", "market"))); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	index := filepath.Join(dir, "index.json")
	return srv.URL + "/index.json", func(edit func(string) string) {
		mu.Lock()
		defer mu.Unlock()
		b, err := os.ReadFile(index)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(index, []byte(edit(string(b))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// rowIndex is the row of the result id (-1: not listed).
func rowIndex(d *discover, id string) int {
	for i, mp := range d.results {
		if mp.ID == id {
			return i
		}
	}
	return -1
}

// Discover lists the market set, searches it, shows an entry's facts with
// the hash its reviewer pinned, and installs it through the FULL TRUST
// preview with its compatibility report; the installed package is then
// marked installed, and when the market pins new content for it, My
// packages offers the update. A download that is not the reviewed content
// is refused in words and installs nothing.
func TestDiscoverSearchesInstallsAndOffersUpdates(t *testing.T) {
	url, setIndex := localMarket(t)
	p := storePlugins(t)
	if err := p.SetMarketURL(url); err != nil {
		t.Fatal(err)
	}
	h := &pluginsHost{store: p}
	m, _, ui := openManager(t, h)
	d := m.discover
	ui(m.ShowDiscover)
	waitFor(t, ui, "the market's packages", func() bool { return len(d.results) == 7 })
	ui(func() {
		if !strings.Contains(d.status.Text, "7 packages in "+url) || d.url.Text != url {
			t.Errorf("status %q, URL field %q", d.status.Text, d.url.Text)
		}
		// The best match is selected: its facts are in view at once.
		if d.selected != 0 || !strings.Contains(markdown.PlainText(d.details.Segments), d.results[0].Name) {
			t.Errorf("selected %d; details:\n%s", d.selected, markdown.PlainText(d.details.Segments))
		}
		d.query.SetText("claude hooks")
		d.query.OnSubmitted(d.query.Text)
	})
	waitFor(t, ui, "the search", func() bool { return len(d.results) == 1 && d.results[0].ID == "hookify" })
	ui(func() {
		d.list.Select(0)
		text := markdown.PlainText(d.details.Segments)
		for _, want := range []string{"hookify 0.1.0", "Anthropic (fixture)", "sha256:d5d1eede43c0a1f92fee26a1b679711c19313c9dcbf3488cb14f565cd42607d7", "40 votes, 2,100 installs"} {
			if !strings.Contains(text, want) {
				t.Errorf("details lack %q:\n%s", want, text)
			}
		}
		if d.install.Disabled() || d.install.Text != "Install…" {
			t.Fatalf("the button says %q (disabled %v)", d.install.Text, d.install.Disabled())
		}
		test.Tap(d.install)
	})
	var install *widget.Button
	waitFor(t, ui, "the preview", func() bool { install = topButton(m.win, "Install"); return install != nil })
	ui(func() {
		text := overlayText(m.win)
		for _, want := range []string{"Market: hookify 0.1.0 from " + url, "the hash the market's reviewer pinned", "Compatibility: partial"} {
			if !strings.Contains(text, want) {
				t.Errorf("the preview lacks %q:\n%s", want, text)
			}
		}
	})
	if recs, _ := p.List(); len(recs) != 0 {
		t.Fatalf("installed %v before Install", recs)
	}
	ui(func() { test.Tap(install) })
	waitFor(t, ui, "hookify marked installed", func() bool {
		i := rowIndex(d, "hookify")
		return i >= 0 && d.results[i].Installed == "0.1.0"
	})
	if r, err := p.Get("hookify"); err != nil || r.Source != "market:hookify@0.1.0" {
		t.Fatalf("record %+v, %v", r, err)
	}
	waitFor(t, ui, "My packages listing hookify", func() bool {
		return strings.Contains(labelsText(d.updates), "hookify (hookify) 0.1.0: up to date")
	})

	// The market pins other content for the same version: an update.
	setIndex(func(s string) string {
		return strings.Replace(s, "d5d1eede43c0a1f92fee26a1b679711c19313c9dcbf3488cb14f565cd42607d7",
			"f35794a2e263c6da7e2c29d520b245b1e524a3cf1d97e82e09dedd6704f0db83", 1)
	})
	var update *widget.Button
	ui(d.loadUpdates)
	waitFor(t, ui, "the update offered", func() bool {
		for _, o := range test.LaidOutObjects(d.updates) {
			if b, ok := o.(*widget.Button); ok && b.Text == "Update…" {
				update = b
				return true
			}
		}
		return false
	})
	ui(func() {
		if text := labelsText(d.updates); !strings.Contains(text, "hookify (hookify) 0.1.0: 0.1.0 → 0.1.0") {
			t.Errorf("My packages says:\n%s", text)
		}
		test.Tap(update)
	})
	// What the archive holds is not what the index pins now: refused.
	waitFor(t, ui, "the refusal", func() bool { return strings.Contains(overlayText(m.win), "The update of hookify failed") })
	if r, _ := p.Get("hookify"); r.Commit != "sha256:d5d1eede43c0a1f92fee26a1b679711c19313c9dcbf3488cb14f565cd42607d7" {
		t.Errorf("the refused update changed the record: %+v", r)
	}
}

// A mirror whose download is not the content the market's reviewer pinned
// is refused before any preview: the dialog says why and nothing is
// installed.
func TestDiscoverRefusesContentNotReviewed(t *testing.T) {
	url, _ := localMarket(t)
	p := storePlugins(t)
	if err := p.SetMarketURL(url); err != nil {
		t.Fatal(err)
	}
	m, _, ui := openManager(t, &pluginsHost{store: p})
	d := m.discover
	ui(m.ShowDiscover)
	waitFor(t, ui, "the market's packages", func() bool { return rowIndex(d, "notes-mirror") >= 0 })
	ui(func() {
		d.list.Select(rowIndex(d, "notes-mirror"))
		test.Tap(d.install)
	})
	waitFor(t, ui, "the refusal", func() bool { return strings.Contains(overlayText(m.win), "The install of notes-mirror failed") })
	ui(func() {
		if topButton(m.win, "Install") != nil {
			t.Error("a refused download offers Install")
		}
	})
	if recs, _ := p.List(); len(recs) != 0 {
		t.Fatalf("installed %v", recs)
	}
}

// Without a market set the tab says how to set one and asks the core for
// no search; a typed URL is saved and listed.
func TestDiscoverWithoutMarketSetsOne(t *testing.T) {
	url, _ := localMarket(t)
	p := storePlugins(t)
	m, _, ui := openManager(t, &pluginsHost{store: p})
	d := m.discover
	ui(m.ShowDiscover)
	waitFor(t, ui, "the hint", func() bool { return strings.HasPrefix(d.status.Text, "No market is set") })
	ui(func() {
		d.url.SetText(url)
		d.url.OnSubmitted(url)
	})
	waitFor(t, ui, "the market's packages", func() bool { return len(d.results) == 7 })
	if got, err := p.MarketURL(); err != nil || got != url {
		t.Fatalf("market URL saved %q, %v", got, err)
	}
}

// labelsText is every label under o.
func labelsText(o fyne.CanvasObject) string {
	var b strings.Builder
	for _, x := range test.LaidOutObjects(o) {
		if l, ok := x.(*widget.Label); ok {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}

// A plugin installed from the market says so in the Plugins tab, and its
// Update… (shown as for a git plugin) previews the market's entry again,
// checked against the pinned hash, instead of being hidden.
func TestPluginManagerUpdatesMarketPackage(t *testing.T) {
	url, _ := localMarket(t)
	p := storePlugins(t)
	ctx := t.Context()
	if err := p.SetMarketURL(url); err != nil {
		t.Fatal(err)
	}
	pv, err := p.PreviewMarketInstall(ctx, agent.MarketInstallRequest{ID: "hookify"})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := p.Install(pv)
	if err != nil {
		t.Fatal(err)
	}
	m, _, ui := openManager(t, &pluginsHost{store: p},
		agent.PluginInfo{Name: rec.Name, Version: rec.Version, State: agent.PluginActive, Root: pv.Root})
	waitFor(t, ui, "the origin", func() bool { return m.update.Visible() })
	ui(func() {
		text := markdown.PlainText(m.details.Segments)
		if !strings.Contains(text, "market:hookify@0.1.0 (content sha256:d5d1eede43c0…) (the market: Update…") {
			t.Errorf("details say:\n%s", text)
		}
		test.Tap(m.update)
	})
	waitFor(t, ui, "the update's preview", func() bool { return topButton(m.win, "Update") != nil })
	ui(func() {
		if text := overlayText(m.win); !strings.Contains(text, "Market: hookify 0.1.0 from "+url) {
			t.Errorf("the update's preview:\n%s", text)
		}
	})
}
