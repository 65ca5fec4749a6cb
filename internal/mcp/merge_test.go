package mcp

import (
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/mcpspec"
)

// Which entry of a name runs: the user's over any package's, the first
// package's over a later one's (named in the error, the rest still
// returned), and the set sorted by name.
func TestMergePrecedence(t *testing.T) {
	srv := func(name, cmd, source string) Server {
		return Server{Name: name, Server: mcpspec.Server{Command: cmd}, Source: source}
	}
	for _, tc := range []struct {
		name     string
		user     []Server
		packages [][]Server
		want     []string // name=command of each server, in order
		err      string   // "" when no error is wanted
	}{
		{name: "nothing", want: nil},
		{name: "user only", user: []Server{srv("b", "mine-b", "settings"), srv("a", "mine-a", "settings")},
			want: []string{"a=mine-a", "b=mine-b"}},
		{name: "packages only, sorted", packages: [][]Server{{srv("z", "kit-z", "plugin kit")}, {srv("m", "web-m", "plugin web")}},
			want: []string{"m=web-m", "z=kit-z"}},
		{name: "the user's entry wins over a package's", user: []Server{srv("a", "mine", "settings")},
			packages: [][]Server{{srv("a", "kit", "plugin kit"), srv("b", "kit", "plugin kit")}},
			want:     []string{"a=mine", "b=kit"}},
		{name: "the first package wins a clash, named in the error",
			packages: [][]Server{{srv("a", "kit", "plugin kit")}, {srv("a", "web", "plugin web"), srv("c", "web", "plugin web")}},
			want:     []string{"a=kit", "c=web"}, err: `mcp server "a" is declared by both plugin kit and plugin web`},
		{name: "the user's entry wins even over clashing packages", user: []Server{srv("a", "mine", "settings")},
			packages: [][]Server{{srv("a", "kit", "plugin kit")}, {srv("a", "web", "plugin web")}},
			want:     []string{"a=mine"}, err: "plugin kit and plugin web"},
		{name: "the first clash is the one named",
			packages: [][]Server{{srv("a", "p", "plugin p"), srv("b", "p", "plugin p")}, {srv("a", "q", "plugin q")}, {srv("b", "r", "plugin r")}},
			want:     []string{"a=p", "b=p"}, err: `"a" is declared by both plugin p and plugin q`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Merge(tc.user, tc.packages...)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("error %v, want none", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("error %v, want %q", err, tc.err)
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
