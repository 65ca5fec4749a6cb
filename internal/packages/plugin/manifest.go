package plugin

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/jsonerr"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
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
	Version     string                     `json:"version" schema:"minLength=1"`
	Description string                     `json:"description,omitempty"`
	Homepage    string                     `json:"homepage,omitempty"`
	Repository  string                     `json:"repository,omitempty"`
	Requires    []protocol.RequirementWire `json:"requires,omitempty"`
	// Provides are the provided capabilities, each with its namespace,
	// version and (for schema-carrying kinds) schemaHash: nothing is filled
	// in, as in the Reasonix package loader.
	Provides []protocol.CapabilityWire `json:"provides,omitempty"`
	// Contributes is kept verbatim (a JSON object); the package loader
	// (LoadPackage) decodes it strictly into a Package.
	Contributes json.RawMessage `json:"contributes,omitempty"`
	// Runtime is optional: most packages contribute skills, commands, hooks
	// or MCP servers and run no sidecar. HasRuntime tells.
	Runtime Runtime `json:"runtime,omitempty,omitzero"`

	// Legacy root fields, merged with contributes by the package loader.
	Skills     json.RawMessage `json:"skills,omitempty"`
	Commands   json.RawMessage `json:"commands,omitempty"`
	Hooks      json.RawMessage `json:"hooks,omitempty"`
	MCPServers json.RawMessage `json:"mcpServers,omitempty"`
}

// Runtime is the manifest's sidecar declaration.
type Runtime struct {
	Command       string            `json:"command" schema:"minLength=1"`
	Args          []string          `json:"args,omitempty"`
	Env           map[string]string `json:"env,omitempty"`
	Required      bool              `json:"required,omitempty"`
	Priority      int               `json:"priority,omitempty" schema:"minimum=-1000,maximum=1000"`
	Intercepts    []string          `json:"intercepts,omitempty"`
	Replaces      []string          `json:"replaces,omitempty"`
	Capabilities  []string          `json:"capabilities,omitempty"`
	TimeoutMillis int               `json:"timeoutMillis,omitempty" schema:"minimum=0,maximum=2147483647"`
	// Tools is kept verbatim (a JSON array).
	Tools json.RawMessage `json:"tools,omitempty"`
}

// ManifestFile is the manifest's file name inside a plugin root.
const ManifestFile = "reasonix-plugin.json"

// maxManifestBytes caps the manifest size; a manifest is a small declaration.
const maxManifestBytes = 1 << 20

// ManifestError says where a manifest is wrong. Path is the JSON path of the
// offending value ("runtime.intercepts[2]", "provides[1].kind"); empty means
// the document itself. File, when set by LoadManifest, is the manifest's full
// path; otherwise the error names reasonix-plugin.json.
type ManifestError struct {
	File string
	Path string
	Msg  string
	// Legacy marks a manifest without apiVersion (a pre-v2 Reasonix
	// manifest): migrated in the managed plugins folder, otherwise the
	// plugin is disabled_incompatible until `plugin migrate <name> --to-v2`.
	Legacy bool
}

// IsLegacy reports whether err says a manifest has no apiVersion.
func IsLegacy(err error) bool {
	var me *ManifestError
	return errors.As(err, &me) && me.Legacy
}

func (e *ManifestError) Error() string {
	file := e.File
	if file == "" {
		file = ManifestFile
	}
	if e.Path == "" {
		return file + ": " + e.Msg
	}
	return file + ": " + e.Path + ": " + e.Msg
}

func merr(path, format string, args ...any) error {
	return &ManifestError{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// ParseManifest strictly decodes and validates a manifest document. Errors
// are *ManifestError naming the full JSON path of the offending value.
//
// The document goes through protocol.DecodeStrict, the one strict decoder:
// invalid JSON, trailing data and a member name repeated anywhere fail
// first, then the apiVersion (a document for another version gets that
// error, not a list of unknown fields), then the schema of Manifest (its
// tags: unknown fields, types, required fields, bounds), then the rules of
// single values and the cross-field rules.
func ParseManifest(data []byte) (*Manifest, error) {
	if len(data) > maxManifestBytes {
		return nil, merr("", "manifest is larger than %d bytes", maxManifestBytes)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // tolerate a UTF-8 BOM
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, merr("", "empty document")
	}
	var members map[string]json.RawMessage
	if err := protocol.DecodeStrict(data, &members); err != nil {
		return nil, syntaxPlaced(data, manifestError(err, ""))
	}
	if members != nil {
		if err := checkAPIVersion(members); err != nil {
			return nil, err
		}
	}
	m := &Manifest{}
	if err := protocol.DecodeStrict(data, m); err != nil {
		return nil, manifestError(err, "")
	}
	m.tidyRaw()
	if err := m.checkFields(); err != nil {
		return nil, err
	}
	if err := m.validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// checkAPIVersion gates the document on its apiVersion member.
func checkAPIVersion(members map[string]json.RawMessage) error {
	raw, present := members["apiVersion"]
	if !present || string(bytes.TrimSpace(raw)) == "null" {
		return &ManifestError{Path: "apiVersion", Msg: "missing apiVersion; native manifests must declare " + APIVersion, Legacy: true}
	}
	var s string
	if err := protocol.DecodeStrict(raw, &s); err != nil {
		return manifestError(err, "apiVersion")
	}
	if s != APIVersion {
		return merr("apiVersion", "unsupported apiVersion %q: want exactly %q", s, APIVersion)
	}
	return nil
}

// manifestError turns a strict-decode error at path into a *ManifestError.
func manifestError(err error, path string) error {
	var de *protocol.DecodeError
	if !errors.As(err, &de) {
		return &ManifestError{Path: path, Msg: err.Error()}
	}
	switch {
	case path == "":
		path = de.Path
	case strings.HasPrefix(de.Path, "["):
		path += de.Path
	case de.Path != "":
		path += "." + de.Path
	}
	return &ManifestError{Path: path, Msg: de.Msg}
}

// syntaxPlaced places the error of a manifest that is not valid JSON: the
// line, the column and the character that broke it (the strict decoder
// names the byte: 'ä' for "你"); any other error is returned as is.
func syntaxPlaced(data []byte, err error) error {
	var me *ManifestError
	if !errors.As(err, &me) || json.Valid(data) {
		return err
	}
	var je *jsonerr.Error
	switch {
	case !errors.As(jsonerr.Explain(data, err), &je):
	case strings.HasPrefix(me.Msg, "invalid JSON"):
		me.Msg = "invalid JSON: " + je.Error()
	default: // trailing data: the decoder's words, placed
		me.Msg = fmt.Sprintf("line %d, column %d: %s", je.Line, je.Column, me.Msg)
	}
	return err
}

// tidyRaw stores the verbatim fields compact, and forgets those given as
// null: an explicit null is the field's absence, as for every other
// optional field.
func (m *Manifest) tidyRaw() {
	for _, raw := range []*json.RawMessage{&m.Contributes, &m.Runtime.Tools, &m.Skills, &m.Commands, &m.Hooks, &m.MCPServers} {
		var buf bytes.Buffer
		if json.Compact(&buf, *raw) == nil {
			*raw = buf.Bytes()
		}
		if string(*raw) == "null" || len(*raw) == 0 {
			*raw = nil
		}
	}
}

// LoadManifest reads and parses <root>/reasonix-plugin.json.
func LoadManifest(root string) (*Manifest, error) {
	_, m, err := readManifest(root)
	return m, err
}

// readManifest returns the manifest file bytes and the parsed manifest.
func readManifest(root string) ([]byte, *Manifest, error) {
	path := filepath.Join(root, ManifestFile)
	// Opened inside the package: a manifest that is a link leaving it is refused.
	data, err := ReadPackageFile(root, ManifestFile, maxManifestBytes+1)
	if err != nil {
		return nil, nil, err
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

// LegacyNotes reports the legacy root fields in use: they are merged with
// contributes (an identical entry once, a different one is an error), and
// a v2 author may want to move them under contributes.
func (m *Manifest) LegacyNotes() []string {
	var notes []string
	for _, f := range []struct {
		name string
		raw  json.RawMessage
	}{{"skills", m.Skills}, {"commands", m.Commands}, {"hooks", m.Hooks}, {"mcpServers", m.MCPServers}} {
		if len(f.raw) > 0 {
			notes = append(notes, f.name+": top-level (legacy) key, merged with contributes."+f.name)
		}
	}
	return notes
}

// HasRuntime reports whether the manifest declares a runtime sidecar.
func (m *Manifest) HasRuntime() bool { return m.Runtime.Command != "" }

// ProviderRefs are the provider refs the sidecar may serve: <namespace>/<id>
// for every provides entry of kind provider, in manifest order. The
// manifest may name any namespace (as the Reasonix loader accepts); the
// handshake checks the refs the sidecar serves.
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
