package plugin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/atomicfile"
	"github.com/reasonix/reasonix-desktop/internal/foundation/jsonerr"
	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Legacy manifests: a reasonix-plugin.json without apiVersion, the format
// from before v2. The real host reads it leniently (unknown fields ignored)
// only to migrate it: the v2 document keeps name, version (1.0.0 when
// empty), description, homepage and repository, and moves skills, commands,
// hooks and mcpServers under contributes. The old file is kept as
// reasonix-plugin.json.bak.

// legacyDoc is what the legacy reader takes from the old manifest.
type legacyDoc struct {
	Name        string                     `json:"name"`
	Version     string                     `json:"version"`
	Description string                     `json:"description"`
	Homepage    string                     `json:"homepage"`
	Repository  string                     `json:"repository"`
	Skills      json.RawMessage            `json:"skills"`
	Commands    json.RawMessage            `json:"commands"`
	Hooks       map[string][]Hook          `json:"hooks"`
	MCPServers  map[string]json.RawMessage `json:"mcpServers"`
}

// MigrateManifest turns a legacy manifest document into a v2 one, from the
// document alone (MigratePackage also takes what the package's files add).
func MigrateManifest(data []byte) ([]byte, error) {
	out, _, err := migrate(data, "")
	return out, err
}

// MigratePackage turns the legacy manifest data of the package at root
// into a v2 document as the real host migrates one: it reads the legacy
// package with its Claude conventions (a root CLAUDE.md as SessionStart
// context, hooks from .claude/settings.json and hooks/hooks.json, MCP
// servers from .mcp.json that do not start on their own) and writes them
// all into contributes, since a v2 manifest imports nothing implicitly.
// warnings name what of those files could not be mapped.
func MigratePackage(root string, data []byte) (out []byte, warnings []string, err error) {
	return migrate(data, root)
}

func migrate(data []byte, root string) ([]byte, []string, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var sniff struct {
		APIVersion json.RawMessage `json:"apiVersion"`
	}
	if err := jsonerr.Unmarshal(data, &sniff); err != nil {
		return nil, nil, fmt.Errorf("migrate: %s: invalid JSON: %w", ManifestFile, err)
	}
	if v := strings.TrimSpace(string(sniff.APIVersion)); v != "" && v != "null" {
		if v == `"`+APIVersion+`"` {
			return nil, nil, fmt.Errorf("migrate: %s: already uses %s; migration only supports pre-extension manifests without apiVersion", ManifestFile, APIVersion)
		}
		return nil, nil, fmt.Errorf("migrate: only pre-extension manifests without apiVersion can be migrated (got %s)", v)
	}
	var old legacyDoc
	if err := jsonerr.Unmarshal(data, &old); err != nil {
		return nil, nil, fmt.Errorf("migrate: %s: %w", ManifestFile, err)
	}
	name := strings.TrimSpace(old.Name)
	if name == "" {
		return nil, nil, errors.New("migrate: manifest name is required")
	}
	if !protocol.ValidPluginName(name) {
		return nil, nil, fmt.Errorf("migrate: invalid plugin name %q", name)
	}
	version := strings.TrimSpace(old.Version)
	if version == "" {
		version = "1.0.0"
	}
	// An ordered document: apiVersion, name, version first, as an author
	// would write it.
	type v2doc struct {
		APIVersion  string         `json:"apiVersion"`
		Name        string         `json:"name"`
		Version     string         `json:"version"`
		Description string         `json:"description,omitempty"`
		Homepage    string         `json:"homepage,omitempty"`
		Repository  string         `json:"repository,omitempty"`
		Contributes map[string]any `json:"contributes,omitempty"`
	}
	doc := v2doc{APIVersion: APIVersion, Name: name, Version: version,
		Description: strings.TrimSpace(old.Description), Homepage: strings.TrimSpace(old.Homepage),
		Repository: strings.TrimSpace(old.Repository), Contributes: map[string]any{}}
	for key, raw := range map[string]json.RawMessage{"skills": old.Skills, "commands": old.Commands} {
		ps, err := parseLenientPathList(raw, key)
		if err != nil {
			return nil, nil, fmt.Errorf("migrate: %w", err)
		}
		if len(ps) > 0 {
			doc.Contributes[key] = ps
		}
	}
	hooks := map[string][]Hook{}
	for event, hs := range old.Hooks {
		for _, h := range hs {
			if h, keep := normalizeHook(h); keep {
				hooks[strings.TrimSpace(event)] = append(hooks[strings.TrimSpace(event)], h)
			}
		}
	}
	var warnings []string
	servers := map[string]mcpspec.Server{}
	if root != "" {
		extra, w, err := legacySidecars(root, name)
		if err != nil {
			return nil, nil, fmt.Errorf("migrate: %w", err)
		}
		warnings = w
		for _, event := range slices.Sorted(maps.Keys(extra.Hooks)) {
			for _, h := range extra.Hooks[event] {
				if !slices.ContainsFunc(hooks[event], func(x Hook) bool { return hookEqual(x, h) }) {
					hooks[event] = append(hooks[event], h)
				}
			}
		}
		for _, id := range slices.Sorted(maps.Keys(extra.MCPServers)) {
			if _, dup := old.MCPServers[id]; dup {
				warnings = append(warnings, fmt.Sprintf("%s: MCP server %q maps to duplicate internal name %q", claudeMCPFile, id, id))
				continue
			}
			servers[id] = extra.MCPServers[id]
		}
	}
	if len(hooks) > 0 {
		doc.Contributes["hooks"] = hooks
	}
	if len(old.MCPServers) > 0 {
		// Read leniently, as the real host's legacy reader does: a member
		// the server shape does not know is dropped, never an error of the
		// migrated v2 document.
		for name, raw := range old.MCPServers {
			var s mcpspec.Server
			if err := json.Unmarshal(raw, &s); err != nil {
				return nil, nil, fmt.Errorf("migrate: mcpServers.%s: %w", name, err)
			}
			servers[name] = s
		}
	}
	if len(servers) > 0 {
		doc.Contributes["mcpServers"] = servers
	}
	if len(doc.Contributes) == 0 {
		doc.Contributes = nil
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	out = append(out, '\n')
	if _, err := ParseManifest(out); err != nil {
		return nil, nil, fmt.Errorf("migrate: the migrated manifest is not valid: %w", err)
	}
	return out, warnings, nil
}

// MigrateLegacy rewrites root's legacy reasonix-plugin.json to v2, keeping
// the old file as reasonix-plugin.json.bak. It returns the new document.
func MigrateLegacy(root string) ([]byte, error) {
	path := filepath.Join(root, ManifestFile)
	old, err := ReadPackageFile(root, ManifestFile, maxManifestBytes)
	if err != nil {
		return nil, err
	}
	data, _, err := MigratePackage(root, old)
	if err != nil {
		return nil, err
	}
	if err := atomicfile.Write(path+".bak", old, 0o644); err != nil {
		return nil, fmt.Errorf("migrate: backup: %w", err)
	}
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	return data, nil
}

// legacySidecars is what a legacy package's files add to its manifest, as
// the real host's legacy reader maps them: the Claude hook files, .mcp.json
// and a root CLAUDE.md read as SessionStart context.
func legacySidecars(root, name string) (*relPaths, []string, error) {
	pfs, err := OpenPackageFS(root)
	if err != nil {
		return nil, nil, err
	}
	defer pfs.Close()
	rel := &relPaths{}
	claudeInstructions(pfs, name, rel)
	var warnings []string
	for _, f := range claudeHookFiles {
		warnings = append(warnings, claudeHooks(pfs, f, rel)...)
	}
	warnings = append(warnings, claudeMCP(pfs, rel)...)
	return rel, warnings, nil
}
