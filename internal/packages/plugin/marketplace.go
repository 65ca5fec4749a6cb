package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/jsonerr"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Marketplace roots. A repository may hold several plugins and list them in
// .claude-plugin/marketplace.json (every plugin of anthropics/claude-code
// lives in ./plugins/<name> so), or, Codex's way, .agents/plugins/
// marketplace.json. Such a root is no package itself: Preview
// answers a *MarketplaceError listing its plugins, and installs the one
// InstallOptions.Plugin names. The fields read are Claude Code's: name,
// description, owner, metadata.pluginRoot, and per plugin name,
// description, version and source, where source is a folder of the
// marketplace ("./plugins/x", or "x" under metadata.pluginRoot) or an
// object: {"source": "github", "repo": "owner/repo"}, {"source": "url",
// "url": …} or {"source": "git-subdir", "url": …, "path": …}, each with an
// optional ref or sha. An npm or pip source is listed but not installable
// here (this host fetches no registry packages). An entry with strict false,
// or whose folder holds no manifest, is its plugin's manifest (name,
// version, description, skills, commands), as Claude Code reads it:
// anthropics/skills lists its plugins so, each "./" naming its skills.
// (The real Reasonix host reads no marketplace; these are Claude Code's
// rules.)

// MarketplaceFile is the listing's path in a marketplace root.
const MarketplaceFile = ".claude-plugin/marketplace.json"

// CodexMarketplaceFile is a Codex marketplace's listing: the same plugin
// entries ({"source": {"source": "local"|"url"|"git-subdir", …}}), with a
// policy the listing may mark a plugin not installable by.
const CodexMarketplaceFile = ".agents/plugins/marketplace.json"

// marketplaceFiles are the listings a marketplace root may hold, the first
// found read.
var marketplaceFiles = []string{MarketplaceFile, CodexMarketplaceFile}

// listingFile is the listing dir holds, or "".
func listingFile(pfs *PackageFS) string {
	for _, f := range marketplaceFiles {
		if fi, err := pfs.Stat(f); err == nil && fi.Mode().IsRegular() {
			return f
		}
	}
	return ""
}

// Marketplace is a marketplace root's listing.
type Marketplace struct {
	Name, Description string
	Root              string // the folder holding .claude-plugin/
	Plugins           []MarketplacePlugin
}

// MarketplacePlugin is one plugin a marketplace lists.
type MarketplacePlugin struct {
	Name, Description, Version string
	// Dir is the plugin's folder inside the marketplace root (a relative
	// source); Remote the repository it lives in otherwise.
	Dir    string
	Remote Source
	// Where is the source as the listing wrote it, for display.
	Where string
	// Unsupported says why this host cannot install it; "" when it can.
	Unsupported string
	// Manifest, for a plugin whose listing entry stands for its manifest
	// (strict false, or a folder without one), is the Claude plugin.json
	// the entry makes: what the preview reads and the install writes into
	// the copy.
	Manifest []byte
	entry    marketplaceEntry
}

// marketplaceDoc is marketplace.json, read leniently: the format has many
// fields this host does not use (owner, category, author, strict, …).
type marketplaceDoc struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Metadata    struct {
		Description string `json:"description"`
		PluginRoot  string `json:"pluginRoot"`
	} `json:"metadata"`
	Plugins []marketplaceEntry `json:"plugins"`
}

// marketplaceEntry is one listed plugin. strict false makes the entry the
// plugin's manifest (anthropics/skills lists its plugins so, each "./" with
// its skills); so does a folder that holds none.
type marketplaceEntry struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Version     string          `json:"version"`
	Source      json.RawMessage `json:"source"`
	Strict      *bool           `json:"strict"`
	Policy      struct {
		Installation string `json:"installation"`
	} `json:"policy"`
	Skills   json.RawMessage `json:"skills"`
	Commands json.RawMessage `json:"commands"`
}

type marketplaceSource struct {
	Source string `json:"source"`
	Repo   string `json:"repo"`
	URL    string `json:"url"`
	Path   string `json:"path"`
	Ref    string `json:"ref"`
	SHA    string `json:"sha"`
}

// IsMarketplace reports whether dir is a marketplace root: it holds the
// listing and no plugin manifest of any kind (a plugin that also lists
// itself in a marketplace is installed as the plugin).
func IsMarketplace(dir string) bool {
	pfs, err := OpenPackageFS(dir)
	if err != nil {
		return false
	}
	defer pfs.Close()
	if listingFile(pfs) == "" {
		return false
	}
	for _, k := range []string{PackageReasonix, PackageCodex, PackageClaude} {
		if _, err := pfs.Stat(ManifestPath(k)); err == nil {
			return false
		}
	}
	return true
}

// ReadMarketplace reads the listing of the marketplace root dir. Every file
// is read inside dir; a plugin folder that is missing or leads out of it is
// listed as unsupported, saying so.
func ReadMarketplace(dir string) (*Marketplace, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if abs, err = filepath.EvalSymlinks(abs); err != nil {
		return nil, err
	}
	pfs, err := OpenPackageFS(abs)
	if err != nil {
		return nil, err
	}
	defer pfs.Close()
	listing := listingFile(pfs)
	if listing == "" {
		return nil, fmt.Errorf("%s holds no marketplace listing (%s or %s)", abs, MarketplaceFile, CodexMarketplaceFile)
	}
	file := filepath.Join(abs, filepath.FromSlash(listing))
	data, err := pfs.ReadFile(listing, maxManifestBytes)
	if err != nil {
		return nil, fmt.Errorf("marketplace listing: %w", err)
	}
	var doc marketplaceDoc
	if err := jsonerr.Unmarshal(trimBOM(data), &doc); err != nil {
		return nil, &ManifestError{File: file, Msg: "invalid JSON: " + err.Error()}
	}
	m := &Marketplace{Name: strings.TrimSpace(doc.Name), Description: strings.TrimSpace(doc.Description), Root: abs}
	if m.Description == "" {
		m.Description = strings.TrimSpace(doc.Metadata.Description)
	}
	for i, p := range doc.Plugins {
		mp := MarketplacePlugin{Name: strings.TrimSpace(p.Name), Description: strings.TrimSpace(p.Description), Version: strings.TrimSpace(p.Version)}
		if mp.Name == "" {
			return nil, &ManifestError{File: file, Path: joinIndex("plugins", i) + ".name", Msg: "a listed plugin has no name"}
		}
		mp.entry = p
		mp.resolve(pfs, abs, doc.Metadata.PluginRoot, p.Source)
		if mp.Unsupported == "" && strings.EqualFold(strings.TrimSpace(p.Policy.Installation), "NOT_AVAILABLE") {
			mp.Dir, mp.Remote, mp.Manifest, mp.Unsupported = "", Source{}, nil, "the marketplace marks it not available for installation"
		}
		m.Plugins = append(m.Plugins, mp)
	}
	if len(m.Plugins) == 0 {
		return nil, &ManifestError{File: file, Path: "plugins", Msg: "the marketplace lists no plugins"}
	}
	return m, nil
}

// resolve reads one plugin's source.
func (mp *MarketplacePlugin) resolve(pfs *PackageFS, root, pluginRoot string, raw json.RawMessage) {
	var rel string
	if json.Unmarshal(raw, &rel) == nil {
		mp.Where = rel
		mp.local(pfs, root, pluginRoot, rel)
		return
	}
	var s marketplaceSource
	if err := json.Unmarshal(raw, &s); err != nil {
		mp.Where, mp.Unsupported = string(raw), "its source is neither a folder nor a source object"
		return
	}
	ref := s.Ref
	if s.SHA != "" {
		ref = s.SHA // the pinned commit wins over a moving ref
	}
	var u string
	switch s.Source {
	case "github":
		if !shorthandRE.MatchString(s.Repo) {
			mp.Where, mp.Unsupported = s.Repo, fmt.Sprintf("github source %q is not owner/repo", s.Repo)
			return
		}
		u = "https://github.com/" + strings.TrimSuffix(s.Repo, ".git")
	case "url", "git", "git-subdir":
		u = strings.TrimSpace(s.URL)
	case "", "local", "path":
		// {"source": "local", "path": "./plugins/x"}: a folder as an object.
		if strings.TrimSpace(s.Path) != "" {
			mp.Where = s.Path
			mp.local(pfs, root, pluginRoot, s.Path)
			return
		}
		fallthrough
	default:
		mp.Where, mp.Unsupported = s.Source, fmt.Sprintf("%s sources are not supported here (only folders and git repositories)", s.Source)
		return
	}
	src, err := ParseSource(canonicalSpec(u, ref, ""))
	if err == nil && s.Path != "" {
		src, err = src.WithSubdir(s.Path)
	}
	if err != nil || !src.IsGit() {
		mp.Where, mp.Unsupported = u, fmt.Sprintf("source %q is not a git repository URL", u)
		return
	}
	mp.Remote, mp.Where = src, src.Spec
}

// local resolves a folder source and, when the entry stands for the
// plugin's manifest, makes that manifest.
func (mp *MarketplacePlugin) local(pfs *PackageFS, root, pluginRoot, rel string) {
	var rdir string
	rdir, mp.Unsupported = localPlugin(pfs, root, pluginRoot, rel)
	if mp.Unsupported != "" {
		return
	}
	mp.Dir = filepath.Join(root, filepath.FromSlash(rdir))
	strictFalse := mp.entry.Strict != nil && !*mp.entry.Strict
	if rdir != "." && hasManifest(pfs, rdir) && !strictFalse {
		return
	}
	if !protocol.ValidPluginName(mp.Name) {
		mp.Dir, mp.Unsupported = "", fmt.Sprintf("its folder %q has no plugin manifest and its listed name %q is no plugin name", rel, mp.Name)
		return
	}
	// A Claude plugin.json of the entry's own fields: Claude Code reads
	// such a plugin from its listing (its plugin.json is optional there).
	doc := map[string]any{"name": mp.Name}
	if mp.Version != "" {
		doc["version"] = mp.Version
	}
	if mp.Description != "" {
		doc["description"] = mp.Description
	}
	if len(mp.entry.Skills) > 0 {
		doc["skills"] = mp.entry.Skills
	}
	if len(mp.entry.Commands) > 0 {
		doc["commands"] = mp.entry.Commands
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		mp.Dir, mp.Unsupported = "", err.Error()
		return
	}
	mp.Manifest = append(data, '\n')
}

// localPlugin resolves a folder source inside the marketplace root:
// "./plugins/x", or "x" under metadata.pluginRoot (Claude Code prepends it
// to relative sources; a source already under it is taken as written).
func localPlugin(pfs *PackageFS, root, pluginRoot, rel string) (clean, unsupported string) {
	var cands []string
	if pr := strings.TrimSpace(pluginRoot); pr != "" {
		cands = append(cands, path.Join(strings.ReplaceAll(pr, `\`, "/"), rel))
	}
	cands = append(cands, rel)
	why := ""
	for _, c := range cands {
		clean, err := cleanPath(c, "source")
		if err != nil {
			return "", fmt.Sprintf("its folder %q is outside the marketplace", rel)
		}
		fi, err := pfs.Stat(clean)
		switch {
		case errors.Is(err, ErrLeavesPackage):
			return "", fmt.Sprintf("its folder %q leads out of the marketplace", rel)
		case errors.Is(err, fs.ErrNotExist):
			why = fmt.Sprintf("its folder %q does not exist", rel)
			continue
		case err != nil:
			return "", fmt.Sprintf("its folder %q cannot be read: %v", rel, err)
		case !fi.IsDir():
			return "", fmt.Sprintf("%q is not a folder", rel)
		}
		return clean, ""
	}
	return "", why
}

// hasManifest reports whether the package folder dir (relative to pfs)
// holds a manifest of any kind.
func hasManifest(pfs *PackageFS, dir string) bool {
	for _, k := range []string{PackageReasonix, PackageCodex, PackageClaude} {
		if fi, err := pfs.Stat(path.Join(dir, ManifestPath(k))); err == nil && fi.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// Plugin finds a listed plugin by name: exactly, else ignoring case.
func (m *Marketplace) Plugin(name string) (MarketplacePlugin, error) {
	name = strings.TrimSpace(name)
	for _, p := range m.Plugins {
		if p.Name == name {
			return p, nil
		}
	}
	for _, p := range m.Plugins {
		if strings.EqualFold(p.Name, name) {
			return p, nil
		}
	}
	return MarketplacePlugin{}, fmt.Errorf("marketplace %s lists no plugin %q; it lists %s", m.label(), name, strings.Join(m.Names(), ", "))
}

// Names are the listed plugins' names, in listing order.
func (m *Marketplace) Names() []string {
	out := make([]string, len(m.Plugins))
	for i, p := range m.Plugins {
		out[i] = p.Name
	}
	return out
}

func (m *Marketplace) label() string {
	if m.Name != "" {
		return redact.String(m.Name)
	}
	return m.Root
}

// Text lists the marketplace for a preview: one line per plugin, with its
// description and, when it cannot be installed here, why.
func (m *Marketplace) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Marketplace %s: %d plugins\n", m.label(), len(m.Plugins))
	if m.Description != "" {
		fmt.Fprintf(&b, "  %s\n", redact.String(m.Description))
	}
	for _, p := range m.Plugins {
		line := "  " + redact.String(p.Name)
		if p.Version != "" {
			line += " " + redact.String(p.Version)
		}
		if p.Description != "" {
			line += " — " + redact.String(p.Description)
		}
		if p.Remote.IsGit() {
			line += " (from " + redact.String(p.Remote.Spec) + ")"
		}
		if p.Unsupported != "" {
			line += " [cannot be installed: " + redact.String(p.Unsupported) + "]"
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// MarketplaceError is Preview's answer for a marketplace root when no plugin
// is chosen (InstallOptions.Plugin): the listing, for the front end to let
// the user pick.
type MarketplaceError struct {
	Marketplace *Marketplace
}

func (e *MarketplaceError) Error() string {
	return fmt.Sprintf("%s is a marketplace listing %d plugins (%s): choose which to install (--plugin NAME)",
		e.Marketplace.Root, len(e.Marketplace.Plugins), strings.Join(e.Marketplace.Names(), ", "))
}

// RemotePluginError is Preview's answer for a chosen marketplace plugin that
// lives in another repository: install Source (it is cloned as any
// repository source is).
type RemotePluginError struct {
	Plugin string
	Source Source
}

func (e *RemotePluginError) Error() string {
	return fmt.Sprintf("plugin %s of this marketplace lives in %s: install from that source", e.Plugin, redact.String(e.Source.Spec))
}

// marketplacePick turns a marketplace root and a chosen plugin into the
// folder to install and the origin to record: the plugin's subfolder of
// the repository the marketplace was cloned from (origin, a source spec),
// or its folder when the marketplace is a local folder.
//
// A plugin whose listing entry is its manifest (MarketplacePlugin.Manifest)
// records the marketplace instead (its folder alone holds no manifest to
// install again): the repository's spec with plugin=<name>, or the
// marketplace folder, which an update previews with the plugin's name.
func marketplacePick(root, name, origin string) (p MarketplacePlugin, m *Marketplace, newOrigin string, err error) {
	if m, err = ReadMarketplace(root); err != nil {
		return p, nil, "", err
	}
	if p, err = m.Plugin(name); err != nil {
		return p, nil, "", err
	}
	if p.Unsupported != "" {
		return p, nil, "", fmt.Errorf("plugin %s of marketplace %s cannot be installed: %s", redact.String(p.Name), m.label(), p.Unsupported)
	}
	if p.Remote.IsGit() {
		return p, nil, "", &RemotePluginError{Plugin: p.Name, Source: p.Remote}
	}
	base, berr := ParseSource(origin)
	git := origin != "" && berr == nil && base.IsGit()
	if p.Manifest != nil {
		if !git {
			// The marketplace folder: an update previews it again with
			// the plugin's name (InstallOptions.Name picks it).
			return p, m, m.Root, nil
		}
		return p, m, base.WithPlugin(p.Name).Spec, nil
	}
	if !git {
		return p, m, origin, nil
	}
	rel, err := filepath.Rel(m.Root, p.Dir)
	if err != nil {
		return p, nil, "", err
	}
	sub, err := base.WithSubdir(filepath.ToSlash(rel))
	if err != nil {
		return p, nil, "", err
	}
	return p, m, sub.Spec, nil
}
