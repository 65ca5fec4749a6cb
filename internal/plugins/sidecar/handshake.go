package sidecar

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// CheckDeclaration decodes an initialize result and checks it against the
// manifest in the documented order: protocol version, subscriptions,
// replaces, providers, UI actions, provides. Anything beyond the manifest
// fails with capability_not_declared.
func CheckDeclaration(raw json.RawMessage, m *plugin.Manifest) (*protocol.InitializeResult, error) {
	// The version is checked before the strict decode so a v3 sidecar gets
	// unsupported_version, not a complaint about fields it may add.
	var probe struct {
		ProtocolVersion json.RawMessage `json:"protocolVersion"`
	}
	if err := json.Unmarshal(raw, &probe); err != nil {
		return nil, protocol.Errorf(protocol.ReasonProtocolError, "initialize result is not a JSON object: %v", err)
	}
	if err := checkVersion(probe.ProtocolVersion); err != nil {
		return nil, err
	}
	if string(probe.ProtocolVersion) == "2" {
		// The integer form: the DTO carries the version as a string.
		raw = withStringVersion(raw)
	}
	var decl protocol.InitializeResult
	if err := protocol.DecodeStrict(raw, &decl); err != nil {
		return nil, protocol.Errorf(protocol.ReasonProtocolError, "initialize result: %v", err)
	}
	exp := m.Expectation()
	undeclared := func(format string, args ...any) error {
		return protocol.Errorf(protocol.ReasonCapabilityNotDeclared, format, args...)
	}
	for _, s := range decl.Subscriptions {
		if !slices.Contains(exp.Intercepts, s) {
			return nil, undeclared("subscription %q is not in the manifest's runtime.intercepts", s)
		}
	}
	for _, s := range decl.Replaces {
		if !slices.Contains(exp.Replaces, s) {
			return nil, undeclared("replacement slot %q is not in the manifest's runtime.replaces", s)
		}
	}
	if len(decl.Providers) > 0 && !m.HasCapability(plugin.CapProviders) {
		return nil, undeclared("providers declared without the manifest capability %q", plugin.CapProviders)
	}
	prefix := protocol.ProviderRefPrefix(m.Name)
	for _, p := range decl.Providers {
		if !strings.HasPrefix(p.Ref, prefix) {
			return nil, undeclared("provider ref %q is outside %s", p.Ref, prefix)
		}
		if !slices.Contains(exp.Providers, p.Ref) {
			// The seed is stricter than the Reasonix host (which checks only
			// the prefix): say exactly which entry would declare it.
			ns, id := splitRef(p.Ref)
			return nil, undeclared("provider %q is not in the manifest's provides: add "+
				`{"kind": "provider", "namespace": %q, "id": %q, "version": "1.0.0", "schemaHash": "sha256:…"}`, p.Ref, ns, id)
		}
	}
	if len(decl.UIActions) > 0 && !m.HasCapability(plugin.CapUI) {
		return nil, undeclared("UI actions declared without the manifest capability %q", plugin.CapUI)
	}
	for _, a := range decl.UIActions {
		if !slices.Contains(exp.UIActions, a.ActionID) {
			return nil, undeclared("UI action %q is not in the manifest's provides: add "+
				`{"kind": "uiaction", "namespace": %q, "id": %q, "version": "1.0.0", "schemaHash": "sha256:…"}`,
				a.ActionID, "plugin/"+m.Name, a.ActionID)
		}
	}
	for _, p := range decl.Provides {
		if !containsCapability(exp.Provides, p) {
			return nil, undeclared("provided capability %s/%s/%s is not in the manifest", p.Kind, p.Namespace, p.ID)
		}
	}
	return &decl, nil
}

// splitRef splits a provider ref at its last slash into the namespace and id
// of the provides entry that declares it.
func splitRef(ref string) (namespace, id string) {
	i := strings.LastIndex(ref, "/")
	if i < 0 {
		return "", ref
	}
	return ref[:i], ref[i+1:]
}

func containsCapability(list []protocol.CapabilityWire, c protocol.CapabilityWire) bool {
	for _, x := range list {
		if x.Kind == c.Kind && x.Namespace == c.Namespace && x.ID == c.ID {
			return true
		}
	}
	return false
}

// checkVersion accepts exactly the JSON string "2" or the integer 2. An
// integer of another major (3, "3") is unsupported_version; anything else
// ("2.0", "02", 2.0, true) is a protocol error: no two peers can read it
// the same way.
func checkVersion(raw json.RawMessage) error {
	v := string(raw)
	if v == `"2"` || v == "2" {
		return nil
	}
	digits := strings.Trim(v, `"`)
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' && len(digits) == len(v)-2 || v == digits {
		if n, err := strconv.Atoi(digits); err == nil && n >= 0 && strconv.Itoa(n) == digits {
			return protocol.Errorf(protocol.ReasonUnsupportedVersion,
				"sidecar speaks protocol %d, the host speaks %d", n, protocol.ProtocolMajor)
		}
	}
	if len(v) > 40 {
		v = v[:40] + "…"
	}
	return protocol.Errorf(protocol.ReasonProtocolError,
		`initialize result: protocolVersion must be the string "2" or the integer 2, got %s`, v)
}

// withStringVersion rewrites a top-level protocolVersion 2 as "2". The frame
// was checked for repeated member names already, so a map loses nothing.
func withStringVersion(raw json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw
	}
	m["protocolVersion"] = json.RawMessage(`"2"`)
	out, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return out
}
