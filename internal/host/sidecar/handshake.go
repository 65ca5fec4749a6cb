package sidecar

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/host/plugin"
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
	var version string
	if err := json.Unmarshal(probe.ProtocolVersion, &version); err != nil {
		return nil, protocol.Errorf(protocol.ReasonProtocolError, "initialize result: protocolVersion must be a string, got %s", probe.ProtocolVersion)
	}
	major, ok := parseMajor(version)
	if !ok {
		return nil, protocol.Errorf(protocol.ReasonProtocolError, "initialize result: protocolVersion %q is not an integer", version)
	}
	if major != protocol.ProtocolMajor {
		return nil, protocol.Errorf(protocol.ReasonUnsupportedVersion, "sidecar speaks protocol %d, the host speaks %d", major, protocol.ProtocolMajor)
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
	prefix := "plugin/" + m.Name + "/"
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

// parseMajor accepts "2" (and "2.x" for a forward-compatible minor).
func parseMajor(v string) (int, bool) {
	head, _, _ := strings.Cut(v, ".")
	var n int
	if _, err := fmt.Sscanf(head, "%d", &n); err != nil || fmt.Sprint(n) != head {
		return 0, false
	}
	return n, true
}
