package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/packages/market"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// The market: search a package market's index, read one entry, and
// install one by its market id through the same FULL TRUST preview as any
// source, after its download matched the content hash the market's
// reviewer pinned (internal/packages/market). The market's URL is a
// setting (market.json in the data directory, or --market), so a private
// market works the same. Installed market packages record
// market:<id>@<version> as their source; MarketUpdates compares them with
// the index and PreviewMarketUpdate installs the index's version.

// MarketPackage is one market entry as the front ends show it (strings
// from the market are redacted).
type MarketPackage struct {
	ID          string   `json:"id"`
	Kind        string   `json:"kind"`
	Name        string   `json:"name"`
	Version     string   `json:"version"`
	Summary     string   `json:"summary,omitempty"`
	Description string   `json:"description,omitempty"`
	Author      string   `json:"author,omitempty"`
	License     string   `json:"license,omitempty"`
	Repository  string   `json:"repository,omitempty"`
	Source      string   `json:"source"`
	Tags        []string `json:"tags,omitempty"`
	Votes       int      `json:"votes"`
	Installs    int      `json:"installs"`
	UpdatedAt   string   `json:"updatedAt,omitempty"`
	// ContentSHA256 is the hash the reviewer pinned (hex), "" when the
	// version was approved without one.
	ContentSHA256 string `json:"contentSha256,omitempty"`
	// Installable is true for a kind this host installs (plugin).
	Installable bool `json:"installable"`
	// Installed is the version of the installed plugin that came from
	// this entry ("" when none did), InstalledAs that plugin's name, and
	// Update what changed since (a new version or a new pinned hash; ""
	// when up to date).
	Installed   string `json:"installed,omitempty"`
	InstalledAs string `json:"installedAs,omitempty"`
	Update      string `json:"update,omitempty"`
}

// MarketUpdate is an installed market package whose entry changed.
type MarketUpdate struct {
	Name      string `json:"name"`      // the installed plugin
	ID        string `json:"id"`        // its market id
	Installed string `json:"installed"` // version installed
	Available string `json:"available"` // the index's version
	Reason    string `json:"reason"`
}

// MarketAdmin is what a front end's Discover view uses (the *Core
// implements it).
type MarketAdmin interface {
	MarketURL() (string, error)
	SetMarketURL(u string) error
	SearchMarket(ctx context.Context, query, kind string) ([]MarketPackage, error)
	MarketInfo(ctx context.Context, id string) (MarketPackage, error)
	PreviewMarketInstall(ctx context.Context, req MarketInstallRequest) (InstallPreview, error)
	MarketUpdates(ctx context.Context) ([]MarketUpdate, error)
	PreviewMarketUpdate(ctx context.Context, name string) (InstallPreview, error)
}

// MarketInstallRequest names a market entry to install.
type MarketInstallRequest struct {
	// Market is the market's URL; "" is the one set (MarketURL).
	Market string
	ID     string
	// Replace and ReplaceInstalled are InstallRequest's.
	Replace, ReplaceInstalled bool
}

// ErrNotInMarket is returned (wrapped) for an id the market does not
// list.
var ErrNotInMarket = errors.New("not in the market")

// IsMarketSource reports whether a recorded source is a market package's
// (market:<id>@<version>): `plugin update` re-reads the market for it.
func IsMarketSource(source string) bool {
	_, _, ok := market.ParseOrigin(source)
	return ok
}

// ValidMarketID reports whether s could name a market entry (no slash:
// never a path or owner/repo).
func ValidMarketID(s string) bool { return market.ValidID(s) }

// MarketURL is the market URL set (market.json, or the environment's
// REASONIX_DESKTOP_MARKET_URL); "" when none is.
func (p *Plugins) MarketURL() (string, error) {
	c, err := market.LoadConfig(p.layout)
	return c.URL, err
}

// SetMarketURL saves the market URL ("" unsets it).
func (p *Plugins) SetMarketURL(u string) error { return market.SaveURL(p.layout, u) }

func (p *Plugins) marketIndex(ctx context.Context, url string) (*market.Index, error) {
	if url == "" {
		var err error
		if url, err = p.MarketURL(); err != nil {
			return nil, err
		}
	}
	return (&market.Client{Cache: marketCache}).Index(ctx, url)
}

// marketCache keeps the indexes read this run: each read asks the market
// whether its index changed rather than fetching it whole again.
var marketCache = &market.Cache{}

// installedFromMarket lists the store's market packages.
func (p *Plugins) installedFromMarket() ([]market.Installed, error) {
	s, err := p.store()
	if err != nil {
		return nil, err
	}
	var out []market.Installed
	for _, r := range s.List() {
		if IsMarketSource(r.Source) {
			out = append(out, market.Installed{Name: r.Name, Source: r.Source, Commit: r.Commit})
		}
	}
	return out, nil
}

// SearchMarket searches the market at url ("" for the one set) for every
// word of query, of kind when set; the best matches first.
func (p *Plugins) SearchMarket(ctx context.Context, url, query, kind string) ([]MarketPackage, error) {
	idx, err := p.marketIndex(ctx, url)
	if err != nil {
		return nil, err
	}
	installed, err := p.installedFromMarket()
	if err != nil {
		return nil, err
	}
	hits := idx.Search(query, kind)
	out := make([]MarketPackage, len(hits))
	for i, e := range hits {
		out[i] = marketPackage(idx, e, installed)
	}
	return out, nil
}

// MarketInfo reads the entry id of the market at url ("" for the one set).
func (p *Plugins) MarketInfo(ctx context.Context, url, id string) (MarketPackage, error) {
	idx, err := p.marketIndex(ctx, url)
	if err != nil {
		return MarketPackage{}, err
	}
	e, ok := idx.Find(id)
	if !ok {
		return MarketPackage{}, fmt.Errorf("%w: the market %s lists no package %q", ErrNotInMarket, redact.String(idx.URL), id)
	}
	installed, err := p.installedFromMarket()
	if err != nil {
		return MarketPackage{}, err
	}
	return marketPackage(idx, e, installed), nil
}

func marketPackage(idx *market.Index, e market.Entry, installed []market.Installed) MarketPackage {
	src, _ := idx.ResolveSource(e)
	sum, _ := market.ParseDigest(e.ContentSHA256)
	mp := MarketPackage{ID: e.ID, Kind: redact.String(e.Kind), Name: redact.String(e.Name), Version: redact.String(e.Version),
		Summary: redact.String(e.Summary), Description: redact.String(e.Description), Author: redact.String(e.Author),
		License: redact.String(e.License), Repository: redact.String(e.Repository), Source: redact.String(src),
		Votes: e.Votes, Installs: e.Installs, UpdatedAt: redact.String(e.UpdatedAt), ContentSHA256: sum,
		Installable: e.Kind == market.KindPlugin}
	for _, t := range e.Tags {
		mp.Tags = append(mp.Tags, redact.String(t))
	}
	for _, in := range installed {
		if id, ver, _ := market.ParseOrigin(in.Source); id == e.ID {
			mp.Installed, mp.InstalledAs = redact.String(ver), in.Name
			if ups := market.Updates(idx, []market.Installed{in}); len(ups) == 1 {
				mp.Update = redact.String(ups[0].Reason)
			}
		}
	}
	return mp
}

// MarketUpdates lists the installed market packages whose entry in the
// market set changed (a new version, or the same version pinned to new
// content).
func (p *Plugins) MarketUpdates(ctx context.Context, url string) ([]MarketUpdate, error) {
	installed, err := p.installedFromMarket()
	if err != nil || len(installed) == 0 {
		return nil, err
	}
	idx, err := p.marketIndex(ctx, url)
	if err != nil {
		return nil, err
	}
	var out []MarketUpdate
	for _, u := range market.Updates(idx, installed) {
		out = append(out, MarketUpdate{Name: u.Name, ID: u.ID, Installed: redact.String(u.Installed),
			Available: redact.String(u.Available), Reason: redact.String(u.Reason)})
	}
	return out, nil
}

// PreviewMarketInstall downloads the entry req.ID, refuses it unless its
// content matches the hash the market pinned (nothing written, nothing
// previewed), and previews installing it: the FULL TRUST preview of any
// install, saying where it came from and whether its content is the
// reviewed one. Install (InstallPlugin) carries it out; the record's
// source is market:<id>@<version> and its commit the content hash.
func (p *Plugins) PreviewMarketInstall(ctx context.Context, req MarketInstallRequest) (InstallPreview, error) {
	if !market.ValidID(req.ID) {
		return InstallPreview{}, fmt.Errorf("%q is not a market id", req.ID)
	}
	idx, err := p.marketIndex(ctx, req.Market)
	if err != nil {
		return InstallPreview{}, err
	}
	e, ok := idx.Find(req.ID)
	if !ok {
		return InstallPreview{}, fmt.Errorf("%w: the market %s lists no package %q", ErrNotInMarket, redact.String(idx.URL), req.ID)
	}
	if e.Kind != market.KindPlugin {
		return InstallPreview{}, fmt.Errorf("market package %s is a %s: this host installs plugin packages from the market (a skill goes in a plugin's skills folder; an MCP server is added with `reasonix-desktop mcp add`)", e.ID, redact.String(e.Kind))
	}
	s, err := p.store()
	if err != nil {
		return InstallPreview{}, err
	}
	st, err := (&market.Client{}).Stage(ctx, p.layout.StagingDir(), idx, e, p.marketGit)
	if err != nil {
		return InstallPreview{}, err
	}
	ireq := InstallRequest{Source: market.Origin(e.ID, e.Version), Replace: req.Replace, ReplaceInstalled: req.ReplaceInstalled}
	pv, err := p.previewStaged(s, ireq, st.Dir, "sha256:"+st.Digest)
	if err != nil {
		st.Discard()
		return InstallPreview{}, err
	}
	what := fmt.Sprintf("Market: %s %s from %s\n", e.ID, redact.String(e.Version), redact.String(idx.URL))
	if st.Pinned {
		what += fmt.Sprintf("Content: sha256:%s, the hash the market's reviewer pinned\n", st.Digest)
	} else {
		what += fmt.Sprintf("Warning: the market pins no content hash for this version: what was downloaded (sha256:%s) is not checked against what was reviewed\n", st.Digest)
	}
	pv.Text = what + pv.Text
	return pv, nil
}

// PreviewMarketUpdate previews replacing the installed market package
// name with its market entry's version (the same checks as an install).
func (p *Plugins) PreviewMarketUpdate(ctx context.Context, name string) (InstallPreview, error) {
	r, err := p.get(name)
	if err != nil {
		return InstallPreview{}, err
	}
	id, _, ok := market.ParseOrigin(r.Source)
	if !ok {
		return InstallPreview{}, fmt.Errorf("plugin %q was not installed from the market (its source is %s)", name, redact.String(r.Source))
	}
	return p.PreviewMarketInstall(ctx, MarketInstallRequest{ID: id, ReplaceInstalled: true})
}

// marketGit clones a market entry's git source (a GitHub tree URL at a
// commit, any form the package store clones) into the staging folder.
func (p *Plugins) marketGit(ctx context.Context, source string) (string, func(), error) {
	dir, _, err := plugin.Clone(ctx, p.layout, source)
	if err != nil {
		return "", nil, err
	}
	return dir, func() { plugin.DiscardClone(p.layout, dir) }, nil
}

// previewStaged previews installing a staged folder recorded as req.Source
// at commit; on success the preview's Staged is dir (Install copies it
// and then removes it).
func (p *Plugins) previewStaged(s *plugin.Store, req InstallRequest, dir, commit string) (InstallPreview, error) {
	plan, err := p.plan(s, req, dir, commit)
	if err != nil {
		return InstallPreview{}, err
	}
	return previewOf(req, plan, dir, commit), nil
}

// MarketURL is the market URL set ("" when none is).
func (c *Core) MarketURL() (string, error) { return c.store().MarketURL() }

// SetMarketURL saves the market URL ("" unsets it).
func (c *Core) SetMarketURL(u string) error { return c.store().SetMarketURL(u) }

// SearchMarket searches the market set.
func (c *Core) SearchMarket(ctx context.Context, query, kind string) ([]MarketPackage, error) {
	return c.store().SearchMarket(ctx, "", query, kind)
}

// MarketInfo reads one entry of the market set.
func (c *Core) MarketInfo(ctx context.Context, id string) (MarketPackage, error) {
	return c.store().MarketInfo(ctx, "", id)
}

// PreviewMarketInstall previews installing a market package
// (InstallPlugin carries it out; DiscardPluginPreview drops it).
func (c *Core) PreviewMarketInstall(ctx context.Context, req MarketInstallRequest) (InstallPreview, error) {
	return c.store().PreviewMarketInstall(ctx, req)
}

// MarketUpdates lists the installed market packages with an update.
func (c *Core) MarketUpdates(ctx context.Context) ([]MarketUpdate, error) {
	return c.store().MarketUpdates(ctx, "")
}

// PreviewMarketUpdate previews updating an installed market package.
func (c *Core) PreviewMarketUpdate(ctx context.Context, name string) (InstallPreview, error) {
	return c.store().PreviewMarketUpdate(ctx, name)
}

var _ MarketAdmin = (*Core)(nil)
