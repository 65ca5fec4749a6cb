package agent

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/packages/compat"
	"github.com/reasonix/reasonix-desktop/internal/packages/hook"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/packages/skill"
)

// Layout names the files and folders of a data directory. It is the
// package store's layout, named here so front ends reach the data
// directory through the core, never through the store.
type Layout = plugin.Layout

// DataDirEnv overrides the default data directory.
const DataDirEnv = plugin.DataDirEnv

// ManifestFile is the manifest's file name in a plugin folder.
const ManifestFile = plugin.ManifestFile

// DataLayout resolves the data directory: dataDir (a --data-dir flag), else
// $REASONIX_DESKTOP_HOME, else the user config dir + /reasonix-desktop.
// Nothing is created.
func DataLayout(dataDir string) (Layout, error) {
	dir, err := plugin.ResolveDataDir(dataDir)
	if err != nil {
		return Layout{}, err
	}
	return Layout{Root: dir}, nil
}

// WorkspaceWarnings says what a workspace tries to declare that only an
// install can (sidecars in workspace configuration are never started).
func WorkspaceWarnings(workspaceRoot string) []string {
	return plugin.WorkspaceDeclaresSidecars(workspaceRoot)
}

// PluginRecord is one installed plugin as the package store records it.
// The JSON shape is plugin-packages.json's.
type PluginRecord struct {
	Name           string    `json:"name"`
	Source         string    `json:"source"`
	Root           string    `json:"root"`
	Version        string    `json:"version"`
	Description    string    `json:"description,omitempty"`
	Enabled        bool      `json:"enabled"`
	Linked         bool      `json:"linked"`
	InstalledAt    time.Time `json:"installedAt"`
	ManifestSHA256 string    `json:"manifestSha256"`
	ManifestKind   string    `json:"manifestKind,omitempty"` // reasonix (empty), claude or codex
	Commit         string    `json:"commit,omitempty"`       // the git HEAD a clone was installed at
	// Status is "disabled_incompatible" when the plugin's manifest cannot
	// load (StatusReason says why and names the fix), else empty. List
	// fills it in, reading each manifest (nothing is written).
	Status       string `json:"status,omitempty"`
	StatusReason string `json:"statusReason,omitempty"`
}

func recordOf(r plugin.Record) PluginRecord {
	return PluginRecord{Name: r.Name, Source: r.Source, Root: r.Root, Version: r.Version,
		Description: r.Description, Enabled: r.Enabled, Linked: r.Linked,
		InstalledAt: r.InstalledAt, ManifestSHA256: r.ManifestSHA256,
		ManifestKind: r.ManifestKind, Commit: r.Commit}
}

// InstallRequest names a plugin folder to install or link.
type InstallRequest struct {
	// Source is the plugin folder (with reasonix-plugin.json, or a Claude
	// or Codex manifest), or a git URL or owner/repo shorthand: the
	// repository is cloned into a staging folder first.
	Source string
	Link   bool // run it from Source instead of a copy
	// Replace allows replacing an installed plugin of the same name, or an
	// unrecorded folder in its place.
	Replace bool
	// ReplaceInstalled replaces an installed plugin of the same name only
	// (the preview says so); an unrecorded folder still fails.
	ReplaceInstalled bool
	// Name, when set, must equal the manifest's name (a guard, never a
	// rename).
	Name string
	// Plugin picks one plugin of a marketplace root (a source holding
	// .claude-plugin/marketplace.json): that plugin's folder is installed
	// and recorded as the origin. Without it such a root is a
	// *MarketplaceError listing its plugins; PreviewInstallPicks previews
	// several from one clone.
	Plugin string
}

// InstallPreview is a validated install waiting for the user's
// authorization. Install carries out exactly this preview: it fails when
// the folder's manifest changed since.
type InstallPreview struct {
	Request  InstallRequest // Replace is resolved: true when Replaces is set
	Name     string
	Version  string
	Root     string // where it will run from
	Replaces string // "name version" of the plugin it replaces, if any
	// Text is the preview the user authorizes: the FULL TRUST block,
	// destination, replacement, warnings and legacy notes (redacted).
	Text           string
	ManifestSHA256 string
	// RunsCode is true when the plugin runs code once installed (a
	// runtime, hooks or MCP servers): the preview has a FULL TRUST block.
	RunsCode bool
	// Staged is the clone of a git Source the preview was made from (the
	// install copies it), and Commit its HEAD; empty for a folder.
	Staged, Commit string
	// Compat is the package's compatibility report (redacted); Text ends
	// with it, so what the user authorizes says what will not work.
	Compat compat.Report
	// SharesStage: another preview of the same picks installs from Staged
	// after this one, so Install leaves the clone (the last one removes
	// it; one never installed is removed with the staging folder's old
	// clones, after an hour).
	SharesStage bool
}

// PackageContents lists what a package contributes, by name (redacted).
type PackageContents = plugin.Inventory

// PluginManifest is what an installed plugin's manifest says, read now.
type PluginManifest struct {
	// Trust is what installing it authorized: the FULL TRUST block (with
	// hooks and MCP servers and their commands) for a package that runs
	// code, then its contributions by name (redacted).
	Trust       string
	Kind        string // reasonix, claude or codex
	Contents    PackageContents
	Warnings    []string // what the loader accepted but cannot use (redacted)
	EnvNames    []string // names of the runtime env block, sorted (values are never read out)
	LegacyNotes []string
	// Changed is the manifest's current sha256 when it differs from the
	// one recorded at install, else empty.
	Changed string
	// Compat is the package's compatibility report as it is now
	// (redacted): `plugin show` prints it (Report.Text).
	Compat compat.Report
}

// Plugins is the package store's commands: list, install preview, install
// or link, remove, enable, disable, the manifest and the doctor. It needs no
// running core (the CLI uses it alone; the core runs its commands through it
// and then reloads). Safe for concurrent use: every command re-reads
// plugin-packages.json, and writes take the store's lock file, so processes
// sharing a data directory do not lose each other's updates.
type Plugins struct {
	layout Layout
}

// OpenPlugins opens the package store of layout. Nothing is written.
func OpenPlugins(layout Layout) (*Plugins, error) {
	if _, err := plugin.OpenStore(layout); err != nil {
		return nil, fmt.Errorf("open the plugin store: %w", err)
	}
	return &Plugins{layout: layout}, nil
}

// Layout is the data directory the store belongs to.
func (p *Plugins) Layout() Layout { return p.layout }

func (p *Plugins) store() (*plugin.Store, error) {
	s, err := plugin.OpenStore(p.layout)
	if err != nil {
		return nil, fmt.Errorf("open the plugin store: %w", err)
	}
	return s, nil
}

// List returns every installed plugin sorted by name.
func (p *Plugins) List() ([]PluginRecord, error) {
	s, err := p.store()
	if err != nil {
		return nil, err
	}
	recs := s.List()
	out := make([]PluginRecord, len(recs))
	for i, r := range recs {
		out[i] = recordOf(r)
		status, reason := plugin.CheckInstalled(p.layout, r)
		out[i].Status, out[i].StatusReason = status, redact.String(reason)
	}
	return out, nil
}

// Get returns the installed plugin name.
func (p *Plugins) Get(name string) (PluginRecord, error) {
	r, err := p.get(name)
	return recordOf(r), err
}

func (p *Plugins) get(name string) (plugin.Record, error) {
	s, err := p.store()
	if err != nil {
		return plugin.Record{}, err
	}
	r, ok := s.Get(name)
	if !ok {
		return plugin.Record{}, fmt.Errorf("plugin %q is not installed", name)
	}
	return r, nil
}

// Manifest reads the installed plugin's manifest as it is now.
func (p *Plugins) Manifest(name string) (PluginManifest, error) {
	r, err := p.get(name)
	if err != nil {
		return PluginManifest{}, err
	}
	pkg, err := plugin.LoadInstalled(p.layout, r)
	if err != nil {
		return PluginManifest{}, fmt.Errorf("%s: %w", name, err)
	}
	out := PluginManifest{Trust: pkg.TrustText(r.Root), Kind: pkg.Kind, Contents: pkg.Inventory(), Compat: compatReport(pkg)}
	for _, w := range pkg.Warnings {
		out.Warnings = append(out.Warnings, redact.String(w))
	}
	out.Warnings = append(out.Warnings, compatWarnings(pkg)...)
	if m := pkg.Manifest; m != nil {
		out.LegacyNotes = m.LegacyNotes()
		for k := range m.Runtime.Env {
			out.EnvNames = append(out.EnvNames, k)
		}
		slices.Sort(out.EnvNames)
	}
	// Inside the package, as every read of its files (a manifest swapped
	// for a link after the load must not be read from elsewhere).
	data, err := plugin.ReadPackageFile(r.Root, filepath.FromSlash(plugin.ManifestPath(pkg.Kind)), plugin.MaxPackageFileBytes)
	if err != nil {
		return PluginManifest{}, fmt.Errorf("cannot read the manifest: %w", err)
	}
	if sum := plugin.ManifestSHA256(data); sum != r.ManifestSHA256 {
		out.Changed = sum
	}
	return out, nil
}

// PreviewInstall validates the folder and describes the install without
// writing anything.
func (p *Plugins) PreviewInstall(req InstallRequest) (InstallPreview, error) {
	return p.PreviewInstallFrom(context.Background(), req)
}

// PreviewInstallFrom is PreviewInstall for any source: a git Source is
// cloned (ctx bounds the clone) into a staging folder first; the preview
// names it as Staged and Install copies exactly that clone.
func (p *Plugins) PreviewInstallFrom(ctx context.Context, req InstallRequest) (InstallPreview, error) {
	s, err := p.store()
	if err != nil {
		return InstallPreview{}, err
	}
	var staged, commit string
	if url, ok := plugin.GitURL(req.Source); ok {
		if req.Link {
			return InstallPreview{}, fmt.Errorf("cannot link %s: a git source is cloned and copied, never linked", req.Source)
		}
		if staged, commit, err = plugin.Clone(ctx, p.layout, url); err != nil {
			return InstallPreview{}, err
		}
		req.Source = url
	}
	plan, err := p.plan(s, req, staged, commit)
	if err != nil {
		if staged != "" {
			plugin.DiscardClone(p.layout, staged)
		}
		return InstallPreview{}, err
	}
	return previewOf(req, plan, staged, commit), nil
}

// previewOf is the preview of plan for req: the plan's text, then the
// package's compatibility report.
func previewOf(req InstallRequest, plan *plugin.InstallPlan, staged, commit string) InstallPreview {
	req.Replace = plan.Replace
	pv := InstallPreview{Request: req, Name: plan.Name, Version: plan.Package.Version, Root: plan.Dest,
		Text: redact.String(plan.Text), ManifestSHA256: plan.ManifestSHA256, Staged: staged, Commit: commit, RunsCode: plan.Package.RunsCode()}
	if e := plan.Existing; e != nil {
		pv.Replaces = e.Name + " " + redact.String(e.Version)
	}
	pv.Compat = compatReport(plan.Package)
	pv.Text += pv.Compat.Text()
	return pv
}

// plan previews req; with ReplaceInstalled an installed plugin of the same
// name is replaced (and only that).
func (p *Plugins) plan(s *plugin.Store, req InstallRequest, staged, commit string) (*plugin.InstallPlan, error) {
	opts := plugin.InstallOptions{Link: req.Link, Replace: req.Replace, Name: req.Name, Plugin: req.Plugin}
	dir := req.Source
	if staged != "" {
		dir, opts.Origin, opts.Commit = staged, req.Source, commit
	}
	plan, err := plugin.Preview(s, dir, opts)
	if err != nil && req.ReplaceInstalled && !req.Replace {
		opts.Replace = true
		if again, aerr := plugin.Preview(s, dir, opts); aerr == nil && again.Existing != nil {
			plan, err = again, nil
		}
	}
	if err != nil {
		return nil, err // it names the folder or the plugin already
	}
	return plan, nil
}

// ErrPreviewStale is returned by Install when the folder no longer matches
// the preview the user authorized.
var ErrPreviewStale = errors.New("the plugin changed since the preview; preview it again")

// Install carries out an authorized preview: a copy into plugins/<name>/ or,
// linked, a record of the folder, enabled.
func (p *Plugins) Install(pv InstallPreview) (PluginRecord, error) {
	s, err := p.store()
	if err != nil {
		return PluginRecord{}, err
	}
	req := pv.Request
	req.ReplaceInstalled = false // Replace was resolved by the preview
	plan, err := p.plan(s, req, pv.Staged, pv.Commit)
	if err != nil {
		return PluginRecord{}, err
	}
	if plan.ManifestSHA256 != pv.ManifestSHA256 || plan.Dest != pv.Root || plan.Name != pv.Name {
		return PluginRecord{}, fmt.Errorf("install %s: %w", pv.Name, ErrPreviewStale)
	}
	rec, err := plugin.Install(s, p.layout, plan)
	if err != nil {
		return PluginRecord{}, fmt.Errorf("install %s: %w", pv.Name, err)
	}
	if pv.Staged != "" && !pv.SharesStage {
		plugin.DiscardClone(p.layout, pv.Staged)
	}
	return recordOf(rec), nil
}

// Remove deletes the record of name and, for a copied plugin, its folder;
// a linked plugin's folder is kept. It returns the removed record.
func (p *Plugins) Remove(name string) (PluginRecord, error) {
	s, err := p.store()
	if err != nil {
		return PluginRecord{}, err
	}
	r, ok := s.Get(name)
	if !ok {
		return PluginRecord{}, fmt.Errorf("plugin %q is not installed", name)
	}
	if err := plugin.Remove(s, p.layout, name); err != nil {
		return PluginRecord{}, fmt.Errorf("remove %s: %w", name, err)
	}
	return recordOf(r), nil
}

// SetEnabled enables or disables an installed plugin (from the next
// generation on).
func (p *Plugins) SetEnabled(name string, enabled bool) error {
	s, err := p.store()
	if err != nil {
		return err
	}
	return s.SetEnabled(name, enabled) // its errors name the plugin
}

// compatWarnings are what a package's agents, skills and Claude-format
// hooks name that this host cannot honour (a tool no name maps to, a
// matcher that never fires), redacted, for its compatibility report: the
// install preview, the manifest view and the doctor.
func compatWarnings(pkg plugin.Package) []string {
	var out []string
	for _, w := range append(skill.CompatWarnings(pkg), hook.CompatWarnings(pkg)...) {
		out = append(out, redact.String(w))
	}
	return out
}
