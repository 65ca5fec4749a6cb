package plugin

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/reasonix/reasonix-desktop/protocol"
)

var (
	nameRE       = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9._-]{0,63}$`)
	providerIDRE = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9._-]{0,63}$`)
	actionIDRE   = regexp.MustCompile(`^[a-z0-9-]+$`)
)

// fixedSlots are the replacement slots without a parameter.
var fixedSlots = []string{
	"system_prompt", "context", "provider_request", "provider_response",
	"compaction", "session_policy", "permission", "frontend_events",
}

var knownCapabilities = []string{CapInterceptors, CapStrategies, CapProviders, CapUI, CapTools}

// ValidName reports whether s is a valid plugin name.
func ValidName(s string) bool { return nameRE.MatchString(s) }

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

func decodeManifest(doc any) (*Manifest, error) {
	// The apiVersion gates everything else: a document for another version
	// gets that error, not a list of unknown fields.
	if obj, ok := doc.(map[string]any); ok {
		av, present := obj["apiVersion"]
		if !present {
			return nil, merr("apiVersion", "required field is missing (want %q)", APIVersion)
		}
		s, ok := av.(string)
		if !ok {
			return nil, typeErr("apiVersion", "a string", av)
		}
		if s != APIVersion {
			return nil, merr("apiVersion", "unsupported apiVersion %q: want exactly %q", s, APIVersion)
		}
	}
	m := &Manifest{}
	str := func(dst *string) func(any, string) error {
		return func(v any, p string) (err error) { *dst, err = asString(v, p); return err }
	}
	raw := func(dst *[]byte) func(any, string) error {
		return func(v any, p string) error { *dst = rawJSON(v); return nil }
	}
	err := walkObject(doc, "", map[string]field{
		"apiVersion": {true, str(&m.APIVersion)},
		"name": {true, func(v any, p string) (err error) {
			if m.Name, err = asString(v, p); err != nil {
				return err
			}
			if !nameRE.MatchString(m.Name) {
				return merr(p, "%s is not a valid plugin name (want %s)", quote(m.Name), nameRE)
			}
			return nil
		}},
		"version":     {true, func(v any, p string) (err error) { m.Version, err = asNonEmpty(v, p); return err }},
		"description": {false, str(&m.Description)},
		"homepage":    {false, str(&m.Homepage)},
		"repository":  {false, str(&m.Repository)},
		"requires":    {false, func(v any, p string) (err error) { m.Requires, err = decodeRequires(v, p); return err }},
		"provides":    {false, func(v any, p string) (err error) { m.Provides, err = decodeProvides(v, p); return err }},
		"contributes": {false, func(v any, p string) error {
			if _, ok := v.(map[string]any); !ok {
				return typeErr(p, "an object", v)
			}
			m.Contributes = rawJSON(v)
			return nil
		}},
		"runtime":    {true, func(v any, p string) error { return decodeRuntime(v, p, &m.Runtime) }},
		"skills":     {false, raw((*[]byte)(&m.Skills))},
		"commands":   {false, raw((*[]byte)(&m.Commands))},
		"hooks":      {false, raw((*[]byte)(&m.Hooks))},
		"mcpServers": {false, raw((*[]byte)(&m.MCPServers))},
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

func decodeRequires(v any, path string) ([]protocol.RequirementWire, error) {
	arr, err := asArray(v, path)
	if err != nil {
		return nil, err
	}
	out := make([]protocol.RequirementWire, len(arr))
	for i, item := range arr {
		r := &out[i]
		nonEmpty := func(dst *string) field {
			return field{true, func(v any, p string) (err error) { *dst, err = asNonEmpty(v, p); return err }}
		}
		opt := func(dst *string) field {
			return field{false, func(v any, p string) (err error) { *dst, err = asString(v, p); return err }}
		}
		if err := walkObject(item, joinIndex(path, i), map[string]field{
			"kind":         nonEmpty(&r.Kind),
			"namespace":    nonEmpty(&r.Namespace),
			"id":           nonEmpty(&r.ID),
			"version":      opt(&r.Version),
			"versionRange": opt(&r.VersionRange),
			"schemaHash":   opt(&r.SchemaHash),
			"optional":     {false, func(v any, p string) (err error) { r.Optional, err = asBool(v, p); return err }},
		}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func decodeProvides(v any, path string) ([]protocol.CapabilityWire, error) {
	arr, err := asArray(v, path)
	if err != nil {
		return nil, err
	}
	out := make([]protocol.CapabilityWire, len(arr))
	for i, item := range arr {
		c := &out[i]
		if err := walkObject(item, joinIndex(path, i), map[string]field{
			"kind":       {true, func(v any, p string) (err error) { c.Kind, err = asNonEmpty(v, p); return err }},
			"namespace":  {false, func(v any, p string) (err error) { c.Namespace, err = asNonEmpty(v, p); return err }},
			"id":         {true, func(v any, p string) (err error) { c.ID, err = asNonEmpty(v, p); return err }},
			"version":    {false, func(v any, p string) (err error) { c.Version, err = asString(v, p); return err }},
			"schemaHash": {false, func(v any, p string) (err error) { c.SchemaHash, err = asString(v, p); return err }},
		}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func decodeRuntime(v any, path string, rt *Runtime) error {
	return walkObject(v, path, map[string]field{
		"command": {true, func(v any, p string) (err error) { rt.Command, err = asNonEmpty(v, p); return err }},
		"args":    {false, func(v any, p string) (err error) { rt.Args, err = asStringList(v, p); return err }},
		"env": {false, func(v any, p string) error {
			obj, ok := v.(map[string]any)
			if !ok {
				return typeErr(p, "an object of strings", v)
			}
			rt.Env = make(map[string]string, len(obj))
			for k, val := range obj {
				kp := joinKey(p, k)
				if k == "" || strings.ContainsAny(k, "=\x00") {
					return merr(kp, "invalid environment variable name")
				}
				s, err := asString(val, kp)
				if err != nil {
					return err
				}
				rt.Env[k] = s
			}
			return nil
		}},
		"required":      {false, func(v any, p string) (err error) { rt.Required, err = asBool(v, p); return err }},
		"priority":      {false, func(v any, p string) (err error) { rt.Priority, err = asInt(v, p, -1000, 1000); return err }},
		"timeoutMillis": {false, func(v any, p string) (err error) { rt.TimeoutMillis, err = asInt(v, p, 0, math.MaxInt32); return err }},
		"intercepts": {false, func(v any, p string) (err error) {
			rt.Intercepts, err = asUniqueList(v, p, func(s string) string {
				if !protocol.HookPoint(s).Valid() {
					return quote(s) + " is not a hook point"
				}
				return ""
			})
			return err
		}},
		"replaces": {false, func(v any, p string) (err error) {
			rt.Replaces, err = asUniqueList(v, p, slotError)
			return err
		}},
		"capabilities": {false, func(v any, p string) (err error) {
			rt.Capabilities, err = asUniqueList(v, p, func(s string) string {
				if !slices.Contains(knownCapabilities, s) {
					return "unknown capability " + quote(s) + " (want one of " + strings.Join(knownCapabilities, ", ") + ")"
				}
				return ""
			})
			return err
		}},
		"tools": {false, func(v any, p string) error {
			if _, err := asArray(v, p); err != nil {
				return err
			}
			rt.Tools = rawJSON(v)
			return nil
		}},
	})
}

// asUniqueList decodes a string array whose items pass check (which returns
// an error message or "") and are pairwise distinct.
func asUniqueList(v any, path string, check func(string) string) ([]string, error) {
	list, err := asStringList(v, path)
	if err != nil {
		return nil, err
	}
	for i, s := range list {
		if msg := check(s); msg != "" {
			return nil, merr(joinIndex(path, i), "%s", msg)
		}
		if slices.Contains(list[:i], s) {
			return nil, merr(joinIndex(path, i), "duplicate %s", quote(s))
		}
	}
	return list, nil
}

// validate runs the cross-field rules and fills defaults.
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
			if !providerIDRE.MatchString(c.ID) {
				return merr(p+".id", "%s is not a valid provider id (want %s)", quote(c.ID), providerIDRE)
			}
			if ref, prefix := c.Namespace+"/"+c.ID, "plugin/"+m.Name+"/"; !strings.HasPrefix(ref, prefix) {
				return merr(p+".namespace", "provider ref %s is outside %s: set \"namespace\": %s",
					quote(ref), prefix, strconvQuote("plugin/"+m.Name))
			}
			if providers[c.ID] {
				return merr(p+".id", "duplicate provider id %s", quote(c.ID))
			}
			providers[c.ID] = true
		case KindUIAction:
			if !m.HasCapability(CapUI) {
				return merr(p, "a UI action needs the %q capability in runtime.capabilities", CapUI)
			}
			if !actionIDRE.MatchString(c.ID) {
				return merr(p+".id", "%s is not a valid action id (want %s)", quote(c.ID), actionIDRE)
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
var schemaHashKinds = []string{"provider", "tool", "ui", "uiaction", "browser"}

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
		return merr(path+".schemaHash", "capability %s: schemaHash is required for kind %s", key, strconvQuote(c.Kind))
	}
	return nil
}

// semverRE is MAJOR[.MINOR[.PATCH]][-prerelease][+build] with an optional
// leading v: what the Reasonix loader accepts after adding the v.
var semverRE = regexp.MustCompile(`^v?(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*)){0,2}(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$`)

func validSemver(v string) bool { return semverRE.MatchString(strings.TrimSpace(v)) }

// quote renders a plugin-provided value in an error, bounded in length.
func quote(s string) string {
	const max = 80
	if len(s) > max {
		s = s[:max] + "…"
	}
	return strconvQuote(s)
}
