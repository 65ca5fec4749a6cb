package agent_test

import (
	"context"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/packages/market"
)

// A plugin installed from the market updates like any other (the window's
// Update, `plugin update`): its origin says Market, and PreviewUpdate
// takes the entry the market lists now. It said "its source market:… is
// gone".
func TestMarketOriginUpdates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	layout := agent.Layout{Root: t.TempDir()}
	store, err := agent.OpenPlugins(layout)
	if err != nil {
		t.Fatal(err)
	}
	m := newTestMarket(t)
	v1, h1 := packTarGz(t, skillPackage("notes-kit", "1.0.0", "Write notes."))
	m.put("/pkgs/v1.tar.gz", v1)
	m.index(t, market.Entry{ID: "notes-kit", Kind: "plugin", Name: "notes-kit", Version: "1.0.0", Source: "pkgs/v1.tar.gz", ContentSHA256: h1})
	if err := store.SetMarketURL(m.srv.URL); err != nil {
		t.Fatal(err)
	}
	pv, err := store.PreviewMarketInstall(ctx, agent.MarketInstallRequest{ID: "notes-kit"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Install(pv); err != nil {
		t.Fatal(err)
	}
	o, err := store.Origin("notes-kit")
	if err != nil || !o.Market || o.Git {
		t.Fatalf("origin %+v %v", o, err)
	}
	v2, h2 := packTarGz(t, skillPackage("notes-kit", "1.1.0", "Write better notes."))
	m.put("/pkgs/v2.tar.gz", v2)
	m.index(t, market.Entry{ID: "notes-kit", Kind: "plugin", Name: "notes-kit", Version: "1.1.0", Source: "pkgs/v2.tar.gz", ContentSHA256: h2})
	pv, err = store.PreviewUpdate(ctx, "notes-kit")
	if err != nil || pv.Version != "1.1.0" || pv.Replaces != "notes-kit 1.0.0" {
		t.Fatalf("update preview %+v: %v", pv, err)
	}
	if rec, err := store.Install(pv); err != nil || rec.Source != "market:notes-kit@1.1.0" {
		t.Fatalf("%+v %v", rec, err)
	}
}
