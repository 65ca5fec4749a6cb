package plugin

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// fixture copies testdata/pkgs/<name> to a temp folder (tests may write
// there: a migration, a symlink) and returns its resolved path.
func fixture(t *testing.T, name string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), name)
	if err := os.Mkdir(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := copyTree(filepath.Join("testdata", "pkgs", name), dst); err != nil {
		t.Fatal(err)
	}
	r, err := filepath.EvalSymlinks(dst)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestLoadPackageFixtures(t *testing.T) {
	t.Run("v2 contributes, no runtime", func(t *testing.T) {
		root := fixture(t, "v2-full")
		p, err := LoadPackage(root)
		if err != nil {
			t.Fatal(err)
		}
		if p.Kind != PackageReasonix || p.Name != "v2-full" || p.Manifest == nil || p.Manifest.HasRuntime() {
			t.Fatalf("package = %+v", p)
		}
		j := func(rel string) []string { return []string{filepath.Join(root, rel)} }
		for what, got := range map[string][2][]string{
			"skills": {p.Skills, j("skills")}, "commands": {p.Commands, j("commands")}, "agents": {p.Agents, j("agents")},
			"prompts": {p.Prompts, j("prompts")}, "themes": {p.Themes, j("themes/dusk.reasonix-theme")},
		} {
			if !slices.Equal(got[0], got[1]) {
				t.Errorf("%s = %q, want %q", what, got[0], got[1])
			}
		}
		pre := p.Hooks["PreToolUse"]
		if len(pre) != 1 || pre[0].Command != "hooks/guard.sh" || pre[0].Args == nil || len(*pre[0].Args) != 0 || pre[0].Timeout != 2000 || pre[0].Match != "bash" {
			t.Errorf("PreToolUse = %+v (args [] must stay exec form)", pre)
		}
		if ss := p.Hooks["SessionStart"]; len(ss) != 1 || !ss[0].ShellCommand || ss[0].Args != nil {
			t.Errorf("SessionStart = %+v (a shell without args is shell form)", ss)
		}
		if got := p.MCPServerNames(); !slices.Equal(got, []string{"files"}) {
			t.Errorf("MCP servers = %q", got)
		}
		if len(p.Warnings) != 0 {
			t.Errorf("warnings = %q", p.Warnings)
		}
	})
	t.Run("identical legacy and contributes entries merge once", func(t *testing.T) {
		p, err := LoadPackage(fixture(t, "mixed-dup"))
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Skills) != 1 || len(p.Hooks["Stop"]) != 1 {
			t.Fatalf("skills %q hooks %+v", p.Skills, p.Hooks)
		}
	})
	t.Run("claude", func(t *testing.T) {
		root := fixture(t, "claude-fmt")
		p, err := LoadPackage(root)
		if err != nil {
			t.Fatal(err)
		}
		if p.Kind != PackageClaude || p.Name != "claude-fmt" || p.Version != "2.1.0" || p.Manifest != nil {
			t.Fatalf("package = %+v", p)
		}
		if !slices.Equal(p.Skills, []string{filepath.Join(root, "skills")}) || !slices.Equal(p.Commands, []string{filepath.Join(root, "commands")}) ||
			!slices.Equal(p.Agents, []string{filepath.Join(root, "agents")}) {
			t.Errorf("folders: skills %q commands %q agents %q", p.Skills, p.Commands, p.Agents)
		}
		pre := p.Hooks["PreToolUse"]
		if len(pre) != 1 || pre[0].Match != "Bash" || pre[0].PayloadFormat != "claude" || pre[0].Timeout != 10000 || !pre[0].ShellCommand {
			t.Errorf("PreToolUse = %+v", pre)
		}
		if got := p.MCPServerNames(); !slices.Equal(got, []string{"search"}) {
			t.Errorf("MCP servers = %q", got)
		}
		for _, w := range []string{`unsupported Claude hook event "WorktreeCreate"`, `MCP server "broken" has no command`} {
			if !slices.ContainsFunc(p.Warnings, func(s string) bool { return strings.Contains(s, w) }) {
				t.Errorf("warnings %q lack %q", p.Warnings, w)
			}
		}
	})
	t.Run("codex", func(t *testing.T) {
		root := fixture(t, "codex-fmt")
		p, err := LoadPackage(root)
		if err != nil {
			t.Fatal(err)
		}
		if p.Kind != PackageCodex || !slices.Equal(p.Skills, []string{filepath.Join(root, "skills")}) {
			t.Fatalf("package = %+v", p)
		}
		if ss := p.Hooks["SessionStart"]; len(ss) != 1 || ss[0].Command != filepath.Join(root, "hooks", "session-start-codex") {
			t.Errorf("SessionStart = %+v", ss)
		}
	})
}

func TestLoadPackageErrors(t *testing.T) {
	for _, tc := range []struct{ fixture, want string }{
		{"mixed-conflict", `reasonix-plugin.json: contributes.mcpServers.db: MCP server "db" is defined differently in mcpServers and contributes.mcpServers`},
		{"hook-conflict", `reasonix-plugin.json: contributes.hooks.Stop: hook "echo bye" (event Stop) is defined differently in hooks and contributes.hooks`},
		{"unknown-field", "reasonix-plugin.json: contributes.hooks.PreToolUse[0].comand: unknown field"},
		{"unknown-contrib", "reasonix-plugin.json: contributes.skils: unknown field"},
		{"camel-mcp", "reasonix-plugin.json: contributes.mcpServers.s.autoStart: unknown field"},
		{"path-escape", `reasonix-plugin.json: contributes.skills: plugin path "../outside" must be relative and stay inside the plugin root`},
		{"bad-shell", `reasonix-plugin.json: hooks.Stop[0].shell: hook shell "zsh" is not supported (use auto, bash, powershell, pwsh, or cmd)`},
		{"legacy-skills", "reasonix-plugin.json: apiVersion: missing apiVersion; native manifests must declare reasonix.io/plugin/v2"},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			root := fixture(t, tc.fixture)
			_, err := LoadPackage(root)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want %q", err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), filepath.Join(root, ManifestFile)) {
				t.Errorf("error %q does not name the manifest file", err)
			}
		})
	}
}

func TestLoadPackageSymlinkEscape(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	root := fixture(t, "v2-full")
	outside := t.TempDir()
	if err := os.RemoveAll(filepath.Join(root, "agents")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "agents")); err != nil {
		t.Fatal(err)
	}
	_, err := LoadPackage(root)
	if err == nil || !strings.Contains(err.Error(), `contributes.agents: agents path "agents" escapes the plugin root through a symlink`) {
		t.Fatalf("error = %v", err)
	}
	// A theme reached through an escaping link inside a glob is refused too.
	root = fixture(t, "v2-full")
	evil := filepath.Join(outside, "x.reasonix-theme")
	os.WriteFile(evil, []byte("{}"), 0o644)
	if err := os.Symlink(evil, filepath.Join(root, "themes", "evil.reasonix-theme")); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadPackage(root); err == nil || !strings.Contains(err.Error(), `theme "themes/*.reasonix-theme" escapes the plugin root through a symlink`) {
		t.Fatalf("theme error = %v", err)
	}
}

func TestMissingPathIsAWarning(t *testing.T) {
	root := fixture(t, "v2-full")
	os.RemoveAll(filepath.Join(root, "prompts"))
	p, err := LoadPackage(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Prompts) != 0 || !slices.Contains(p.Warnings, `prompts path "prompts" does not exist`) {
		t.Fatalf("prompts %q warnings %q", p.Prompts, p.Warnings)
	}
}

func TestLegacyMigration(t *testing.T) {
	data := t.TempDir()
	layout := Layout{Root: data}
	managed := layout.PluginDir("legacy-skills")
	if err := os.MkdirAll(managed, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := copyTree(filepath.Join("testdata", "pkgs", "legacy-skills"), managed); err != nil {
		t.Fatal(err)
	}
	linked := fixture(t, "legacy-skills")
	old, _ := os.ReadFile(filepath.Join(managed, ManifestFile))

	// Linked elsewhere: disabled_incompatible, naming the fix; untouched.
	_, err := LoadInstalled(layout, Record{Name: "legacy-skills", Root: linked, Linked: true, Enabled: true})
	if err == nil || !strings.Contains(err.Error(), "disabled_incompatible: ") ||
		!strings.Contains(err.Error(), "remediation: reasonix-desktop plugin migrate legacy-skills --to-v2") {
		t.Fatalf("linked legacy: %v", err)
	}
	if _, err := os.Stat(filepath.Join(linked, ManifestFile+".bak")); err == nil {
		t.Fatal("a linked plugin's manifest was rewritten")
	}

	// Managed but disabled: left as it is until it is enabled.
	if _, err := LoadInstalled(layout, Record{Name: "legacy-skills", Root: managed}); err == nil || !IsLegacy(err) {
		t.Fatalf("disabled managed legacy: %v", err)
	}
	if _, err := os.Stat(filepath.Join(managed, ManifestFile+".bak")); err == nil {
		t.Fatal("a disabled plugin's manifest was rewritten")
	}

	// Managed: rewritten to v2 with a .bak, then loaded.
	p, err := LoadInstalled(layout, Record{Name: "legacy-skills", Root: managed, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Skills, []string{filepath.Join(resolvedOrSelf(managed), "skills")}) || p.Version != "0.2.0" {
		t.Fatalf("migrated package = %+v", p)
	}
	bak, _ := os.ReadFile(filepath.Join(managed, ManifestFile+".bak"))
	if string(bak) != string(old) {
		t.Fatalf(".bak = %q", bak)
	}
	now, _ := os.ReadFile(filepath.Join(managed, ManifestFile))
	m, err := ParseManifest(now)
	if err != nil || string(m.Contributes) != `{"skills":["skills"]}` {
		t.Fatalf("migrated manifest %s: %v", now, err)
	}
	if _, err := MigrateLegacy(managed); err == nil || !strings.Contains(err.Error(), "already uses reasonix.io/plugin/v2") {
		t.Fatalf("second migration: %v", err)
	}
}

func TestMigrateManifestTable(t *testing.T) {
	for _, tc := range []struct{ name, in, want, err string }{
		{"version defaults", `{"name":"a"}`, `"version": "1.0.0"`, ""},
		{"hooks and servers move under contributes", `{"name":"a","version":"2","hooks":{"Stop":[{"command":"x"}]},"mcpServers":{"s":{"command":"y"}}}`,
			`"contributes": {`, ""},
		// The published form the real parseSkillPaths reads: path taken,
		// the rest ignored (it failed with "skills[0].description: unknown field").
		{"skills as objects with a description", `{"name":"a","skills":[{"path":"skills/b","description":"B"},{"path":"skills/a","title":"A"}]}`,
			`"skills": [
      "skills/a",
      "skills/b"
    ]`, ""},
		{"commands as objects", `{"name":"a","commands":[{"path":"cmds","description":"x"}]}`, `"commands": [
      "cmds"
    ]`, ""},
		{"an MCP server with a member v2 does not know", `{"name":"a","mcpServers":{"s":{"command":"y","disabled":false,"timeout":30}}}`,
			`"command": "y"`, ""},
		{"a hook with a member v2 does not know", `{"name":"a","hooks":{"Stop":[{"command":"x","blocking":true}]}}`, `"command": "x"`, ""},
		{"an object path that is not a string", `{"name":"a","skills":[{"path":3}]}`, "", "skills[0].path must be a path string"},
		{"no name", `{"version":"1"}`, "", "migrate: manifest name is required"},
		{"other apiVersion", `{"apiVersion":"reasonix.io/plugin/v1","name":"a"}`, "", `(got "reasonix.io/plugin/v1")`},
		{"not JSON", `{`, "", "invalid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := MigrateManifest([]byte(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !strings.Contains(string(out), tc.want) {
				t.Fatalf("out %s err %v", out, err)
			}
			// The migrated document loads: its contributions decode strictly.
			m, err := ParseManifest(out)
			if err == nil {
				_, err = decodeContributions(m)
			}
			if err != nil {
				t.Fatalf("the migrated manifest does not load: %v\n%s", err, out)
			}
		})
	}
}

// A package with a runtime and hooks shows both in one FULL TRUST block,
// with the sentence once.
func TestTrustTextRuntimeAndHooks(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, ManifestFile), []byte(`{"apiVersion":"reasonix.io/plugin/v2","name":"both","version":"1.0.0",
"runtime":{"command":"/bin/true","intercepts":["tool.before"],"capabilities":["interceptors"]},
"contributes":{"hooks":{"Stop":[{"command":"notify","args":["--done"],"async":true}]}}}`), 0o644)
	p, err := LoadPackage(root)
	if err != nil {
		t.Fatal(err)
	}
	text := p.TrustText(root)
	for _, want := range []string{"FULL TRUST", "command:      /bin/true", "intercepts:   tool.before", "hook:         Stop: notify --done [async]"} {
		if !strings.Contains(text, want) {
			t.Errorf("trust text lacks %q:\n%s", want, text)
		}
	}
	if strings.Count(text, TrustSentence) != 1 || strings.Count(text, "FULL TRUST") != 1 {
		t.Errorf("one block, one sentence:\n%s", text)
	}
}
