package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// Marketplace roots: a repository (or folder) whose
// .claude-plugin/marketplace.json lists plugins in subfolders, as every
// plugin of anthropics/claude-code is published. Previewing it without a
// pick is a *MarketplaceError the front end shows as a list to choose
// from; each chosen plugin is then one preview, all from one clone.

// MarketplaceError is a preview of a marketplace root without a pick:
// Marketplace.Plugins lists what it offers (Name, Description, Version;
// Unsupported says why one cannot be installed). Match it with errors.As.
type MarketplaceError = plugin.MarketplaceError

// RemotePluginError is a pick that lives in another repository:
// Source.Spec is the source to preview instead.
type RemotePluginError = plugin.RemotePluginError

// PreviewInstallPicks previews the plugins names of the marketplace at
// req.Source (req.Plugin is ignored), cloning a git source once: each
// preview installs from that clone, and the last one's install removes
// it. Nothing is written but the clone; a pick that fails fails them all,
// naming it.
func (p *Plugins) PreviewInstallPicks(ctx context.Context, req InstallRequest, names []string) ([]InstallPreview, error) {
	if len(names) == 0 {
		return nil, errors.New("no plugin picked: name at least one of the marketplace's plugins")
	}
	s, err := p.store()
	if err != nil {
		return nil, err
	}
	var staged, commit string
	if url, ok := plugin.GitURL(req.Source); ok {
		if req.Link {
			return nil, fmt.Errorf("cannot link %s: a git source is cloned and copied, never linked", req.Source)
		}
		if staged, commit, err = plugin.Clone(ctx, p.layout, url); err != nil {
			return nil, err
		}
		req.Source = url
	}
	out := make([]InstallPreview, 0, len(names))
	for i, name := range names {
		r := req
		r.Plugin = name
		plan, err := p.plan(s, r, staged, commit)
		if err != nil {
			if staged != "" {
				plugin.DiscardClone(p.layout, staged)
			}
			return nil, fmt.Errorf("plugin %s: %w", name, err)
		}
		pv := previewOf(r, plan, staged, commit)
		pv.SharesStage = staged != "" && i < len(names)-1
		out = append(out, pv)
	}
	return out, nil
}

// PreviewPluginInstallPicks is PreviewInstallPicks for the core's store.
func (c *Core) PreviewPluginInstallPicks(ctx context.Context, req InstallRequest, names []string) ([]InstallPreview, error) {
	return c.store().PreviewInstallPicks(ctx, req, names)
}
