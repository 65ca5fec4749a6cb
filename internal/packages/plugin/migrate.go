package plugin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/atomicfile"
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

// MigrateManifest turns a legacy manifest document into a v2 one.
func MigrateManifest(data []byte) ([]byte, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var sniff struct {
		APIVersion json.RawMessage `json:"apiVersion"`
	}
	if err := json.Unmarshal(data, &sniff); err != nil {
		return nil, fmt.Errorf("migrate: %s: invalid JSON: %w", ManifestFile, err)
	}
	if v := strings.TrimSpace(string(sniff.APIVersion)); v != "" && v != "null" {
		if v == `"`+APIVersion+`"` {
			return nil, fmt.Errorf("migrate: %s: already uses %s; migration only supports pre-extension manifests without apiVersion", ManifestFile, APIVersion)
		}
		return nil, fmt.Errorf("migrate: only pre-extension manifests without apiVersion can be migrated (got %s)", v)
	}
	var old legacyDoc
	if err := json.Unmarshal(data, &old); err != nil {
		return nil, fmt.Errorf("migrate: %s: %w", ManifestFile, err)
	}
	name := strings.TrimSpace(old.Name)
	if name == "" {
		return nil, errors.New("migrate: manifest name is required")
	}
	if !protocol.ValidPluginName(name) {
		return nil, fmt.Errorf("migrate: invalid plugin name %q", name)
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
			return nil, fmt.Errorf("migrate: %w", err)
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
	if len(hooks) > 0 {
		doc.Contributes["hooks"] = hooks
	}
	if len(old.MCPServers) > 0 {
		// Read leniently, as the real host's legacy reader does: a member
		// the server shape does not know is dropped, never an error of the
		// migrated v2 document.
		servers := map[string]mcpspec.Server{}
		for name, raw := range old.MCPServers {
			var s mcpspec.Server
			if err := json.Unmarshal(raw, &s); err != nil {
				return nil, fmt.Errorf("migrate: mcpServers.%s: %w", name, err)
			}
			servers[name] = s
		}
		doc.Contributes["mcpServers"] = servers
	}
	if len(doc.Contributes) == 0 {
		doc.Contributes = nil
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	out = append(out, '\n')
	if _, err := ParseManifest(out); err != nil {
		return nil, fmt.Errorf("migrate: the migrated manifest is not valid: %w", err)
	}
	return out, nil
}

// MigrateLegacy rewrites root's legacy reasonix-plugin.json to v2, keeping
// the old file as reasonix-plugin.json.bak. It returns the new document.
func MigrateLegacy(root string) ([]byte, error) {
	path := filepath.Join(root, ManifestFile)
	old, err := ReadPackageFile(root, ManifestFile, maxManifestBytes)
	if err != nil {
		return nil, err
	}
	data, err := MigrateManifest(old)
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
