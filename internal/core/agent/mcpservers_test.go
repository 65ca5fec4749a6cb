package agent_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/extensions/mcp"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// writeFiles writes name -> content under root.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// nativePkg is a v2 package whose contributes.mcpServers is servers, read
// by the real loader.
func nativePkg(t *testing.T, name, servers string) plugin.Package {
	t.Helper()
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"reasonix-plugin.json": `{"apiVersion": "reasonix.io/plugin/v2", "name": "` + name +
		`", "version": "1.0.0", "contributes": {"mcpServers": ` + servers + `}}`})
	p, err := plugin.LoadPackage(root)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return p
}

// The set of servers a chat starts, read from real files: the user's
// mcp.json and packages the loader read from their folders. Each case
// names every server with where it came from, and the warnings it wants.
func TestMCPServersOfAChat(t *testing.T) {
	t.Parallel()
	claude := func(t *testing.T) plugin.Package {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{
			".claude-plugin/plugin.json": `{"name": "claudekit", "version": "1.0.0"}`,
			".mcp.json":                  `{"mcpServers": {"search": {"url": "https://example.invalid/mcp"}}}`,
		})
		p, err := plugin.LoadPackage(root)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name     string
		user     string // the mcp.json file, "" for none
		packages func(t *testing.T) ([]agent.Package, []error)
		want     []string // name=source of each server, sorted
		warnings []string // a substring of each warning, in order
	}{
		{name: "nothing configured", packages: func(*testing.T) ([]agent.Package, []error) { return nil, nil }},
		{name: "the user's entry wins a name a package has",
			user: `{"mcpServers": {"shared": {"command": "mine"}}}`,
			packages: func(t *testing.T) ([]agent.Package, []error) {
				return []agent.Package{nativePkg(t, "kit", `{"shared": {"command": "./bin/x"}, "tools": {"command": "./bin/x"}}`)}, nil
			},
			want:     []string{"shared=settings", "tools=plugin kit"},
			warnings: []string{`kit: plugin MCP server "shared" skipped because config already defines that name`}},
		{name: "a Claude Code .mcp.json server joins, imported",
			packages: func(t *testing.T) ([]agent.Package, []error) { return []agent.Package{claude(t)}, nil },
			want:     []string{"search=plugin claudekit"}},
		{name: "of two packages naming one server the first keeps it",
			packages: func(t *testing.T) ([]agent.Package, []error) {
				return []agent.Package{nativePkg(t, "kit", `{"tools": {"command": "./a"}}`), nativePkg(t, "web", `{"tools": {"command": "./b"}, "web": {"command": "./b"}}`)}, nil
			},
			want:     []string{"tools=plugin kit", "web=plugin web"},
			warnings: []string{`web: plugin MCP server "tools" conflicts with package kit and was skipped`}},
		{name: "what is broken is named and the rest start",
			user: `{"mcpServers": {"mine": {"command": "x", "autoStart": false}}}`,
			packages: func(t *testing.T) ([]agent.Package, []error) {
				broken := agent.Package{Name: "broken", Root: t.TempDir(), MCPServers: json.RawMessage(`{"x": {"autoStart": false, "command": "y"}}`)}
				return []agent.Package{broken, nativePkg(t, "kit", `{"tools": {"command": "./a"}}`)}, []error{errors.New("plugin gone: no manifest")}
			},
			want:     []string{"tools=plugin kit"},
			warnings: []string{`mcp servers file`, "plugin gone: no manifest", `plugin broken: mcpServers.x: json: unknown field "autoStart"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			layout := agent.Layout{Root: t.TempDir()}
			if tc.user != "" {
				writeFiles(t, layout.Root, map[string]string{mcp.FileName: tc.user})
			}
			pkgs, errs := tc.packages(t)
			var warnings []string
			servers := agent.MCPServers(layout, func() ([]agent.Package, []error) { return pkgs, errs }, func(s string) { warnings = append(warnings, s) })
			var got []string
			for _, s := range servers {
				got = append(got, s.Name+"="+s.Source)
				if strings.HasPrefix(s.Source, "plugin ") {
					i := slices.IndexFunc(pkgs, func(p agent.Package) bool { return "plugin "+p.Name == s.Source })
					if i < 0 || s.Dir != pkgs[i].Root {
						t.Errorf("%s runs in %q, want its package's root", s.Name, s.Dir)
					}
				}
				if s.Name == "search" && (!s.Imported || s.Starts() || s.Transport() != mcp.TypeHTTP) {
					t.Errorf("imported server %+v: want imported, not started with the host, http", s)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("servers %v, want %v", got, tc.want)
			}
			if len(warnings) != len(tc.warnings) {
				t.Fatalf("warnings %q, want %d", warnings, len(tc.warnings))
			}
			for i, w := range tc.warnings {
				if !strings.Contains(warnings[i], w) {
					t.Errorf("warning %d %q, want it to contain %q", i, warnings[i], w)
				}
			}
		})
	}
}
