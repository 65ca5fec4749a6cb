package plugin

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/reasonix/reasonix-desktop/internal/foundation/textwidth"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// fixedSlots are the replacement slots without a parameter.
var fixedSlots = []string{
	"system_prompt", "context", "provider_request", "provider_response",
	"compaction", "session_policy", "permission", "frontend_events",
}

var knownCapabilities = []string{CapInterceptors, CapStrategies, CapProviders, CapUI, CapTools}

// ValidSlot reports whether s names a replacement slot: one of the fixed
// slots, tool:<name> or provider:<ref> with a non-empty parameter.
func ValidSlot(s string) bool { return slotError(s) == "" }

func slotError(s string) string {
	if slices.Contains(fixedSlots, s) {
		return ""
	}
	for _, prefix := range []string{"tool:", "provider:"} {
		if rest, ok := strings.CutPrefix(s, prefix); ok {
			if rest == "" || strings.IndexFunc(rest, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
				return "invalid slot " + quote(s) + ": " + prefix + " needs a non-empty " + strings.TrimSuffix(prefix, ":") + " name without spaces"
			}
			return ""
		}
	}
	return "unknown slot " + quote(s) + " (want one of " + strings.Join(fixedSlots, ", ") + ", tool:<name>, provider:<ref>)"
}

// checkFields applies the rules of single values the schema tags cannot
// state, in manifest order: names and patterns, blank strings, NUL
// characters, environment names, the lists of runtime and the JSON kind of
// the fields kept verbatim.
func (m *Manifest) checkFields() error {
	if !protocol.ValidPluginName(m.Name) {
		return merr("name", "%s is not a valid plugin name (want %s)", quote(m.Name), protocol.PluginNamePattern)
	}
	if strings.TrimSpace(m.Version) == "" {
		return merr("version", "must not be empty")
	}
	for i, r := range m.Requires {
		p := joinIndex("requires", i)
		for _, part := range []struct{ name, value string }{{"kind", r.Kind}, {"namespace", r.Namespace}, {"id", r.ID}} {
			if strings.TrimSpace(part.value) == "" {
				return merr(p+"."+part.name, "must not be empty")
			}
		}
	}
	if err := rawKind(m.Contributes, &map[string]json.RawMessage{}, "contributes"); err != nil {
		return err
	}
	rt := &m.Runtime
	if m.HasRuntime() && strings.TrimSpace(rt.Command) == "" {
		return merr("runtime.command", "must not be empty")
	}
	for _, k := range slices.Sorted(maps.Keys(rt.Env)) {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return merr(joinKey("runtime.env", k), "invalid environment variable name")
		}
	}
	if err := uniqueList(rt.Intercepts, "runtime.intercepts", func(s string) string {
		if !protocol.HookPoint(s).Valid() {
			return quote(s) + " is not a hook point"
		}
		return ""
	}); err != nil {
		return err
	}
	if err := uniqueList(rt.Replaces, "runtime.replaces", slotError); err != nil {
		return err
	}
	if err := uniqueList(rt.Capabilities, "runtime.capabilities", func(s string) string {
		if !slices.Contains(knownCapabilities, s) {
			return "unknown capability " + quote(s) + " (want one of " + strings.Join(knownCapabilities, ", ") + ")"
		}
		return ""
	}); err != nil {
		return err
	}
	if err := rawKind(rt.Tools, &[]json.RawMessage{}, "runtime.tools"); err != nil {
		return err
	}
	return m.checkNUL()
}

// checkNUL refuses NUL characters in the strings the host uses: a NUL
// cannot reach a process argument or environment and would cut what the
// UI shows.
func (m *Manifest) checkNUL() error {
	type field struct{ path, value string }
	fields := []field{
		{"version", m.Version}, {"description", m.Description}, {"homepage", m.Homepage},
		{"repository", m.Repository}, {"runtime.command", m.Runtime.Command},
	}
	for i, r := range m.Requires {
		p := joinIndex("requires", i)
		fields = append(fields, field{p + ".version", r.Version}, field{p + ".versionRange", r.VersionRange}, field{p + ".schemaHash", r.SchemaHash})
	}
	for i, c := range m.Provides {
		p := joinIndex("provides", i)
		fields = append(fields, field{p + ".version", c.Version}, field{p + ".schemaHash", c.SchemaHash})
	}
	for i, a := range m.Runtime.Args {
		fields = append(fields, field{joinIndex("runtime.args", i), a})
	}
	for _, k := range slices.Sorted(maps.Keys(m.Runtime.Env)) {
		fields = append(fields, field{joinKey("runtime.env", k), m.Runtime.Env[k]})
	}
	for _, f := range fields {
		if strings.IndexByte(f.value, 0) >= 0 {
			return merr(f.path, "must not contain NUL characters")
		}
	}
	return nil
}

// rawKind checks that a field kept verbatim, when present, is the JSON kind
// of into (a pointer to a map or a slice), with the strict decoder's words.
func rawKind(raw []byte, into any, path string) error {
	if len(raw) == 0 {
		return nil
	}
	if err := protocol.DecodeStrict(raw, into); err != nil {
		return manifestError(err, path)
	}
	return nil
}

// uniqueList checks that the items of list pass check (which returns an
// error message or "") and are pairwise distinct.
func uniqueList(list []string, path string, check func(string) string) error {
	for i, s := range list {
		if msg := check(s); msg != "" {
			return merr(joinIndex(path, i), "%s", msg)
		}
		if slices.Contains(list[:i], s) {
			return merr(joinIndex(path, i), "duplicate %s", quote(s))
		}
	}
	return nil
}

// validate runs the cross-field rules.
func (m *Manifest) validate() error {
	rt := &m.Runtime
	if len(rt.Intercepts) > 0 && !m.HasCapability(CapInterceptors) {
		return merr("runtime.intercepts", "needs the %q capability in runtime.capabilities", CapInterceptors)
	}
	if len(rt.Replaces) > 0 && !m.HasCapability(CapStrategies) {
		return merr("runtime.replaces", "needs the %q capability in runtime.capabilities", CapStrategies)
	}
	type key struct{ kind, ns, id string }
	seen := map[key]bool{}
	providers := map[string]bool{}
	actions := map[string]bool{}
	for i := range m.Provides {
		c := &m.Provides[i]
		p := joinIndex("provides", i)
		if err := validCapability(c, p); err != nil {
			return err
		}
		k := key{c.Kind, c.Namespace, c.ID}
		if seen[k] {
			return merr(p, "duplicate capability %s %s/%s", c.Kind, c.Namespace, c.ID)
		}
		seen[k] = true
		switch c.Kind {
		case KindProvider:
			if !m.HasCapability(CapProviders) {
				return merr(p, "a provider needs the %q capability in runtime.capabilities", CapProviders)
			}
			if !protocol.ValidProviderID(c.ID) {
				return merr(p+".id", "%s is not a valid provider id (want %s)", quote(c.ID), protocol.PluginNamePattern)
			}
			if providers[c.ID] {
				return merr(p+".id", "duplicate provider id %s", quote(c.ID))
			}
			providers[c.ID] = true
		case KindUIAction:
			if !m.HasCapability(CapUI) {
				return merr(p, "a UI action needs the %q capability in runtime.capabilities", CapUI)
			}
			if !protocol.ValidActionID(c.ID) {
				return merr(p+".id", "%s is not a valid action id (want %s)", quote(c.ID), protocol.ActionIDPattern)
			}
			if actions[c.ID] {
				return merr(p+".id", "duplicate action id %s", quote(c.ID))
			}
			actions[c.ID] = true
		}
	}
	return nil
}

// schemaHashKinds are the kinds whose provides entries need a schemaHash, as
// in the Reasonix package loader.
// (browser is not one of them: the Reasonix SDK declares it without.)
var schemaHashKinds = []string{"provider", "tool", "ui", "uiaction"}

// validCapability applies the Reasonix package loader's rules to one
// provides entry, so a manifest that loads here loads there: namespace, kind
// and id present and free of whitespace, a semantic version, and a
// schemaHash for the kinds that carry a schema. The loader fills in nothing.
func validCapability(c *protocol.CapabilityWire, path string) error {
	for _, part := range []struct{ name, value string }{{"namespace", c.Namespace}, {"kind", c.Kind}, {"id", c.ID}} {
		if strings.TrimSpace(part.value) == "" {
			return merr(path+"."+part.name, "capability %s is required", part.name)
		}
		if strings.IndexFunc(part.value, unicode.IsSpace) >= 0 {
			return merr(path+"."+part.name, "capability key parts must not contain whitespace")
		}
	}
	key := c.Namespace + "/" + c.Kind + "/" + c.ID
	if !validSemver(c.Version) {
		return merr(path+".version", "capability %s: invalid version %s (want a semantic version such as \"1.0.0\")", key, quote(c.Version))
	}
	if slices.Contains(schemaHashKinds, strings.ToLower(c.Kind)) && strings.TrimSpace(c.SchemaHash) == "" {
		return merr(path+".schemaHash", "capability %s: schemaHash is required for kind %s", key, strconv.Quote(c.Kind))
	}
	return nil
}

// semverRE is MAJOR[.MINOR[.PATCH]][-prerelease][+build] with an optional
// leading v: what the Reasonix loader accepts after adding the v.
var semverRE = regexp.MustCompile(`^v?(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*)){0,2}(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$`)

func validSemver(v string) bool { return semverRE.MatchString(strings.TrimSpace(v)) }

// quote renders a plugin-provided value in an error, bounded to 80
// columns: cut by display width between characters (a cut at a byte
// count split a Chinese character, which Quote then spelled as \xe4\xbd).
func quote(s string) string {
	return strconv.Quote(textwidth.Truncate(s, 80))
}

// joinKey appends a map key to a path as protocol's errors do (env["A B"]).
func joinKey(path, key string) string { return protocol.JoinPath(path, key) }

func joinIndex(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }
