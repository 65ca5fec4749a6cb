package compat

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// want is one expected line: its feature, its file, and words of its text.
type want struct {
	feature, where, text string
	note                 bool
}

// kitchenSink is a Claude package using, once each, what this host does
// not do as Claude Code does: hooks with "if" and "asyncRewake", matchers
// naming tools it lacks, a prompt hook, an event it does not know, a Stop
// hook, manifest keys and files it does not read, MCP servers, and the
// text preprocessing of skills, commands and agents.
var kitchenSink = map[string]string{
	".claude-plugin/plugin.json": `{"name": "kitchen-sink", "version": "1.0.0",
		"hooks": "./config/hooks.json", "outputStyles": "./styles/", "lspServers": "./.lsp.json",
		"agents": "./agents/", "mcpServers": {"inline": {"command": "x"}}}`,
	"hooks/hooks.json": `{"hooks": {
		"PreToolUse": [
			{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh", "if": "Bash(rm *)"}]},
			{"matcher": "WebSearch", "hooks": [{"type": "command", "command": "search.sh"}]},
			{"matcher": "WebSearch|Bash", "hooks": [{"type": "command", "command": "both.sh"}]},
			{"matcher": "Edit", "hooks": [{"type": "prompt", "prompt": "Is this edit safe?"}]},
			{"matcher": "(?<=x)Edit", "hooks": [{"type": "command", "command": "lookbehind.sh"}]}
		],
		"PostToolUse": [
			{"matcher": "Edit|Write", "hooks": [
				{"type": "command", "command": "lint.sh", "asyncRewake": true},
				{"type": "command", "command": "test.sh", "async": true, "asyncRewake": true}
			]}
		],
		"SubagentStop": [{"hooks": [{"type": "command", "command": "check.sh"}]}],
		"SessionStart": [{"matcher": "compact", "hooks": [{"type": "command", "command": "check.sh"}]},
			{"matcher": "*", "hooks": [{"type": "command", "command": "idle.sh"}]}],
		"TeammateIdle": [{"hooks": [{"type": "command", "command": "idle.sh"}]}]
	}}`,
	".mcp.json": `{"mcpServers": {
		"docs": {"command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/server.js"]},
		"broken": {"type": "stdio"}
	}}`,
	".lsp.json":   `{"go": {"command": "gopls"}}`,
	"server.js":   "// a server\n",
	"guard.sh":    "#!/bin/sh\n",
	"search.sh":   "#!/bin/sh\n",
	"both.sh":     "#!/bin/sh\n",
	"lint.sh":     "#!/bin/sh\n",
	"test.sh":     "#!/bin/sh\n",
	"check.sh":    "#!/bin/sh\n",
	"idle.sh":     "#!/bin/sh\n",
	"styles/x.md": "# a style\n",
	"skills/deploy/SKILL.md": "---\nname: deploy\ndescription: Deploys the app\ndisable-model-invocation: true\npaths: \"src/**\"\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./check.sh\n---\n\n" +
		"Run `node ${CLAUDE_PLUGIN_ROOT}/scripts/deploy.mjs $ARGUMENTS` from ${CLAUDE_SKILL_DIR}.\n\n```!\ngit status\n```\n",
	"commands/first.md":  "---\ndescription: Works on the first argument\n---\n\nLook at $ARGUMENTS[0] only.\n",
	"agents/reviewer.md": "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep, WebSearch\ndisallowedTools: Write, Edit\nmcpServers:\n  - github\n---\n\nReview with $CLAUDE_PLUGIN_ROOT/checklist.md.\n",
}

var kitchenSinkWant = []want{
	{FeatureHooks, ".claude-plugin/plugin.json", `"hooks" (config/hooks.json) is not read`, false},
	{FeatureMCP, ".claude-plugin/plugin.json", `"mcpServers" (inline) is not read`, false},
	{FeaturePackage, ".claude-plugin/plugin.json", `"lspServers" (.lsp.json) is not read`, false},
	{FeaturePackage, ".claude-plugin/plugin.json", `"outputStyles" (styles) is not read`, false},
	{FeaturePackage, ".lsp.json", "its LSP servers are not read", false},
	{FeatureMCP, ".mcp.json", `MCP server "broken" has no command`, false},
	{FeatureMCP, ".mcp.json", `MCP server "docs" does not start with the chat`, true},
	{FeatureAgents, "agents/reviewer.md", `"disallowedTools": "Write, Edit"`, false},
	{FeatureAgents, "agents/reviewer.md", `"mcpServers"`, false},
	{FeatureAgents, "agents/reviewer.md", `tool "WebSearch" selects nothing here`, false},
	{FeatureAgents, "agents/reviewer.md", "uses ${CLAUDE_PLUGIN_ROOT}", false},
	{FeatureCommands, "commands/first.md", "uses $ARGUMENTS[0]", false},
	{FeatureHooks, "hooks/hooks.json", `"if": "Bash(rm *)"`, false},
	{FeatureHooks, "hooks/hooks.json", `PreToolUse hook "search.sh" (matcher "WebSearch") never fires here`, false},
	{FeatureHooks, "hooks/hooks.json", `PreToolUse hook "both.sh" (matcher "WebSearch|Bash") fires only for the tools this host has`, false},
	{FeatureHooks, "hooks/hooks.json", `unsupported hook type "prompt"`, false},
	{FeatureHooks, "hooks/hooks.json", `PreToolUse hook "lookbehind.sh" never fires here: its matcher "(?<=x)Edit" is not a regular expression Go reads`, false},
	{FeatureHooks, "hooks/hooks.json", `unsupported Claude hook event "TeammateIdle"`, false},
	{FeatureHooks, "hooks/hooks.json", `"lint.sh" uses "asyncRewake", which this host does not support: it runs to the end`, false},
	{FeatureHooks, "hooks/hooks.json", `"test.sh" uses "asyncRewake", which this host does not support: it runs in the background`, false},
	{FeatureHooks, "hooks/hooks.json", `SubagentStop hook "check.sh" cannot keep the turn going`, false},
	{FeatureHooks, "hooks/hooks.json", `SessionStart hook "check.sh" has matcher "compact", which this host reads only for tool events: it fires every time SessionStart fires`, false},
	{FeatureHooks, "hooks/hooks.json", "9 hooks set no timeout, so this host's own timeouts apply (PostToolUse 30 s, PreToolUse 5 s, SessionStart 30 s, SubagentStop 30 s) where Claude Code waits up to 600 s for a command hook", true},
	{FeatureSkills, "skills/deploy/SKILL.md", "disable-model-invocation", false},
	{FeatureSkills, "skills/deploy/SKILL.md", `uses $ARGUMENTS, which this host does not substitute in a skill`, true},
	{FeatureSkills, "skills/deploy/SKILL.md", `has "paths"`, false},
	{FeatureSkills, "skills/deploy/SKILL.md", `declares "hooks" in its frontmatter`, false},
	{FeatureSkills, "skills/deploy/SKILL.md", "uses ${CLAUDE_PLUGIN_ROOT}, which Claude Code replaces with the plugin's folder", false},
	{FeatureSkills, "skills/deploy/SKILL.md", "uses ${CLAUDE_SKILL_DIR}, which Claude Code replaces with the skill's folder", false},
	{FeatureSkills, "skills/deploy/SKILL.md", "has 1 ```! block that Claude Code runs", false},
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name   string
		dir    string            // a testdata package
		files  map[string]string // or one written here
		grade  Grade
		mapped []string
		lines  []want
	}{
		{name: "hookify", dir: "testdata/hookify", grade: Partial,
			mapped: []string{FeatureSkills, FeatureCommands, FeatureAgents, FeatureHooks},
			lines: []want{
				{FeatureHooks, "hooks/hooks.json", `Stop hook "python3 ${CLAUDE_PLUGIN_ROOT}/hooks/stop.py" cannot keep the turn going`, false},
				// Its PreToolUse and PostToolUse hooks have no matcher: they
				// see every tool, WebFetch and TaskOutput among them.
				{FeatureHooks, "hooks/hooks.json", `selects WebFetch, but this host's web_fetch takes only a URL`, false},
				{FeatureHooks, "hooks/hooks.json", `selects TaskOutput, but this host's wait may wait for several`, false},
			}},
		// Its hooks set no timeout: a note, the grade stays full.
		{name: "security-guidance", dir: "testdata/security-guidance", grade: Full,
			mapped: []string{FeatureHooks}, lines: []want{
				{FeatureHooks, "hooks/hooks.json", "2 hooks set no timeout, so this host's own timeouts apply (PreToolUse 5 s, SessionStart 30 s) where Claude Code waits up to 600 s", true},
			}},
		{name: "commit-commands", dir: "testdata/commit-commands", grade: Partial,
			mapped: []string{FeatureCommands},
			lines: []want{
				{FeatureCommands, "commands/commit.md", "has 3 inline !`…` commands (the first !`git status`) that Claude Code runs before the model reads the text", false},
			}},
		{name: "kitchen sink", files: kitchenSink, grade: Partial,
			mapped: []string{FeatureSkills, FeatureCommands, FeatureAgents, FeatureHooks, FeatureMCP},
			lines:  kitchenSinkWant},
		{name: "nothing maps", grade: None, files: map[string]string{
			".claude-plugin/plugin.json": `{"name": "styles-only", "outputStyles": "./styles/"}`,
			"styles/terse.md":            "Be terse.\n",
			".lsp.json":                  `{"go": {"command": "gopls"}}`,
		}, lines: []want{
			{FeaturePackage, ".claude-plugin/plugin.json", `"outputStyles" (styles) is not read`, false},
			{FeaturePackage, ".lsp.json", "its LSP servers are not read", false},
		}},
		{name: "only notes", grade: Full, mapped: []string{FeatureMCP}, files: map[string]string{
			".claude-plugin/plugin.json": `{"name": "docs-server"}`,
			".mcp.json":                  `{"mcpServers": {"docs": {"url": "https://example.com/mcp"}}}`,
		}, lines: []want{
			{FeatureMCP, ".mcp.json", `MCP server "docs" does not start with the chat`, true},
		}},
		{name: "hooks at the top level", grade: None, files: map[string]string{
			".claude-plugin/plugin.json": `{"name": "old-layout"}`,
			"hooks/hooks.json":           `{"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "x.sh"}]}], "Stop": []}`,
		}, lines: []want{
			{FeatureHooks, "hooks/hooks.json", `has PreToolUse, Stop at the top level, not under "hooks"`, false},
		}},
		{name: "codex", grade: Partial, mapped: []string{FeatureSkills}, files: map[string]string{
			".codex-plugin/plugin.json": `{"name": "codex-kit", "skills": "./skills/", "apps": "./.app.json", "agents": "./agents/"}`,
			"agents/helper.md":          "---\nname: helper\ndescription: Helps\n---\n\nHelp.\n",
			".app.json":                 `{"apps": {}}`,
			"skills/plan/SKILL.md":      "---\nname: plan\ndescription: Plans\n---\n\nPlan the work.\n",
		}, lines: []want{
			{FeaturePackage, ".app.json", "its app connectors are not read", false},
			{FeaturePackage, ".codex-plugin/plugin.json", `"apps" (.app.json) is not read`, false},
			{FeatureAgents, ".codex-plugin/plugin.json", `"agents" (agents) is not read: this host reads no agents from a Codex package`, false},
		}},
		// A native package's Claude-format hooks are judged as a Claude
		// file's; the loader's refusals name the manifest.
		{name: "native", grade: Partial, mapped: []string{FeatureHooks}, files: map[string]string{
			plugin.ManifestFile: `{"apiVersion": "` + plugin.APIVersion + `", "name": "native", "version": "1.0.0",
				"contributes": {"skills": ["missing"], "themes": ["themes/*.reasonix-theme"], "hooks": {
					"Stop": [{"command": "echo bye", "payloadFormat": "claude"}],
					"SubagentStop": [{"command": "echo ours"}],
					"PreToolUse": [{"match": "WebSearch", "command": "echo x", "payloadFormat": "claude"}],
					"TeammateIdle": [{"command": "echo y"}]}}}`,
		}, lines: []want{
			{FeatureHooks, plugin.ManifestFile, `Stop hook "echo bye" cannot keep the turn going`, false},
			{FeatureHooks, plugin.ManifestFile, `PreToolUse hook "echo x" (matcher "WebSearch") never fires here`, false},
			{FeatureHooks, plugin.ManifestFile, `unknown event "TeammateIdle"`, false},
			{FeatureSkills, plugin.ManifestFile, `skills path "missing" does not exist`, false},
			{FeaturePackage, plugin.ManifestFile, `theme glob "themes/*.reasonix-theme" matched no files`, false},
		}},
		// A native package that maps nothing is still full: its manifest is
		// this host's own (the real host grades none only Claude and Codex).
		{name: "native, empty", grade: Full, files: map[string]string{
			plugin.ManifestFile: `{"apiVersion": "` + plugin.APIVersion + `", "name": "empty", "version": "1.0.0"}`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.dir
			if dir == "" {
				dir = writePackage(t, tc.files)
			}
			p, err := plugin.LoadPackage(dir)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			r := Check(p)
			if r.Grade != tc.grade {
				t.Errorf("grade %q, want %q\n%s", r.Grade, tc.grade, r.Text())
			}
			if !slices.Equal(r.Mapped, tc.mapped) {
				t.Errorf("mapped %q, want %q", r.Mapped, tc.mapped)
			}
			checkLines(t, r, tc.lines)
		})
	}
}

// checkLines asserts the report has exactly the wanted lines: each wanted
// one matches one line, and no line is left over.
func checkLines(t *testing.T, r Report, wants []want) {
	t.Helper()
	used := make([]bool, len(r.Lines))
	for _, w := range wants {
		found := false
		for i, l := range r.Lines {
			if !used[i] && l.Feature == w.feature && l.Where == w.where && l.Note == w.note && strings.Contains(l.Text, w.text) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("no line %+v in\n%s", w, r.Text())
		}
	}
	for i, l := range r.Lines {
		if !used[i] {
			t.Errorf("unexpected line %+v", l)
		}
	}
}

func writePackage(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestReportText(t *testing.T) {
	r := Report{Grade: Partial, Lines: []Line{
		{Feature: FeatureHooks, Where: "hooks/hooks.json", Text: "a"},
		{Feature: FeatureMCP, Where: ".mcp.json", Text: "b", Note: true},
		{Feature: FeaturePackage, Text: "c"},
	}}
	if got, want := r.Summary(), "partial: 2 features unsupported or changed"; got != want {
		t.Errorf("Summary %q, want %q", got, want)
	}
	want := "Compatibility: partial: 2 features unsupported or changed\n" +
		"  - hooks/hooks.json: a\n  - note: .mcp.json: b\n  - c\n"
	if got := r.Text(); got != want {
		t.Errorf("Text:\n%s\nwant:\n%s", got, want)
	}
	for _, tc := range []struct {
		r    Report
		want string
	}{
		{Report{Grade: Full}, "full"},
		{Report{Grade: Full, Lines: []Line{{Text: "n", Note: true}}}, "full"},
		{Report{Grade: Partial, Lines: []Line{{Text: "x"}}}, "partial: 1 feature unsupported or changed"},
		{Report{Grade: None}, "none: nothing in this package works here"},
	} {
		if got := tc.r.Summary(); got != tc.want {
			t.Errorf("Summary of %+v = %q, want %q", tc.r, got, tc.want)
		}
	}
}

// BenchmarkCheck is the cost the install preview and `plugin show` pay
// for the report: it reads the package's files again.
func BenchmarkCheck(b *testing.B) {
	for _, name := range []string{"hookify", "commit-commands"} {
		p, err := plugin.LoadPackage("testdata/" + name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				Check(p)
			}
		})
	}
}

// A legacy native package migrates as the real host migrates it: its
// .mcp.json servers (imported, not started) and hooks/hooks.json hooks are
// written into the v2 manifest, and the report judges them there.
func TestCheckMigratedLegacy(t *testing.T) {
	dir := writePackage(t, map[string]string{
		plugin.ManifestFile:    `{"name": "legacy-kit", "version": "0.3.0", "skills": [{"path": "skills", "description": "the skills"}]}`,
		"skills/tidy/SKILL.md": "---\nname: tidy\ndescription: Tidies\n---\n\nTidy up.\n",
		".mcp.json":            `{"mcpServers": {"notes": {"command": "notes-server"}}}`,
		"hooks/hooks.json":     `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "bye.sh"}]}]}}`,
		"bye.sh":               "#!/bin/sh\n",
	})
	if _, err := plugin.MigrateLegacy(dir); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	p, err := plugin.LoadPackage(dir)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	r := Check(p)
	if r.Grade != Partial || !slices.Equal(r.Mapped, []string{FeatureSkills, FeatureHooks, FeatureMCP}) {
		t.Errorf("grade %q, mapped %q\n%s", r.Grade, r.Mapped, r.Text())
	}
	checkLines(t, r, []want{
		{FeatureMCP, ".mcp.json", `MCP server "notes" does not start with the chat`, true},
		{FeatureHooks, plugin.ManifestFile, `Stop hook "bye.sh" cannot keep the turn going`, false},
	})
}

// Check reads only inside the package: a hooks file or a command that is a
// link to a file outside is not read (the loader names the refusal, and
// that is the only line about it).
func TestCheckStaysInThePackage(t *testing.T) {
	outside := writePackage(t, map[string]string{
		"hooks.json": `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "if": "Bash(*)"}]}]}}`,
		"cmd.md":     "Run !`cat /etc/passwd` with ${CLAUDE_PLUGIN_ROOT}.\n",
	})
	dir := writePackage(t, map[string]string{
		".claude-plugin/plugin.json": `{"name": "linker"}`,
		"commands/ok.md":             "Say hello.\n",
	})
	for link, target := range map[string]string{"hooks/hooks.json": "hooks.json", "commands/evil.md": "cmd.md"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(link)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(outside, target), filepath.Join(dir, link)); err != nil {
			t.Skipf("no symlinks here: %v", err)
		}
	}
	p, err := plugin.LoadPackage(dir)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	r := Check(p)
	t.Log(r.Text())
	for _, l := range r.Lines {
		if strings.Contains(l.Text, "Bash(*)") || strings.Contains(l.Text, "/etc/passwd") || strings.Contains(l.Text, "CLAUDE_PLUGIN_ROOT") {
			t.Errorf("a line from a file outside the package: %s", l)
		}
	}
	if !slices.ContainsFunc(r.Lines, func(l Line) bool {
		return l.Where == "hooks/hooks.json" && l.Feature == FeatureHooks && l.Text == "a link that leaves the package (resolves outside the package folder)"
	}) {
		t.Errorf("the refused hooks file is not named:\n%s", r.Text())
	}
	if !slices.ContainsFunc(r.Lines, func(l Line) bool {
		return l.Feature == FeatureCommands && strings.Contains(l.Text, "evil.md") && !strings.Contains(l.Text, dir)
	}) {
		t.Errorf("the refused command is not named, relative to the package:\n%s", r.Text())
	}
	if !slices.Contains(r.Mapped, FeatureCommands) {
		t.Errorf("the command inside the package did not count: %q", r.Mapped)
	}
}
