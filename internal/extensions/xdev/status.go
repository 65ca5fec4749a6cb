package xdev

import (
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/extensions/gate"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

var _ gate.Reporter = (*Manager)(nil)

// ExtensionStatus describes every extension for the plugin manager: the
// loaded ones (Active, or Dead with why) with what they declared and their
// stderr tail, then those that never loaded (Failed) with why.
func (m *Manager) ExtensionStatus() []gate.Status {
	var out []gate.Status
	loaded := map[string]bool{}
	for _, e := range m.exts {
		loaded[e.name] = true
		st := gate.Status{Name: e.name, Path: e.path, State: "Active", Capabilities: m.capabilityList(e)}
		for _, r := range m.renderers {
			if r.Extension == e.name {
				st.Renderers = append(st.Renderers, gate.RendererRef{Name: redact.String(r.Name), Kind: r.Kind})
			}
		}
		if e.isDead() {
			st.State, st.Failure = "Dead", redact.String(e.deathReason())
		}
		st.StderrTail = strings.Join(e.child.Tail().Lines(stderrTailLines), "\n")
		out = append(out, st)
	}
	for _, f := range m.Failures() {
		if loaded[f.Extension] {
			continue // its death is already its Failure above
		}
		out = append(out, gate.Status{Name: f.Extension, Path: f.Path, State: "Failed", Failure: f.Reason})
	}
	return out
}

// capabilityList is the handshake's declaration as short phrases.
func (m *Manager) capabilityList(e *extension) []string {
	var out []string
	if len(e.caps.Events) > 0 {
		out = append(out, "events "+strings.Join(e.caps.Events, ", "))
	}
	for _, t := range e.caps.Tools {
		out = append(out, "tool ext_"+e.name+"_"+t.Name)
	}
	for _, c := range e.caps.Commands {
		out = append(out, "command /ext:"+c.Name)
	}
	for _, r := range m.renderers {
		if r.Extension == e.name {
			out = append(out, strings.TrimSpace("renderer "+r.Kind+" "+r.Name))
		}
	}
	if e.caps.FailOpen {
		out = append(out, "fail-open")
	}
	for i, s := range out {
		out[i] = redact.String(s)
	}
	return out
}
