package plugin

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/proc"
	"github.com/reasonix/reasonix-desktop/internal/redact"
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
}

// InstallPlan is a validated install, ready for the user's confirmation.
type InstallPlan struct {
	Name           string
	Source         string // absolute, symlinks resolved
	Dest           string // plugins/<name>, or Source when linked
	Link           bool
	Replace        bool
	Manifest       *Manifest
	ManifestSHA256 string
	// Existing is the record being replaced, if any.
	Existing *Record
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
	data, m, err := readManifest(abs)
	if err != nil {
		return nil, err
	}
	if opts.Name != "" {
		if !protocol.ValidPluginName(opts.Name) {
			return nil, fmt.Errorf("--name %q is not a valid plugin name", opts.Name)
		}
		if opts.Name != m.Name {
			return nil, fmt.Errorf("--name %q does not match the manifest name %q (the plugin name is fixed by its manifest)", opts.Name, m.Name)
		}
	}
	plan := &InstallPlan{
		Name: m.Name, Source: abs, Link: opts.Link, Replace: opts.Replace,
		Manifest: m, ManifestSHA256: ManifestSHA256(data),
	}
	managed := layout.PluginDir(m.Name)
	if existing, ok := store.Get(m.Name); ok {
		if !opts.Replace {
			return nil, fmt.Errorf("plugin %q is already installed (version %s); use --replace", m.Name, existing.Version)
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
		if err := copyTree(abs, ""); err != nil {
			return nil, err
		}
		plan.Dest = managed
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
	b.WriteString(p.Manifest.TrustBlock(p.Dest))
	b.WriteString("\n")
	if p.Link {
		fmt.Fprintf(&b, "Link: %s (not copied; the plugin runs from this folder and picks up its changes)\n", p.Source)
	} else {
		fmt.Fprintf(&b, "Copy: %s\n  to: %s\n", p.Source, p.Dest)
	}
	if e := p.Existing; e != nil {
		how := "its copy " + e.Root + " will be deleted"
		if e.Linked {
			how = "it is linked; " + e.Root + " is kept"
		}
		fmt.Fprintf(&b, "Replaces: %s %s (%s)\n", e.Name, redact.String(e.Version), how)
	}
	for _, w := range p.Warnings {
		fmt.Fprintf(&b, "Warning: %s\n", redact.String(w))
	}
	for _, n := range p.Manifest.LegacyNotes() {
		fmt.Fprintf(&b, "Note: %s\n", n)
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
	if store == nil || plan == nil || plan.Manifest == nil {
		return Record{}, errors.New("install: missing store or plan")
	}
	name := plan.Name
	data, _, err := readManifest(plan.Source)
	if err != nil {
		return Record{}, err
	}
	if ManifestSHA256(data) != plan.ManifestSHA256 {
		return Record{}, fmt.Errorf("%s changed since the preview; run the install again", filepath.Join(plan.Source, ManifestFile))
	}
	old, had := store.Get(name)
	if had && !plan.Replace {
		return Record{}, fmt.Errorf("plugin %q is already installed; use --replace", name)
	}
	rec := Record{
		Name: name, Source: plan.Source, Version: plan.Manifest.Version,
		Description: plan.Manifest.Description, Enabled: true, Linked: plan.Link,
		InstalledAt: time.Now().UTC().Truncate(time.Second), ManifestSHA256: plan.ManifestSHA256,
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
	if err := copyTree(plan.Source, tmp); err != nil {
		return fail(fmt.Errorf("copy %s: %w", plan.Source, err))
	}
	copied, err := os.ReadFile(filepath.Join(tmp, ManifestFile))
	if err != nil || ManifestSHA256(copied) != plan.ManifestSHA256 {
		return fail(fmt.Errorf("%s changed while it was copied; run the install again", filepath.Join(plan.Source, ManifestFile)))
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
