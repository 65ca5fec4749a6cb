package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// The package commands beyond install/remove: migrate a legacy manifest,
// update from the recorded source, and the core's wrappers that reload the
// plugins and the packages' contributions after the store changed.

// Migrate rewrites an installed plugin's legacy reasonix-plugin.json (no
// apiVersion) to v2, keeping reasonix-plugin.json.bak, and records the new
// manifest. It is the fix named for a linked legacy plugin; a copied one is
// migrated on its own at load. It returns the new manifest text.
func (p *Plugins) Migrate(name string) (string, error) {
	s, err := p.store()
	if err != nil {
		return "", err
	}
	r, ok := s.Get(name)
	if !ok {
		return "", fmt.Errorf("plugin %q is not installed", name)
	}
	data, err := plugin.MigrateLegacy(r.Root)
	if err != nil {
		return "", fmt.Errorf("migrate %s (%s): %w", name, filepath.Join(r.Root, plugin.ManifestFile), err)
	}
	r.ManifestSHA256 = plugin.ManifestSHA256(data)
	if err := s.Put(r); err != nil {
		return "", fmt.Errorf("migrate %s: the manifest was rewritten but the record was not: %w", name, err)
	}
	return string(data), nil
}

// PluginOrigin is where an installed plugin came from and which upkeep a
// front end can offer for it: Update for a plugin cloned from git, Migrate
// for a legacy manifest. Plain data, read from the store and the folder
// when asked (strings a plugin wrote are redacted).
type PluginOrigin struct {
	// Source is the recorded source: a folder, or a git URL when Git.
	Source string
	Git    bool // PreviewUpdate clones Source again
	// Market: installed from the market (Source "market:<id>@<version>"):
	// PreviewUpdate installs the entry the market lists now.
	Market bool
	Commit string // the git HEAD it was installed at ("" for a folder)
	Linked bool   // it runs from Source: nothing to fetch
	// Incompatible is why the plugin cannot load (disabled_incompatible and
	// the fix), else "".
	Incompatible string
	// Legacy is a manifest without apiVersion: Migrate rewrites it to v2
	// and keeps the old one at Backup.
	Legacy bool
	Backup string
}

// Origin reads where name came from and what its manifest needs; nothing
// is written.
func (p *Plugins) Origin(name string) (PluginOrigin, error) {
	r, err := p.get(name)
	if err != nil {
		return PluginOrigin{}, err
	}
	_, git := plugin.GitURL(r.Source)
	o := PluginOrigin{Source: r.Source, Git: git && !r.Linked, Market: IsMarketSource(r.Source), Commit: r.Commit, Linked: r.Linked,
		Backup: filepath.Join(r.Root, plugin.ManifestFile+".bak")}
	if _, lerr := plugin.LoadPackage(r.Root); plugin.IsLegacy(lerr) {
		o.Legacy = true
	}
	if status, reason := plugin.CheckInstalled(p.layout, r); status != "" {
		o.Incompatible = redact.String(reason)
	}
	return o, nil
}

// PreviewUpdate previews replacing an installed plugin with what its
// recorded source holds now: a git source is cloned again, a folder is read
// again, a market package is the entry the market lists now (its pinned
// hash checked). A linked plugin runs from its folder and has nothing to
// fetch.
func (p *Plugins) PreviewUpdate(ctx context.Context, name string) (InstallPreview, error) {
	r, err := p.get(name)
	if err != nil {
		return InstallPreview{}, err
	}
	if r.Linked {
		return InstallPreview{}, fmt.Errorf("plugin %q is linked to %s: it runs from that folder, there is nothing to fetch", name, r.Root)
	}
	if IsMarketSource(r.Source) {
		return p.PreviewMarketUpdate(ctx, name)
	}
	if _, git := plugin.GitURL(r.Source); !git {
		if _, err := os.Stat(r.Source); err != nil {
			return InstallPreview{}, fmt.Errorf("update %s: its source %s is gone: %w", name, r.Source, err)
		}
	}
	return p.PreviewInstallFrom(ctx, InstallRequest{Source: r.Source, Replace: true, Name: name})
}

// DiscardPreview drops what a preview staged (a git clone) when the user
// does not install it.
func (p *Plugins) DiscardPreview(pv InstallPreview) {
	if pv.Staged != "" {
		plugin.DiscardClone(p.layout, pv.Staged)
	}
}

// MigratePlugin migrates an installed plugin's legacy manifest to v2 and
// reloads the plugins and packages so it takes effect.
func (c *Core) MigratePlugin(ctx context.Context, name string) (string, error) {
	var text string
	err := c.guarded(OpPluginSet, func() error {
		var err error
		if text, err = c.store().Migrate(name); err != nil {
			return err
		}
		return c.reloadAfter(ctx) // reloads the packages too
	})
	return text, err
}

// PreviewPluginUpdate previews updating an installed plugin from its
// recorded source (InstallPlugin carries it out).
func (c *Core) PreviewPluginUpdate(ctx context.Context, name string) (InstallPreview, error) {
	return c.store().PreviewUpdate(ctx, name)
}

// DiscardPluginPreview drops what an unused preview staged.
func (c *Core) DiscardPluginPreview(pv InstallPreview) { c.store().DiscardPreview(pv) }
