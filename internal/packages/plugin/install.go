package plugin

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// InstallOptions tune Preview/Install.
type InstallOptions struct {
	// Link records the source folder as the plugin root instead of copying it.
	Link bool
	// Replace allows replacing an installed plugin of the same name.
	Replace bool
	// Name, when set, must equal the manifest's name: the plugin name is
	// fixed by the manifest (the sidecar declares it and its provider refs
	// carry it), so this is a guard against installing the wrong folder,
	// never a rename.
	Name string
	// Origin, when set, is recorded as the source instead of the folder
	// (a git URL whose clone the folder is); Commit is the clone's HEAD.
	Origin, Commit string
	// Plugin picks one plugin of a marketplace root (a folder holding
	// .claude-plugin/marketplace.json): its folder is what is installed and
	// the origin recorded is that folder's (in the repository Origin names,
	// or on disk). Without it a marketplace root is a *MarketplaceError
	// listing the plugins. Several plugins are several previews.
	Plugin string
}

// InstallPlan is a validated install, ready for the user's confirmation.
type InstallPlan struct {
	Name           string
	Source         string // absolute, symlinks resolved
	Dest           string // plugins/<name>, or Source when linked
	Link           bool
	Replace        bool
	Manifest       *Manifest // nil for a Claude or Codex package
	ManifestSHA256 string
	// Package is what the folder contributes (the preview lists it).
	Package Package
	// Kind is the manifest kind; Legacy marks a reasonix-plugin.json
	// without apiVersion (a copy is migrated, a link stays incompatible).
	Kind   string
	Legacy bool
	// Origin and Commit are where the folder came from when it is a
	// staged git clone (the record keeps them for `plugin update`).
	Origin, Commit string
	// Marketplace names the marketplace the plugin was picked from, if any.
	Marketplace string
	// listed is a pick whose manifest is its marketplace entry.
	listed *listedPick
	// Existing is the record being replaced, if any.
	Existing *Record
	// Size is the package's files (a linked folder is not measured).
	Size     PackageSize
	Warnings []string
	// Text is the preview: FULL TRUST block, destination, replacement,
	// warnings and legacy notes.
	Text string
}

// Preview validates the plugin folder src and describes the install without
// writing anything. It fails when the manifest is invalid, the command is
// not an absolute exec-form command after expansion, the folder cannot be
// copied safely, opts.Name disagrees with the manifest, or the plugin is
// already installed and opts.Replace is false.
func Preview(store *Store, src string, opts InstallOptions) (*InstallPlan, error) {
	if store == nil {
		return nil, errors.New("no plugin store")
	}
	layout := store.Layout()
	if _, err := os.Stat(src); err != nil {
		// A folder named another way (a file:// URL of a plain folder,
		// with its #path=, or a marketplace folder's #plugin=) is that
		// folder.
		if parsed, perr := ParseSource(src); perr == nil && !parsed.IsGit() {
			src = parsed.Dir
			if opts.Plugin == "" {
				opts.Plugin = parsed.Plugin
			}
		}
	}
	abs, err := filepath.Abs(src)
	if err != nil {
		return nil, err
	}
	if abs, err = filepath.EvalSymlinks(abs); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(abs); err != nil {
		return nil, err
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", abs)
	}
	market := ""
	var listed *listedPick
	if IsMarketplace(abs) {
		m, err := ReadMarketplace(abs)
		if err != nil {
			return nil, err
		}
		pick := strings.TrimSpace(opts.Plugin)
		if o, err := ParseSource(opts.Origin); pick == "" && err == nil {
			pick = o.Plugin // an update of a plugin the listing stands for
		}
		if pick == "" && opts.Name != "" {
			// The name guard can only hold for the plugin of that name:
			// how an update of a plugin picked from a marketplace folder
			// finds it again.
			for _, p := range m.Plugins {
				if p.Name == opts.Name {
					pick = p.Name
				}
			}
		}
		if pick == "" {
			return nil, &MarketplaceError{Marketplace: m}
		}
		p, pm, origin, err := marketplacePick(abs, pick, opts.Origin)
		if err != nil {
			return nil, err
		}
		if abs, err = filepath.EvalSymlinks(p.Dir); err != nil {
			return nil, err
		}
		opts.Origin, market, opts.Plugin = origin, pm.label(), pick
		if p.Manifest != nil {
			if opts.Link {
				return nil, fmt.Errorf("cannot link %s: plugin %s's manifest is its marketplace entry, which the install writes into a copy", abs, p.Name)
			}
			listed = &listedPick{root: pm.Root, name: p.Name, manifest: p.Manifest}
		}
	}
	var sp *sourcePackage
	if listed != nil {
		pkg, lerr := loadForeignPackage(abs, PackageClaude, listed.manifest)
		if lerr != nil {
			return nil, fmt.Errorf("plugin %s of marketplace %s: %w", listed.name, market, lerr)
		}
		sp, err = &sourcePackage{pkg: pkg, data: listed.manifest}, nil
	} else if sp, err = readPackage(abs); err != nil {
		return nil, err
	}
	name := sp.pkg.Name
	if p := strings.TrimSpace(opts.Plugin); market == "" && p != "" && p != name {
		return nil, fmt.Errorf("%s is the plugin %q, not a marketplace: there is no plugin %q to pick in it", abs, name, p)
	}
	if opts.Name != "" {
		if !protocol.ValidPluginName(opts.Name) {
			return nil, fmt.Errorf("--name %q is not a valid plugin name", opts.Name)
		}
		if opts.Name != name {
			return nil, fmt.Errorf("--name %q does not match the manifest name %q (the plugin name is fixed by its manifest)", opts.Name, name)
		}
	}
	m := sp.pkg.Manifest
	plan := &InstallPlan{
		Name: name, Source: abs, Link: opts.Link, Replace: opts.Replace,
		Manifest: m, ManifestSHA256: ManifestSHA256(sp.data), Package: sp.pkg,
		Kind: sp.pkg.Kind, Legacy: sp.legacy, Origin: opts.Origin, Commit: opts.Commit, Marketplace: market,
		listed: listed,
	}
	if listed != nil {
		plan.Warnings = append(plan.Warnings, fmt.Sprintf("its manifest is its marketplace entry: the copy gets it as %s", ClaudeManifestFile))
	}
	plan.Warnings = append(plan.Warnings, sp.pkg.Warnings...)
	if sp.legacy {
		if opts.Link {
			plan.Warnings = append(plan.Warnings, fmt.Sprintf("legacy manifest (no apiVersion): linked, the plugin stays %s until `reasonix-desktop plugin migrate %s --to-v2`", StatusDisabledIncompatible, name))
		} else {
			plan.Warnings = append(plan.Warnings, fmt.Sprintf("legacy manifest (no apiVersion): the copy is rewritten to %s (the original kept as %s.bak)", APIVersion, ManifestFile))
		}
	}
	managed := layout.PluginDir(name)
	if existing, ok := store.Get(name); ok {
		if !opts.Replace {
			return nil, fmt.Errorf("plugin %q is already installed (version %s); use --replace", name, existing.Version)
		}
		plan.Existing = &existing
	} else if _, err := os.Lstat(managed); err == nil && !opts.Replace {
		return nil, fmt.Errorf("%s exists but is not a recorded plugin; use --replace to overwrite it", managed)
	}
	pluginsDir := resolvedOrSelf(layout.PluginsDir())
	if opts.Link {
		if within(pluginsDir, abs) {
			return nil, fmt.Errorf("cannot link %s: it is inside the managed plugins folder", abs)
		}
		plan.Dest = abs
	} else {
		if within(abs, pluginsDir) || within(abs, resolvedOrSelf(layout.Root)) {
			return nil, fmt.Errorf("cannot copy %s: the data directory %s is inside it", abs, layout.Root)
		}
		size, err := copyTree(abs, "")
		if err != nil {
			return nil, fmt.Errorf("cannot copy %s: %w", abs, err)
		}
		plan.Size = size
		plan.Dest = managed
	}
	if m == nil || !m.HasRuntime() {
		plan.Text = plan.render()
		return plan, nil
	}
	if _, _, err := m.ResolveCommand(plan.Dest); err != nil {
		return nil, err
	}
	// The command as it exists in the source folder right now.
	if cmd, _, err := m.ResolveCommand(abs); err == nil {
		if !exists(cmd) {
			plan.Warnings = append(plan.Warnings, fmt.Sprintf("command %s does not exist", cmd))
		} else if _, ok := proc.Executable(cmd); !ok {
			plan.Warnings = append(plan.Warnings, fmt.Sprintf("command %s is not an executable file", cmd))
		}
	}
	plan.Text = plan.render()
	return plan, nil
}

func (p *InstallPlan) render() string {
	var b strings.Builder
	b.WriteString(p.Package.TrustText(p.Dest))
	b.WriteString("\n")
	if p.Marketplace != "" {
		fmt.Fprintf(&b, "Picked from marketplace %s\n", p.Marketplace)
	}
	if p.Origin != "" {
		fmt.Fprintf(&b, "From: %s", redact.String(p.Origin))
		if p.Commit != "" {
			fmt.Fprintf(&b, " at %s", p.Commit)
		}
		b.WriteString("\n")
	}
	if p.Link {
		fmt.Fprintf(&b, "Link: %s (not copied; the plugin runs from this folder and picks up its changes)\n", p.Source)
	} else {
		fmt.Fprintf(&b, "Copy: %s\n  to: %s\n", p.Source, p.Dest)
		fmt.Fprintf(&b, "Size: %s\n", p.Size)
	}
	if e := p.Existing; e != nil {
		how := "its copy " + e.Root + " will be deleted"
		if e.Linked {
			how = "it is linked; " + e.Root + " is kept"
		}
		fmt.Fprintf(&b, "Replaces: %s %s (%s)\n", e.Name, redact.String(e.Version), how)
	}
	for _, w := range p.Warnings {
		// What the loader could not map is the compatibility report's
		// (compat.Check reads Package.Warnings, and the core's preview
		// ends with that report): listed here too, it would say it twice.
		if slices.Contains(p.Package.Warnings, w) {
			continue
		}
		fmt.Fprintf(&b, "Warning: %s\n", redact.String(w))
	}
	if p.Manifest != nil {
		for _, n := range p.Manifest.LegacyNotes() {
			fmt.Fprintf(&b, "Note: %s\n", n)
		}
	}
	return b.String()
}

// Install carries out a plan: it copies the folder into plugins/<name>/ (via
// a temporary folder renamed into place, so a failed copy leaves nothing) or,
// linked, records the source folder; then records the plugin enabled. When
// replacing, the old copy is deleted only after the new one is in place; a
// linked source is never deleted. The manifest must be unchanged since the
// preview.
func Install(store *Store, layout Layout, plan *InstallPlan) (Record, error) {
	if store == nil || plan == nil || plan.Package.Name == "" {
		return Record{}, errors.New("install: missing store or plan")
	}
	name := plan.Name
	mfile := filepath.FromSlash(ManifestPath(plan.Kind))
	var data []byte
	var err error
	if l := plan.listed; l != nil {
		// The manifest is the listing's entry: it must read as previewed.
		p, _, _, perr := marketplacePick(l.root, l.name, "")
		if err = perr; err == nil {
			data = p.Manifest
		}
	} else {
		data, err = ReadPackageFile(plan.Source, mfile, maxManifestBytes)
	}
	if err != nil {
		return Record{}, err
	}
	if ManifestSHA256(data) != plan.ManifestSHA256 {
		return Record{}, fmt.Errorf("%s changed since the preview; run the install again", filepath.Join(plan.Source, mfile))
	}
	old, had := store.Get(name)
	if had && !plan.Replace {
		return Record{}, fmt.Errorf("plugin %q is already installed; use --replace", name)
	}
	rec := Record{
		Name: name, Source: plan.Source, Version: plan.Package.Version,
		Description: plan.Package.Description, Enabled: true, Linked: plan.Link,
		InstalledAt: time.Now().UTC().Truncate(time.Second), ManifestSHA256: plan.ManifestSHA256,
		ManifestKind: plan.Kind, Commit: plan.Commit,
	}
	if plan.Origin != "" {
		rec.Source = plan.Origin
	}
	managed := layout.PluginDir(name)
	if plan.Link {
		rec.Root = plan.Source
		if err := store.Put(rec); err != nil {
			return Record{}, err
		}
		if had && !old.Linked && within(layout.PluginsDir(), old.Root) {
			os.RemoveAll(old.Root) // the previous copy; the new root is elsewhere
		}
		return rec, nil
	}

	if err := layout.EnsureDirs(); err != nil {
		return Record{}, err
	}
	tmp, err := os.MkdirTemp(layout.PluginsDir(), ".install-"+name+"-")
	if err != nil {
		return Record{}, err
	}
	fail := func(err error) (Record, error) {
		os.RemoveAll(tmp)
		return Record{}, err
	}
	if _, err := copyTree(plan.Source, tmp); err != nil {
		return fail(fmt.Errorf("copy %s: %w", plan.Source, err))
	}
	if l := plan.listed; l != nil {
		// The copy carries the manifest its listing stood for, so it loads
		// as any installed Claude package.
		if err := os.MkdirAll(filepath.Join(tmp, filepath.Dir(mfile)), 0o755); err != nil {
			return fail(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, mfile), l.manifest, 0o644); err != nil {
			return fail(err)
		}
	}
	copied, err := ReadPackageFile(tmp, mfile, maxManifestBytes)
	if err != nil || ManifestSHA256(copied) != plan.ManifestSHA256 {
		return fail(fmt.Errorf("%s changed while it was copied; run the install again", filepath.Join(plan.Source, mfile)))
	}
	if plan.Legacy {
		// The managed copy is the host's to rewrite, as the real host does.
		migrated, err := MigrateLegacy(tmp)
		if err != nil {
			return fail(err)
		}
		rec.ManifestSHA256 = ManifestSHA256(migrated)
	}
	aside := ""
	if _, err := os.Lstat(managed); err == nil {
		if !plan.Replace {
			return fail(fmt.Errorf("%s already exists; use --replace", managed))
		}
		aside = filepath.Join(layout.PluginsDir(), ".replaced-"+name+"-"+randomHex())
		if err := os.Rename(managed, aside); err != nil {
			return fail(err)
		}
	}
	restore := func() {
		if aside != "" {
			os.Rename(aside, managed)
		}
	}
	if err := os.Rename(tmp, managed); err != nil {
		restore()
		return fail(err)
	}
	rec.Root = managed
	if err := store.Put(rec); err != nil {
		os.RemoveAll(managed)
		restore()
		return Record{}, err
	}
	if aside != "" {
		os.RemoveAll(aside)
	}
	return rec, nil
}

// Remove deletes the record of name and, for a copied plugin, its folder
// under plugins/. A linked plugin's source folder is never touched.
func Remove(store *Store, layout Layout, name string) error {
	rec, ok := store.Get(name)
	if !ok {
		return fmt.Errorf("plugin %q is not installed", name)
	}
	if rec.Linked {
		return store.Remove(name)
	}
	if !within(layout.PluginsDir(), rec.Root) || filepath.Clean(rec.Root) == filepath.Clean(layout.PluginsDir()) {
		if err := store.Remove(name); err != nil {
			return err
		}
		return fmt.Errorf("plugin %q removed, but its folder %s is outside %s and was left in place", name, rec.Root, layout.PluginsDir())
	}
	aside := ""
	if _, err := os.Lstat(rec.Root); err == nil {
		aside = filepath.Join(layout.PluginsDir(), ".removing-"+name+"-"+randomHex())
		if err := os.Rename(rec.Root, aside); err != nil {
			return err
		}
	}
	if err := store.Remove(name); err != nil {
		if aside != "" {
			os.Rename(aside, rec.Root)
		}
		return err
	}
	if aside != "" {
		return os.RemoveAll(aside)
	}
	return nil
}

// within reports whether p is dir or inside it (lexically).
func within(dir, p string) bool {
	r, err := filepath.Rel(dir, p)
	if err != nil {
		return false
	}
	return r == "." || (r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r))
}

// resolvedOrSelf resolves symlinks in p, or in its nearest existing parent.
func resolvedOrSelf(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	if parent := filepath.Dir(p); parent != p {
		return filepath.Join(resolvedOrSelf(parent), filepath.Base(p))
	}
	return p
}

func randomHex() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// exists reports whether the file that running cmd starts exists (on
// Windows cmd.exe for an extension-less cmd).
func exists(cmd string) bool {
	path, _ := proc.Executable(cmd)
	_, err := os.Stat(path)
	return err == nil
}

// listedPick is a marketplace plugin whose manifest is its listing's entry.
type listedPick struct {
	root, name string
	manifest   []byte
}

// sourcePackage is a plugin folder read for an install.
type sourcePackage struct {
	pkg    Package
	data   []byte // the manifest file's bytes
	legacy bool
}

// readPackage reads the package at abs (resolved). A legacy
// reasonix-plugin.json is read through its v2 migration (in memory).
func readPackage(abs string) (*sourcePackage, error) {
	kind, err := DetectKind(abs)
	if err != nil {
		return nil, err
	}
	file := filepath.Join(abs, filepath.FromSlash(ManifestPath(kind)))
	data, err := ReadPackageFile(abs, file, maxManifestBytes)
	if err != nil {
		return nil, err
	}
	pkg, err := LoadPackage(abs)
	if err == nil {
		return &sourcePackage{pkg: pkg, data: data}, nil
	}
	if !IsLegacy(err) {
		return nil, err
	}
	// The preview shows the package as its migration will write it.
	v2, warnings, merr := MigratePackage(abs, data)
	if merr != nil {
		return nil, fmt.Errorf("%s: %w", file, merr)
	}
	m, merr := ParseManifest(v2)
	if merr != nil {
		return nil, withFile(merr, file)
	}
	registerEnv(m)
	if pkg, err = packageFrom(abs, m); err != nil {
		return nil, err
	}
	pkg.Warnings = append(pkg.Warnings, warnings...)
	return &sourcePackage{pkg: pkg, data: data, legacy: true}, nil
}
