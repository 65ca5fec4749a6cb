package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// Manifest files of the other plugin formats the loader reads.
const (
	CodexManifestFile  = ".codex-plugin/plugin.json"
	ClaudeManifestFile = ".claude-plugin/plugin.json"
)

// StatusDisabledIncompatible is the status of an installed plugin whose
// manifest this host cannot load (the real host's word for it).
const StatusDisabledIncompatible = "disabled_incompatible"

// ManifestPath is the manifest file of a package kind, relative to its root.
func ManifestPath(kind string) string {
	switch kind {
	case PackageClaude:
		return ClaudeManifestFile
	case PackageCodex:
		return CodexManifestFile
	}
	return ManifestFile
}

// DetectKind tells which manifest root holds, in the real host's order:
// reasonix-plugin.json, then Codex, then Claude.
func DetectKind(root string) (string, error) {
	pfs, err := OpenPackageFS(root)
	if err != nil {
		return "", err
	}
	defer pfs.Close()
	for _, k := range []string{PackageReasonix, PackageCodex, PackageClaude} {
		if _, err := pfs.Stat(ManifestPath(k)); err == nil {
			return k, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
	}
	return "", fmt.Errorf("%s: no %s, %s, or %s found", root, ManifestFile, CodexManifestFile, ClaudeManifestFile)
}

// LoadPackage reads the package at root: its manifest of whichever kind,
// its contributions resolved to absolute paths inside root. A v2 manifest
// is the complete list (no folder is scanned); a Claude or Codex manifest
// gets its conventional folders. A reasonix-plugin.json without apiVersion
// fails with a legacy *ManifestError (IsLegacy): MigrateLegacy rewrites it.
func LoadPackage(root string) (Package, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return Package{}, err
	}
	if abs, err = filepath.EvalSymlinks(abs); err != nil {
		return Package{}, err
	}
	kind, err := DetectKind(abs)
	if err != nil {
		return Package{}, err
	}
	if kind == PackageReasonix {
		_, m, err := readManifest(abs)
		if err != nil {
			return Package{}, err
		}
		return packageFrom(abs, m)
	}
	return loadForeignPackage(abs, kind, nil)
}

// loadForeignPackage reads the Claude or Codex package at abs (resolved),
// its manifest from data when not nil.
func loadForeignPackage(abs, kind string, data []byte) (Package, error) {
	pkg := Package{Root: abs, Kind: kind}
	rel, meta, warnings, err := loadForeign(abs, kind, data)
	if err != nil {
		return Package{}, err
	}
	pkg.Warnings = warnings
	pkg.Name, pkg.Version, pkg.Description = meta.Name, meta.Version, meta.Description
	if err := pkg.resolve(rel); err != nil {
		return Package{}, withFile(err, filepath.Join(abs, filepath.FromSlash(ManifestPath(kind))))
	}
	return pkg, nil
}

// packageFrom resolves the contributions of the parsed native manifest m
// of the package at abs (a resolved path).
func packageFrom(abs string, m *Manifest) (Package, error) {
	file := filepath.Join(abs, ManifestFile)
	rel, err := decodeContributions(m)
	if err != nil {
		return Package{}, withFile(err, file)
	}
	pkg := Package{Root: abs, Kind: PackageReasonix, Name: m.Name, Version: m.Version, Description: m.Description, Manifest: m}
	if err := pkg.resolve(rel); err != nil {
		return Package{}, withFile(err, file)
	}
	return pkg, nil
}

// withFile names the manifest file in a *ManifestError.
func withFile(err error, file string) error {
	var me *ManifestError
	if errors.As(err, &me) && me.File == "" {
		c := *me
		c.File = file
		return &c
	}
	return err
}

// resolve turns the declared relative paths into absolute ones, checking
// every path that exists stays inside the root after symlinks. A missing
// path is a warning and contributes nothing (an optional asset must not
// disable the package); an escape is an error.
func (p *Package) resolve(rel *relPaths) error {
	pfs, err := OpenPackageFS(p.Root)
	if err != nil {
		return err
	}
	defer pfs.Close()
	for _, l := range []struct {
		kind string
		in   []string
		dst  *[]string
	}{{"skills", rel.Skills, &p.Skills}, {"agents", rel.Agents, &p.Agents}, {"commands", rel.Commands, &p.Commands}, {"prompts", rel.Prompts, &p.Prompts}} {
		for _, r := range l.in {
			abs, ok, err := p.inside(pfs, l.kind, r)
			if err != nil {
				return err
			}
			if ok {
				*l.dst = append(*l.dst, abs)
			}
		}
	}
	for _, pattern := range rel.Themes {
		matches, err := p.themes(pfs, pattern)
		if err != nil {
			return err
		}
		for _, m := range matches {
			if !slices.Contains(p.Themes, m) {
				p.Themes = append(p.Themes, m)
			}
		}
	}
	slices.Sort(p.Themes)
	// Values a hook or an MCP server gets in its environment are masked by
	// value wherever its output is shown, like a runtime's env.
	for _, hs := range rel.Hooks {
		for _, h := range hs {
			redact.RegisterEnv(h.Env)
		}
	}
	for _, s := range rel.MCPServers {
		redact.RegisterEnv(s.Env)
		redact.RegisterEnv(s.Headers)
	}
	if err := checkHookFiles(pfs, rel.Hooks); err != nil {
		return err
	}
	if err := checkMCPFiles(pfs, rel.MCPServers); err != nil {
		return err
	}
	if p.Manifest != nil {
		if err := checkNamed(pfs, "runtime.command", p.Manifest.Runtime.Command, false); err != nil {
			return err
		}
	}
	if len(rel.Hooks) > 0 {
		p.Hooks = rel.Hooks
		p.Warnings = append(p.Warnings, eventWarnings(rel.Hooks)...)
	}
	if len(rel.MCPRaw) > 0 {
		data, err := json.Marshal(rel.MCPRaw)
		if err != nil {
			return err
		}
		p.MCPServers = data
	}
	return nil
}

// inside resolves the declared path r; ok is false when it does not exist.
// It must resolve inside the root on disk (PackageFS), links and all.
func (p *Package) inside(pfs *PackageFS, kind, r string) (string, bool, error) {
	abs := filepath.Join(p.Root, filepath.FromSlash(r))
	if _, err := pfs.Stat(r); errors.Is(err, ErrLeavesPackage) {
		return "", false, merr("contributes."+kind, "%s path %q escapes the plugin root through a symlink: %v", kind, r, err)
	}
	if _, err := pfs.Lstat(r); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			p.Warnings = append(p.Warnings, fmt.Sprintf("%s path %q does not exist", kind, r))
		} else {
			p.Warnings = append(p.Warnings, fmt.Sprintf("%s path %q is not readable: %v", kind, r, err))
		}
		return "", false, nil
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		p.Warnings = append(p.Warnings, fmt.Sprintf("%s path %q cannot be resolved: %v", kind, r, err))
		return "", false, nil
	}
	if !within(p.Root, resolved) {
		return "", false, merr("contributes."+kind, "%s path %q escapes the plugin root through a symlink", kind, r)
	}
	return resolved, true, nil
}

func hasGlobMeta(p string) bool { return strings.ContainsAny(p, "*?[") }

// themes expands a theme path or glob. The glob runs one path segment at a
// time, so the plugin root is never read as pattern syntax and no segment
// crosses a folder boundary. Every match must be a regular file inside the
// root after symlinks.
func (p *Package) themes(pfs *PackageFS, pattern string) ([]string, error) {
	if !hasGlobMeta(pattern) {
		abs, ok, err := p.inside(pfs, "themes", pattern)
		if err != nil || !ok {
			return nil, err
		}
		return []string{abs}, p.checkTheme(pfs, abs, pattern)
	}
	segs := strings.Split(pattern, "/")
	for _, seg := range segs {
		if _, err := path.Match(seg, ""); err != nil {
			return nil, merr("contributes.themes", "invalid theme glob %q: %v", pattern, err)
		}
	}
	matches := []string{p.Root}
	for _, seg := range segs {
		var next []string
		for _, base := range matches {
			if !hasGlobMeta(seg) {
				next = append(next, filepath.Join(base, seg))
				continue
			}
			entries, _ := pfs.ReadDir(base)
			for _, e := range entries {
				if ok, _ := path.Match(seg, e.Name()); ok {
					next = append(next, filepath.Join(base, e.Name()))
				}
			}
		}
		matches = next
	}
	var out []string
	for _, m := range matches {
		if _, err := pfs.Lstat(m); err != nil {
			if errors.Is(err, ErrLeavesPackage) {
				return nil, merr("contributes.themes", "theme %q escapes the plugin root through a symlink: %v", pattern, err)
			}
			continue
		}
		if _, err := pfs.Stat(m); errors.Is(err, ErrLeavesPackage) {
			return nil, merr("contributes.themes", "theme %q escapes the plugin root through a symlink: %v", pattern, err)
		}
		resolved, err := filepath.EvalSymlinks(m)
		if err != nil || !within(p.Root, resolved) {
			return nil, merr("contributes.themes", "theme %q escapes the plugin root through a symlink", pattern)
		}
		if err := p.checkTheme(pfs, resolved, pattern); err != nil {
			return nil, err
		}
		out = append(out, resolved)
	}
	if len(out) == 0 {
		p.Warnings = append(p.Warnings, fmt.Sprintf("theme glob %q matched no files", pattern))
	}
	slices.Sort(out)
	return out, nil
}

func (p *Package) checkTheme(pfs *PackageFS, abs, pattern string) error {
	fi, err := pfs.Stat(abs)
	if err != nil {
		return merr("contributes.themes", "theme %q is not readable: %v", pattern, err)
	}
	if !fi.Mode().IsRegular() {
		return merr("contributes.themes", "theme %q is not a regular file", pattern)
	}
	return nil
}

// HookCount is the number of hook entries over every event.
func (p *Package) HookCount() int {
	n := 0
	for _, hs := range p.Hooks {
		n += len(hs)
	}
	return n
}

// MCPServerNames are the package's MCP server names, sorted.
func (p *Package) MCPServerNames() []string {
	var m map[string]json.RawMessage
	if json.Unmarshal(p.MCPServers, &m) != nil {
		return nil
	}
	return slices.Sorted(maps.Keys(m))
}

// LoadPackages reads the contributions of every enabled plugin of layout's
// store, in name order. A plugin whose manifest cannot be read is left out
// and named in errs; the others load. A legacy manifest in the managed
// plugins folder is migrated first (see LoadInstalled).
func LoadPackages(layout Layout) (pkgs []Package, errs []error) {
	store, err := OpenStore(layout)
	if err != nil {
		return nil, []error{err}
	}
	for _, rec := range store.List() {
		if !rec.Enabled {
			continue
		}
		pkg, err := LoadInstalled(layout, rec)
		if err != nil {
			errs = append(errs, fmt.Errorf("plugin %s: %s", rec.Name, err))
			continue
		}
		pkgs = append(pkgs, pkg)
	}
	return pkgs, errs
}

// IncompatibleError says an installed plugin cannot load and what fixes it.
type IncompatibleError struct {
	Plugin string
	Err    error
	Fix    string
}

func (e *IncompatibleError) Error() string {
	return fmt.Sprintf("%s: %v; remediation: %s", StatusDisabledIncompatible, e.Err, e.Fix)
}

func (e *IncompatibleError) Unwrap() error { return e.Err }

// LoadInstalled loads an installed plugin's package. A manifest without
// apiVersion of an enabled plugin in the managed plugins folder (a real folder, not through a
// symlink) is rewritten to v2 first, keeping a .bak; anywhere else the
// plugin is disabled_incompatible, naming `plugin migrate <name> --to-v2`.
func LoadInstalled(layout Layout, rec Record) (Package, error) {
	pkg, err := LoadPackage(rec.Root)
	if err == nil || !IsLegacy(err) {
		if err != nil {
			return Package{}, &IncompatibleError{Plugin: rec.Name, Err: err, Fix: "repair or reinstall the plugin"}
		}
		return pkg, nil
	}
	if !rec.Enabled || !managedRoot(layout, rec.Root) {
		// A disabled plugin is migrated when it is enabled again, as the
		// real host only migrates the plugins it loads.
		return Package{}, &IncompatibleError{Plugin: rec.Name, Err: err,
			Fix: fmt.Sprintf("reasonix-desktop plugin migrate %s --to-v2", rec.Name)}
	}
	if _, merr := MigrateLegacy(rec.Root); merr != nil {
		return Package{}, &IncompatibleError{Plugin: rec.Name, Err: fmt.Errorf("automatic managed-plugin migration failed: %w", merr),
			Fix: fmt.Sprintf("reasonix-desktop plugin migrate %s --to-v2", rec.Name)}
	}
	return LoadPackage(rec.Root)
}

// managedRoot reports whether root is a real folder under the managed
// plugins folder, with no symlink on the way and a manifest that is not a
// symlink: the only place the host rewrites a manifest on its own.
func managedRoot(layout Layout, root string) bool {
	managed := filepath.Clean(layout.PluginsDir())
	r, err := filepath.Rel(managed, filepath.Clean(root))
	if err != nil || r == "." || !within(managed, filepath.Clean(root)) {
		return false
	}
	cur := managed
	for _, part := range strings.Split(r, string(filepath.Separator)) {
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if err != nil || fi.Mode()&fs.ModeSymlink != 0 {
			return false
		}
	}
	fi, err := os.Lstat(filepath.Join(root, ManifestFile))
	return err == nil && fi.Mode()&fs.ModeSymlink == 0
}

// CheckInstalled tells whether an installed plugin loads, without writing
// anything: "" when it does (or is a managed legacy manifest the next load
// migrates), else StatusDisabledIncompatible and why.
func CheckInstalled(layout Layout, rec Record) (status, reason string) {
	_, err := LoadPackage(rec.Root)
	switch {
	case err == nil, IsLegacy(err) && managedRoot(layout, rec.Root):
		return "", ""
	case IsLegacy(err):
		err = &IncompatibleError{Plugin: rec.Name, Err: err, Fix: fmt.Sprintf("reasonix-desktop plugin migrate %s --to-v2", rec.Name)}
	default:
		err = &IncompatibleError{Plugin: rec.Name, Err: err, Fix: "repair or reinstall the plugin"}
	}
	return StatusDisabledIncompatible, err.Error()
}
