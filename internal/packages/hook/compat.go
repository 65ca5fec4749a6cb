package hook

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/toolnames"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// plainMatcher is a matcher written as Claude's docs write them: a tool name
// or names joined by "|". Other regexps are not judged.
var plainMatcher = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*(\|[A-Za-z_][A-Za-z0-9_.]*)*$`)

// CompatWarnings are what a package's Claude-format hooks ask that this
// host cannot give, for its compatibility report (install preview,
// manifest, doctor) beside plugin.Package.Warnings: a matcher naming only
// Claude tools this host lacks never fires; one naming some of them fires
// only for the rest; a WebFetch hook gets no "prompt" (web_fetch takes
// only a URL). Reasonix-format hooks match our own names and are not
// judged.
func CompatWarnings(p plugin.Package) []string {
	var out []string
	events := make([]string, 0, len(p.Hooks))
	for e := range p.Hooks {
		events = append(events, e)
	}
	sort.Strings(events)
	webFetch := false
	for _, e := range events {
		if !usesToolMatcher(Event(e)) {
			continue
		}
		for _, h := range p.Hooks[e] {
			if h.PayloadFormat != FormatClaude {
				continue
			}
			m := strings.TrimSpace(h.Match)
			if m == "" || m == "*" {
				webFetch = true
				continue
			}
			if !plainMatcher.MatchString(m) {
				continue
			}
			var lacking []string
			for _, name := range strings.Split(m, "|") {
				if name == "WebFetch" {
					webFetch = true
				}
				if why, ok := toolnames.NoEquivalent(name); ok {
					lacking = append(lacking, why)
				}
			}
			what := fmt.Sprintf("%s hook %q (matcher %q)", e, h.Command, m)
			switch {
			case len(lacking) == 0:
			case len(lacking) == strings.Count(m, "|")+1:
				out = append(out, fmt.Sprintf("%s never fires here: %s", what, strings.Join(lacking, "; ")))
			default:
				out = append(out, fmt.Sprintf("%s fires only for the tools this host has: %s", what, strings.Join(lacking, "; ")))
			}
		}
	}
	if webFetch {
		out = append(out, `a Claude hook may see WebFetch calls: web_fetch here takes only a URL, so its tool_input has no "prompt"`)
	}
	return out
}
