package plugin

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/reasonix/reasonix-desktop/internal/redact"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// APIVersion is the only manifest apiVersion this host accepts.
const APIVersion = "reasonix.io/plugin/v2"

// Provides kinds with a meaning to the host; other kinds are carried through.
const (
	KindProvider = "provider"
	KindUIAction = "uiaction"
)

// Runtime capabilities a manifest may declare.
const (
	CapInterceptors = "interceptors"
	CapStrategies   = "strategies"
	CapProviders    = "providers"
	CapUI           = "ui"
	CapTools        = "tools"
)

// Manifest is a parsed, validated reasonix-plugin.json (apiVersion
// reasonix.io/plugin/v2). Marshalling it yields an equivalent manifest.
type Manifest struct {
	APIVersion  string                     `json:"apiVersion"`
	Name        string                     `json:"name"`
	Version     string                     `json:"version"`
	Description string                     `json:"description,omitempty"`
	Homepage    string                     `json:"homepage,omitempty"`
	Repository  string                     `json:"repository,omitempty"`
	Requires    []protocol.RequirementWire `json:"requires,omitempty"`
	// Provides are the provided capabilities, each with its namespace,
	// version and (for schema-carrying kinds) schemaHash: nothing is filled
	// in, as in the Reasonix package loader.
	Provides []protocol.CapabilityWire `json:"provides,omitempty"`
	// Contributes is kept verbatim (a JSON object); the desktop host does not use it.
	Contributes json.RawMessage `json:"contributes,omitempty"`
	Runtime     Runtime         `json:"runtime"`

	// Legacy root fields, accepted and reported by LegacyNotes.
	Skills     json.RawMessage `json:"skills,omitempty"`
	Commands   json.RawMessage `json:"commands,omitempty"`
	Hooks      json.RawMessage `json:"hooks,omitempty"`
	MCPServers json.RawMessage `json:"mcpServers,omitempty"`
}

// Runtime is the manifest's sidecar declaration.
type Runtime struct {
	Command       string            `json:"command"`
	Args          []string          `json:"args,omitempty"`
	Env           map[string]string `json:"env,omitempty"`
	Required      bool              `json:"required,omitempty"`
	Priority      int               `json:"priority,omitempty"`
	Intercepts    []string          `json:"intercepts,omitempty"`
	Replaces      []string          `json:"replaces,omitempty"`
	Capabilities  []string          `json:"capabilities,omitempty"`
	TimeoutMillis int               `json:"timeoutMillis,omitempty"`
	// Tools is kept verbatim (a JSON array).
	Tools json.RawMessage `json:"tools,omitempty"`
}

// ParseManifest strictly decodes and validates a manifest document. Errors
// are *ManifestError naming the full JSON path of the offending value.
func ParseManifest(data []byte) (*Manifest, error) {
	doc, err := parseDocument(data)
	if err != nil {
		return nil, err
	}
	m, err := decodeManifest(doc)
	if err != nil {
		return nil, err
	}
	if err := m.validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// LoadManifest reads and parses <root>/reasonix-plugin.json.
func LoadManifest(root string) (*Manifest, error) {
	_, m, err := readManifest(root)
	return m, err
}

// readManifest returns the manifest file bytes and the parsed manifest.
func readManifest(root string) ([]byte, *Manifest, error) {
	path := filepath.Join(root, ManifestFile)
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxManifestBytes+1))
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", path, err)
	}
	m, err := ParseManifest(data)
	if err != nil {
		var me *ManifestError
		if errors.As(err, &me) {
			c := *me
			c.File = path
			return nil, nil, &c
		}
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	registerEnv(m)
	return data, m, nil
}

// registerEnv hands the manifest's env values, as the sidecar will see
// them, to the redactor: whatever the plugin or its children print, those
// values are masked by value. Every manifest read passes here (install
// preview, doctor, start), so a value is known before anything the plugin
// says is shown.
func registerEnv(m *Manifest) {
	if len(m.Runtime.Env) == 0 {
		return
	}
	// Values reach the sidecar as written (no placeholder expansion, as in
	// the Reasonix host), so they are registered as written.
	redact.RegisterEnv(m.Runtime.Env)
}

// ManifestSHA256 is the hex SHA-256 of manifest file bytes, as recorded in
// plugin-packages.json.
func ManifestSHA256(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// LegacyNotes reports legacy root fields the desktop host ignores.
func (m *Manifest) LegacyNotes() []string {
	var notes []string
	for _, f := range []struct {
		name string
		raw  json.RawMessage
	}{{"skills", m.Skills}, {"commands", m.Commands}, {"hooks", m.Hooks}, {"mcpServers", m.MCPServers}} {
		if len(f.raw) > 0 {
			notes = append(notes, f.name+": not used by the desktop host")
		}
	}
	return notes
}

// ProviderRefs are the provider refs the sidecar may serve: <namespace>/<id>
// for every provides entry of kind provider, in manifest order (validation
// keeps them under plugin/<name>/).
func (m *Manifest) ProviderRefs() []string {
	var out []string
	for _, p := range m.Provides {
		if p.Kind == KindProvider {
			out = append(out, p.Namespace+"/"+p.ID)
		}
	}
	return out
}

// ActionIDs are the UI action ids (provides entries of kind uiaction).
func (m *Manifest) ActionIDs() []string {
	var out []string
	for _, p := range m.Provides {
		if p.Kind == KindUIAction {
			out = append(out, p.ID)
		}
	}
	return out
}

// PublicActionName is the user-facing name of an action: /<plugin>:<id>.
func (m *Manifest) PublicActionName(id string) string { return "/" + m.Name + ":" + id }

// Slots are the replacement strategy slots this plugin owns.
func (m *Manifest) Slots() []string { return slices.Clone(m.Runtime.Replaces) }

// IsRequired reports the required class: runtime.required or any owned slot.
func (m *Manifest) IsRequired() bool { return m.Runtime.Required || len(m.Runtime.Replaces) > 0 }

// HasCapability reports whether runtime.capabilities lists c.
func (m *Manifest) HasCapability(c string) bool { return slices.Contains(m.Runtime.Capabilities, c) }

// Expectation is the manifest expectation sent in extension/initialize.
func (m *Manifest) Expectation() protocol.ManifestExpectation {
	return protocol.ManifestExpectation{
		Intercepts:   slices.Clone(m.Runtime.Intercepts),
		Replaces:     slices.Clone(m.Runtime.Replaces),
		Providers:    m.ProviderRefs(),
		UIActions:    m.ActionIDs(),
		Capabilities: slices.Clone(m.Runtime.Capabilities),
		Provides:     slices.Clone(m.Provides),
		Requires:     slices.Clone(m.Requires),
	}
}
