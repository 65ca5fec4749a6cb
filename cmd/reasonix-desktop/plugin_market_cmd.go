package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/termsafe"
	"github.com/reasonix/reasonix-desktop/internal/foundation/textwidth"
	"github.com/reasonix/reasonix-desktop/internal/frontends/headless"
)

// The market's sub-commands: search, info, updates and market (its URL).
// `plugin install MARKET-ID` goes through pluginInstall, which hands a
// market id to marketInstall, and `plugin update NAME` of a package from
// the market re-reads the market.

// marketID tells whether an install argument names a market entry: the
// explicit market:<id>, or a bare id (no slash, no colon) that is no
// path here. Anything else is a source (a folder, a URL, owner/repo).
func marketID(arg string) (string, bool) {
	if id, ok := strings.CutPrefix(arg, "market:"); ok {
		return id, true
	}
	if strings.ContainsAny(arg, `/\:`) || !agent.ValidMarketID(arg) {
		return "", false
	}
	if _, err := os.Stat(arg); err == nil {
		return "", false
	}
	return arg, true
}

// marketInstall previews (and with --yes installs) the market entry id:
// its download is checked against the pinned hash first.
// arg is the argument as given: a bare id may have been meant as a
// folder, and the errors say it is none.
func marketInstall(ctx context.Context, e *pluginEnv, store *agent.Plugins, arg, id string) error {
	if e.link {
		return usageError(i18n.T("a market package is downloaded and copied, never linked: drop --link"))
	}
	bare := !strings.HasPrefix(arg, "market:")
	if u, err := store.MarketURL(); err == nil && u == "" && e.market == "" && bare {
		return errors.New(i18n.T("%s is no folder here, and no market is set to look it up in: set one with `reasonix-desktop plugin market set URL`, or pass --market URL", arg))
	}
	pv, err := store.PreviewMarketInstall(ctx, agent.MarketInstallRequest{Market: e.market, ID: id, Replace: e.replace})
	if errors.Is(err, agent.ErrNotInMarket) && bare {
		return fmt.Errorf("%s; %w", i18n.T("%s is no folder here", arg), err)
	}
	if err != nil {
		return err
	}
	if e.name != "" && pv.Name != e.name {
		store.DiscardPreview(pv)
		return errors.New(i18n.T("--name %q does not match the manifest name %q (the plugin name is fixed by its manifest)", e.name, pv.Name))
	}
	return confirmInstall(e, store, pv, "install")
}

func pluginSearch(ctx context.Context, e *pluginEnv, args []string) error {
	store, err := e.open()
	if err != nil {
		return err
	}
	hits, err := store.SearchMarket(ctx, e.market, strings.Join(args, " "), e.kind)
	if err != nil {
		return err
	}
	if e.json {
		if hits == nil {
			hits = []agent.MarketPackage{}
		}
		return writeJSON(e, hits)
	}
	if len(hits) == 0 {
		fmt.Fprintln(e.stdout, i18n.T("No market package matches."))
		return nil
	}
	rows := [][]string{{i18n.T("ID"), i18n.T("KIND"), i18n.T("VERSION"), i18n.T("INSTALLS"), i18n.T("STATE"), i18n.T("SUMMARY")}}
	for _, p := range hits {
		rows = append(rows, []string{safe(p.ID), safe(p.Kind), safe(p.Version), strconv.Itoa(p.Installs), marketState(p), safe(firstLine(p.Summary))})
	}
	_, err = io.WriteString(e.stdout, headless.Columns(rows))
	return err
}

// marketState is what a search says of an entry here.
func marketState(p agent.MarketPackage) string {
	switch {
	case p.Update != "":
		return i18n.T("update: %s", safe(p.Update))
	case p.Installed != "":
		return i18n.T("installed")
	case !p.Installable:
		return i18n.T("not installable here")
	case p.ContentSHA256 == "":
		return i18n.T("no pinned hash")
	}
	return "-"
}

func pluginInfo(ctx context.Context, e *pluginEnv, args []string) error {
	id, err := oneArg(args, "market ID")
	if err != nil {
		return err
	}
	store, err := e.open()
	if err != nil {
		return err
	}
	p, err := store.MarketInfo(ctx, e.market, id)
	if err != nil {
		return err
	}
	if e.json {
		return writeJSON(e, p)
	}
	w := e.stdout
	field := func(label, value string) { fmt.Fprintf(w, "%s %s\n", textwidth.Pad(label, 12), value) }
	field(i18n.T("ID:"), safe(p.ID))
	field(i18n.T("Name:"), safe(p.Name))
	field(i18n.T("Kind:"), safe(p.Kind))
	field(i18n.T("Version:"), safe(p.Version))
	for _, f := range []struct{ label, v string }{{i18n.T("Summary:"), p.Summary}, {i18n.T("Author:"), p.Author},
		{i18n.T("License:"), p.License}, {i18n.T("Repository:"), p.Repository}, {i18n.T("Updated:"), p.UpdatedAt}} {
		if f.v != "" {
			field(f.label, safe(f.v))
		}
	}
	if len(p.Tags) > 0 {
		field(i18n.T("Tags:"), safe(strings.Join(p.Tags, ", ")))
	}
	field(i18n.T("Votes:"), strconv.Itoa(p.Votes))
	field(i18n.T("Installs:"), strconv.Itoa(p.Installs))
	field(i18n.T("Source:"), safe(p.Source))
	if p.ContentSHA256 != "" {
		field(i18n.T("Content:"), i18n.T("sha256:%s (pinned by the market's reviewer: the download must match it)", p.ContentSHA256))
	} else {
		field(i18n.T("Content:"), i18n.T("no pinned hash (approved without one: the download is not checked against the review)"))
	}
	switch {
	case p.Installed != "" && p.Update != "":
		field(i18n.T("Installed:"), i18n.T("%s as %s; update available (%s): reasonix-desktop plugin update %s",
			safe(p.Installed), safe(p.InstalledAs), safe(p.Update), safe(p.InstalledAs)))
	case p.Installed != "":
		field(i18n.T("Installed:"), i18n.T("%s as %s (up to date)", safe(p.Installed), safe(p.InstalledAs)))
	case p.Installable:
		field(i18n.T("Install:"), "reasonix-desktop plugin install "+safe(p.ID))
	default:
		field(i18n.T("Install:"), i18n.T("a %s is not installed from the market by this host", safe(p.Kind)))
	}
	if p.Description != "" {
		fmt.Fprintf(w, "\n%s\n", safe(p.Description))
	}
	return nil
}

func pluginUpdates(ctx context.Context, e *pluginEnv, args []string) error {
	if len(args) != 0 {
		return usageError(i18n.T("updates takes no arguments"))
	}
	store, err := e.open()
	if err != nil {
		return err
	}
	ups, err := store.MarketUpdates(ctx, e.market)
	if err != nil {
		return err
	}
	if e.json {
		if ups == nil {
			ups = []agent.MarketUpdate{}
		}
		return writeJSON(e, ups)
	}
	if len(ups) == 0 {
		fmt.Fprintln(e.stdout, i18n.T("Every package installed from the market is up to date."))
		return nil
	}
	rows := [][]string{{i18n.T("NAME"), i18n.T("MARKET ID"), i18n.T("INSTALLED"), i18n.T("AVAILABLE"), i18n.T("WHAT")}}
	for _, u := range ups {
		rows = append(rows, []string{safe(u.Name), safe(u.ID), safe(u.Installed), safe(u.Available), safe(u.Reason)})
	}
	if _, err := io.WriteString(e.stdout, headless.Columns(rows)); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "\n%s\n", i18n.T("Update one with: reasonix-desktop plugin update NAME"))
	return nil
}

// pluginMarket shows the market URL, or sets it (`market set URL`,
// `market unset`).
func pluginMarket(_ context.Context, e *pluginEnv, args []string) error {
	store, err := e.open()
	if err != nil {
		return err
	}
	switch {
	case len(args) == 0:
		u, err := store.MarketURL()
		if err != nil {
			return err
		}
		if u == "" {
			fmt.Fprintln(e.stdout, i18n.T("No market URL is set. Set one with: reasonix-desktop plugin market set URL"))
			return nil
		}
		fmt.Fprintln(e.stdout, termsafe.String(u))
		return nil
	case len(args) == 2 && args[0] == "set":
		if err := store.SetMarketURL(args[1]); err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, i18n.T("Market set to %s.", termsafe.String(args[1])))
		return nil
	case len(args) == 1 && args[0] == "unset":
		if err := store.SetMarketURL(""); err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, i18n.T("Market URL unset."))
		return nil
	}
	return usageError(i18n.T("market takes nothing (show the URL), set URL, or unset"))
}

func writeJSON(e *pluginEnv, v any) error {
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// names is a repeatable string flag (--plugin A --plugin B).
type names []string

func (n *names) String() string { return strings.Join(*n, ",") }

func (n *names) Set(v string) error {
	if strings.TrimSpace(v) == "" {
		return fmt.Errorf("empty name")
	}
	*n = append(*n, v)
	return nil
}

// showMarketplace prints the listing of a marketplace root the install
// was pointed at without --plugin, so the user sees what to pick.
func showMarketplace(e *pluginEnv, err error) {
	var me *agent.MarketplaceError
	if errors.As(err, &me) && me.Marketplace != nil {
		fmt.Fprint(e.stdout, safe(me.Marketplace.Text()))
		fmt.Fprintln(e.stdout)
	}
}

// installPicks previews (and with --yes installs, in order) the plugins
// --plugin names of the marketplace at src, all from one clone.
func installPicks(ctx context.Context, e *pluginEnv, store *agent.Plugins, src string) error {
	pvs, err := store.PreviewInstallPicks(ctx, agent.InstallRequest{Source: src, Link: e.link, Replace: e.replace, Name: e.name}, e.picks)
	if err != nil {
		showMarketplace(e, err)
		return err
	}
	for i, pv := range pvs {
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		fmt.Fprint(e.stdout, termsafe.String(pv.Text))
	}
	if !e.yes {
		for _, pv := range pvs {
			store.DiscardPreview(pv)
		}
		fmt.Fprintf(e.stdout, "\n%s\n", i18n.T("Re-run with --yes to install %s.", strings.Join(e.picks, ", ")))
		return errNotConfirmed
	}
	for i, pv := range pvs {
		rec, err := store.Install(pv)
		if err != nil {
			// The rest share the clone the failed one came from: drop it.
			store.DiscardPreview(pvs[len(pvs)-1])
			if i > 0 {
				return fmt.Errorf("%w (%s)", err, i18n.T("installed before it: %s", strings.Join(e.picks[:i], ", ")))
			}
			return err
		}
		fmt.Fprintf(e.stdout, "\n%s\n", i18n.T("Installed %s %s (%s).", rec.Name, safe(rec.Version), termsafe.String(rec.Root)))
	}
	return nil
}
