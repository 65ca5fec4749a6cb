package mcp

import (
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
)

// Which entry of a name runs: the user's over any package's, the first
// package's over a later one's (silently when the entries are the same),
// each entry left out a warning in the real host's words, and the set
// sorted by name.
func TestMergePrecedence(t *testing.T) {
	srv := func(name, cmd, source string) Server {
		return Server{Name: name, Server: mcpspec.Server{Command: cmd}, Source: source}
	}
	for _, tc := range []struct {
		name     string
		user     []Server
		packages [][]Server
		want     []string // name=command of each server, in order
		warnings []string
	}{
		{name: "nothing", want: nil},
		{name: "user only", user: []Server{srv("b", "mine-b", "settings"), srv("a", "mine-a", "settings")},
			want: []string{"a=mine-a", "b=mine-b"}},
		{name: "packages only, sorted", packages: [][]Server{{srv("z", "kit-z", "plugin kit")}, {srv("m", "web-m", "plugin web")}},
			want: []string{"m=web-m", "z=kit-z"}},
		{name: "the user's entry wins over a package's", user: []Server{srv("a", "mine", "settings")},
			packages: [][]Server{{srv("a", "kit", "plugin kit"), srv("b", "kit", "plugin kit")}},
			want:     []string{"a=mine", "b=kit"},
			warnings: []string{`kit: plugin MCP server "a" skipped because config already defines that name`}},
		{name: "the first package wins a clash",
			packages: [][]Server{{srv("a", "kit", "plugin kit")}, {srv("a", "web", "plugin web"), srv("c", "web", "plugin web")}},
			want:     []string{"a=kit", "c=web"},
			warnings: []string{`web: plugin MCP server "a" conflicts with package kit and was skipped`}},
		{name: "the same entry in two packages is no clash",
			packages: [][]Server{{srv("a", "same", "plugin kit")}, {srv("a", "same", "plugin web")}},
			want:     []string{"a=same"}},
		{name: "the user's entry wins even over clashing packages", user: []Server{srv("a", "mine", "settings")},
			packages: [][]Server{{srv("a", "kit", "plugin kit")}, {srv("a", "web", "plugin web")}},
			want:     []string{"a=mine"},
			warnings: []string{`kit: plugin MCP server "a" skipped because config already defines that name`,
				`web: plugin MCP server "a" skipped because config already defines that name`}},
		{name: "every clash is said",
			packages: [][]Server{{srv("a", "p", "plugin p"), srv("b", "p", "plugin p")}, {srv("a", "q", "plugin q")}, {srv("b", "r", "plugin r")}},
			want:     []string{"a=p", "b=p"},
			warnings: []string{`q: plugin MCP server "a" conflicts with package p and was skipped`,
				`r: plugin MCP server "b" conflicts with package p and was skipped`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, warnings := Merge(tc.user, tc.packages...)
			if strings.Join(warnings, "\n") != strings.Join(tc.warnings, "\n") {
				t.Errorf("warnings\n%s\nwant\n%s", strings.Join(warnings, "\n"), strings.Join(tc.warnings, "\n"))
			}
			var names []string
			for _, s := range got {
				names = append(names, s.Name+"="+s.Command)
			}
			if strings.Join(names, " ") != strings.Join(tc.want, " ") {
				t.Fatalf("servers %v, want %v", names, tc.want)
			}
		})
	}
}
