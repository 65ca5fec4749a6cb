package plugin

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// TrustSentence is the warning every FULL TRUST block carries.
const TrustSentence = "This plugin runs outside any sandbox with your full environment: it can read and change your files, use your credentials and act as you."

// TrustBlock renders the FULL TRUST block shown by the install preview, the
// plugin details and diagnostics: the command line (after expanding
// ${REASONIX_PLUGIN_ROOT} to root), intercepted events, replacement slots,
// providers, UI actions, capabilities and the NAMES of the environment
// variables it sets (values are never shown). Every plugin-provided string
// goes through redact.String.
func (m *Manifest) TrustBlock(root string) string {
	var b strings.Builder
	line := func(label, value string) { fmt.Fprintf(&b, "  %-13s %s\n", label+":", value) }
	list := func(items []string) string {
		if len(items) == 0 {
			return "none"
		}
		out := make([]string, len(items))
		for i, s := range items {
			out[i] = redact.String(s)
		}
		return strings.Join(out, ", ")
	}

	b.WriteString("FULL TRUST\n")
	line("plugin", redact.String(m.Name)+" "+redact.String(m.Version))
	line("command", m.commandLine(root))
	line("intercepts", list(m.Runtime.Intercepts))
	line("replaces", list(m.Runtime.Replaces))
	line("providers", list(m.ProviderRefs()))
	actions := make([]string, 0)
	for _, id := range m.ActionIDs() {
		actions = append(actions, m.PublicActionName(id))
	}
	line("UI actions", list(actions))
	line("capabilities", list(m.Runtime.Capabilities))
	// An env key with an empty value declares a variable the plugin reads
	// and the user fills in (Settings → Providers and API keys); the others
	// are values the manifest sets. Only names are shown either way.
	var reads, sets []string
	for k, v := range m.Runtime.Env {
		if v == "" {
			reads = append(reads, k)
		} else {
			sets = append(sets, k)
		}
	}
	sort.Strings(reads)
	sort.Strings(sets)
	switch {
	case len(reads)+len(sets) == 0:
		line("env", "none")
	default:
		if len(reads) > 0 {
			line("env reads", list(reads)+" (you fill these in: Settings → Providers and API keys)")
		}
		if len(sets) > 0 {
			line("env sets", list(sets)+" (names only; values are not shown)")
		}
	}
	switch {
	case len(m.Runtime.Replaces) > 0:
		line("required", "yes (owns a replacement slot: its failures fail the operation)")
	case m.Runtime.Required:
		line("required", "yes (its failures fail the operation)")
	default:
		line("required", "no")
	}
	b.WriteString("  " + TrustSentence + "\n")
	return b.String()
}

// commandLine renders the expanded command and its arguments as the sidecar
// gets them, quoting where needed.
func (m *Manifest) commandLine(root string) string {
	parts := append([]string{ExpandCommand(m.Runtime.Command, root)}, m.Runtime.Args...)
	for i, p := range parts {
		p = redact.String(p)
		if p == "" || strings.ContainsAny(p, " \t\n\"'\\$`") || strconv.Quote(p) != `"`+p+`"` {
			p = strconv.Quote(p)
		}
		parts[i] = p
	}
	return strings.Join(parts, " ")
}

// CheckSlotOwners enforces one owner per replacement slot across ms. Each
// conflict names the slot and both plugins; all conflicts are joined.
func CheckSlotOwners(ms []*Manifest) error {
	sorted := make([]*Manifest, 0, len(ms))
	for _, m := range ms {
		if m != nil {
			sorted = append(sorted, m)
		}
	}
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	owner := map[string]string{}
	var errs []error
	for _, m := range sorted {
		for _, slot := range m.Runtime.Replaces {
			if prev, ok := owner[slot]; ok {
				errs = append(errs, fmt.Errorf("slot %q is claimed by both plugin %q and plugin %q (a slot has exactly one owner)", slot, prev, m.Name))
				continue
			}
			owner[slot] = m.Name
		}
	}
	return errors.Join(errs...)
}
