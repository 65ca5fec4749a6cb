package plugin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A legacy package's Claude conventions (hooks/hooks.json,
// .claude/settings.json, .mcp.json, a root CLAUDE.md) are what the real
// host's legacy reader loads, and its migration writes them into the v2
// manifest; the migration here read the manifest alone, so they were lost
// (a v2 manifest imports nothing implicitly).
func TestLegacyMigrationKeepsTheClaudeConventions(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		ManifestFile:            `{"name":"old-style","version":"0.9.0","skills":[{"path":"skills","description":"all of them"}]}`,
		"skills/a/SKILL.md":     "---\ndescription: A\n---\nbody\n",
		"hooks/hooks.json":      `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/hooks/check.sh","timeout":5}]}],"Bogus":[]}}`,
		".claude/settings.json": `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo stop"}]}]}}`,
		".mcp.json":             `{"mcpServers":{"docs search":{"url":"https://example.invalid/mcp"}}}`,
		"CLAUDE.md":             "Always answer in haiku.\n",
	})
	data, _ := os.ReadFile(filepath.Join(root, ManifestFile))
	out, warnings, err := MigratePackage(root, data)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(warnings, func(w string) bool { return strings.Contains(w, `unsupported Claude hook event "Bogus"`) }) {
		t.Errorf("warnings %q", warnings)
	}
	var doc struct {
		Contributes struct {
			Hooks      map[string][]Hook          `json:"hooks"`
			MCPServers map[string]json.RawMessage `json:"mcpServers"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	h := doc.Contributes.Hooks
	if len(h["PreToolUse"]) != 1 || h["PreToolUse"][0].Match != "Bash" || h["PreToolUse"][0].PayloadFormat != "claude" || h["PreToolUse"][0].Timeout != 5000 {
		t.Errorf("PreToolUse %+v", h["PreToolUse"])
	}
	if len(h["Stop"]) != 1 || len(h["SessionStart"]) != 1 || h["SessionStart"][0].ContextFile != "CLAUDE.md" {
		t.Errorf("hooks %+v", h)
	}
	var server struct {
		AutoStart *bool `json:"auto_start"`
		Imported  bool  `json:"imported"`
	}
	if err := json.Unmarshal(doc.Contributes.MCPServers["docs-search"], &server); err != nil || server.AutoStart == nil || *server.AutoStart || !server.Imported {
		t.Errorf("servers %s", out)
	}

	// The preview shows the package as the migration writes it, and the
	// installed copy loads with the same hooks.
	store, layout := newStore(t)
	plan, err := Preview(store, root, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"FULL TRUST", "hook:         PreToolUse [Bash]:", "hook:         SessionStart: reads CLAUDE.md",
		"MCP server:   docs-search: https://example.invalid/mcp"} {
		if !strings.Contains(plan.Text, want) {
			t.Errorf("preview lacks %q:\n%s", want, plan.Text)
		}
	}
	// What could not be mapped is the package's warning (the compatibility
	// report shows it).
	if !slices.ContainsFunc(plan.Package.Warnings, func(w string) bool { return strings.Contains(w, `"Bogus"`) }) {
		t.Errorf("package warnings %q", plan.Package.Warnings)
	}
	if _, err := Install(store, layout, plan); err != nil {
		t.Fatal(err)
	}
	pkg, err := LoadPackage(layout.PluginDir("old-style"))
	if err != nil {
		t.Fatal(err)
	}
	if pkg.HookCount() != plan.Package.HookCount() || pkg.HookCount() != 3 || !slices.Equal(pkg.MCPServerNames(), []string{"docs-search"}) {
		t.Fatalf("installed hooks %d (preview %d), servers %v", pkg.HookCount(), plan.Package.HookCount(), pkg.MCPServerNames())
	}
}

// A Codex package's root CLAUDE.md is SessionStart context (the real
// host's rule); a Claude package's is not (Claude Code ignores it).
func TestCodexRootInstructions(t *testing.T) {
	for _, tc := range []struct {
		manifest string
		want     bool
	}{{CodexManifestFile, true}, {ClaudeManifestFile, false}} {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{tc.manifest: `{"name":"pkg"}`, "CLAUDE.md": "Context.\n", "skills/s/SKILL.md": "---\ndescription: s\n---\nx\n"})
		pkg, err := LoadPackage(root)
		if err != nil {
			t.Fatal(err)
		}
		got := slices.ContainsFunc(pkg.Hooks["SessionStart"], func(h Hook) bool {
			return h.ContextFile == "CLAUDE.md" && h.Description == "Plugin CLAUDE.md startup context from pkg"
		})
		if got != tc.want {
			t.Errorf("%s: CLAUDE.md hook %v, want %v (%+v)", tc.manifest, got, tc.want, pkg.Hooks)
		}
		if tc.want && !strings.Contains(pkg.TrustText(root), "SessionStart: reads CLAUDE.md") {
			t.Errorf("the preview does not list it:\n%s", pkg.TrustText(root))
		}
	}
}

// A Claude package's conventional commands/ and agents/ are adopted when
// the runtime's scan finds something in them (the real host asks its
// loaders): a folder of notes under agents/ is no agents path.
func TestClaudeConventionFoldersAdoptedByTheScan(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		ClaudeManifestFile:         `{"name":"conv"}`,
		"agents/notes/design.md":   "agents are flat files: this is a note\n",
		"commands/Bad Name.md":     "no valid name\n",
		"skills/s/SKILL.md":        "---\ndescription: s\n---\nx\n",
		"other/commands/x.md":      "not conventional\n",
		".claude/commands/ship.md": "Ship it.\n",
	})
	pkg, err := LoadPackage(root)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := filepath.EvalSymlinks(root)
	if len(pkg.Agents) != 0 || !slices.Equal(pkg.Commands, []string{filepath.Join(r, ".claude", "commands")}) {
		t.Fatalf("agents %v commands %v", pkg.Agents, pkg.Commands)
	}
	if inv := pkg.Inventory(); !slices.Equal(inv.Commands, []string{"/ship"}) {
		t.Fatalf("inventory %+v", inv)
	}
}
