package agent_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/packages/compat"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// skillFixture builds a plugin.Package from a folder of
// internal/packages/skill/testdata, shaped like a public Reasonix plugin
// (skills/, commands/, prompts/, agents/) but without a manifest, as the
// loader would fill it.
func skillFixture(t *testing.T, name string) plugin.Package {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", "packages", "skill", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	p := plugin.Package{Name: name, Version: "1.0.0", Root: root, Kind: plugin.PackageReasonix}
	for dir, field := range map[string]*[]string{"skills": &p.Skills, "commands": &p.Commands, "prompts": &p.Prompts, "agents": &p.Agents} {
		if _, err := os.Stat(filepath.Join(root, dir)); err == nil {
			*field = []string{filepath.Join(root, dir)}
		}
	}
	return p
}

// openWithPackages opens a core on the echo model whose plugin packages
// are pkgs.
func openWithPackages(t *testing.T, fe agent.Frontend, pkgs ...plugin.Package) (*env, *agent.Core) {
	t.Helper()
	e := newEnv(t)
	e.example(t, "echo-provider")
	c, err := agent.Open(context.Background(), agent.Config{Layout: e.layout, Workspace: e.workspace, Frontend: fe,
		Packages: func() ([]plugin.Package, []error) { return pkgs, nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	if err := c.SetModel(context.Background(), echoModel, ""); err != nil {
		t.Fatal(err)
	}
	return e, c
}

func toolMessages(c *agent.Core) []protocol.ProviderMessage {
	var out []protocol.ProviderMessage
	for _, m := range c.Session().Messages {
		if m.Role == protocol.RoleTool {
			out = append(out, m)
		}
	}
	return out
}

func TestRunSkillInlineReturnsTheBodyWithoutAsking(t *testing.T) {
	t.Parallel()
	fe := &recorder{}
	_, c := openWithPackages(t, fe, skillFixture(t, "review-kit"))
	for _, tc := range []struct{ tool, want string }{
		{"run_skill", "Arguments: feat"},
		{"read_skill", "Arguments: feat"},
	} {
		if err := c.Send(context.Background(), `call `+tc.tool+` {"name":"commit","arguments":"feat"}`); err != nil {
			t.Fatal(err)
		}
		tm := toolMessages(c)
		got := tm[len(tm)-1].Content
		if !strings.HasPrefix(got, `<skill-pin name="commit">`) || !strings.Contains(got, "Read the staged diff") || !strings.Contains(got, tc.want) {
			t.Fatalf("%s result %q", tc.tool, got)
		}
	}
	if len(fe.approved) != 0 {
		t.Fatalf("a skill tool asked for approval: %+v", fe.approved)
	}
	if got := fe.text(agent.EventText); !strings.Contains(got, `Tool result: <skill-pin name="commit">`) {
		t.Fatalf("reply %q", got)
	}
}

func TestSubagentSkillRunsIsolatedWithItsAllowedTools(t *testing.T) {
	t.Parallel()
	fe := &recorder{approve: agent.ApproveOnce}
	e, c := openWithPackages(t, fe, skillFixture(t, "review-kit"))
	if err := os.WriteFile(filepath.Join(e.workspace, "marker.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The sub-turn's only user message is the task: the echo model calls
	// list_dir, which the skill allows, and its answer comes back.
	if err := c.Send(context.Background(), `call run_skill {"name":"explorer [🧬 subagent]","arguments":"call list_dir {}"}`); err != nil {
		t.Fatal(err)
	}
	tm := toolMessages(c)
	if len(tm) != 1 || tm[0].Name != "run_skill" || !strings.HasPrefix(tm[0].Content, "Tool result: ") || !strings.Contains(tm[0].Content, "marker.txt") {
		t.Fatalf("parent's tool messages %+v (the sub-turn's list_dir must stay out of them)", tm)
	}
	if !slices.ContainsFunc(fe.calls(), func(tc agent.ToolCall) bool { return tc.Name == "list_dir" && tc.State == agent.ToolDone }) {
		t.Fatal("the sub-turn's list_dir call showed no card")
	}
	// write_file is not in allowed-tools: refused without running.
	if err := c.Send(context.Background(), `call run_skill {"name":"explorer","arguments":"call write_file {\"path\":\"w.txt\",\"content\":\"no\"}"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(e.workspace, "w.txt")); err == nil {
		t.Fatal("a tool outside allowed-tools ran")
	}
	tm = toolMessages(c)
	if got := tm[len(tm)-1].Content; got != `Tool result: error: tool "write_file" is not available to skill "explorer"` {
		t.Fatalf("refusal %q", got)
	}
	// A subagent without arguments is refused as the Reasonix host does.
	if err := c.Send(context.Background(), `call run_skill {"name":"explorer"}`); err != nil {
		t.Fatal(err)
	}
	tm = toolMessages(c)
	if got := tm[len(tm)-1].Content; !strings.Contains(got, "is a subagent and requires 'arguments'") {
		t.Fatalf("no-arguments result %q", got)
	}
}

func TestPackageCommandsExpandAndAreListed(t *testing.T) {
	t.Parallel()
	fe := &recorder{}
	_, c := openWithPackages(t, fe, skillFixture(t, "review-kit"), skillFixture(t, "other-kit"))
	ctx := context.Background()
	for _, tc := range []struct{ line, want string }{
		{"/review-kit:review src/a.go  src/b.go", "Review src/a.go src/b.go for bugs. Cost: $5."},
		{"/review-kit:git:commit feat ui", `Commit type feat in scope ui (third: "").`},
		{"/deploy web prod", "Deploy web to prod now."},                                // a unique name: the short alias runs
		{"/review-kit:summarize the design", "Summarize the design in three bullets."}, // a prompt
	} {
		res, err := c.Exec(ctx, tc.line)
		if err != nil || res.Kind != agent.CommandSend || res.Text != tc.want {
			t.Fatalf("%s: %+v %v, want %q", tc.line, res, err, tc.want)
		}
	}
	// review is in two packages: no short alias; /help stays the built-in.
	if _, err := c.Exec(ctx, "/review x"); !errors.Is(err, agent.ErrUnknownCommand) {
		t.Fatalf("/review: %v", err)
	}
	if res, err := c.Exec(ctx, "/help"); err != nil || res.Kind != agent.CommandHelp {
		t.Fatalf("/help: %+v %v", res, err)
	}
	res, err := c.Exec(ctx, "/actions")
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, ci := range res.Commands {
		listed = append(listed, ci.Name)
		if ci.Name == "/review-kit:review" && (!ci.Send || ci.Description != "<path>  Review a file for bugs") {
			t.Fatalf("listing %+v", ci)
		}
	}
	for _, want := range []string{"/review-kit:review", "/other-kit:review", "/other-kit:deploy", "/review-kit:summarize"} {
		if !slices.Contains(listed, want) {
			t.Fatalf("/actions lacks %s: %v", want, listed)
		}
	}
	if slices.Contains(listed, "/deploy") {
		t.Fatal("a hidden short alias is listed")
	}
	var completions []string
	for _, ci := range c.Completions() {
		completions = append(completions, ci.Name)
	}
	for _, want := range []string{"/help", "/agent", "/review-kit:git:commit"} {
		if !slices.Contains(completions, want) {
			t.Fatalf("completions lack %s: %v", want, completions)
		}
	}
	// The front end sends the expansion: the model receives it.
	sent, _ := c.Exec(ctx, "/review-kit:review main.go")
	if err := c.SendAll(ctx, sent.Text); err != nil {
		t.Fatal(err)
	}
	if got := fe.text(agent.EventText); got != "Echo: Review main.go for bugs. Cost: $5." {
		t.Fatalf("model got %q", got)
	}
}

func TestAgentProfileFiltersToolsAndIsKept(t *testing.T) {
	t.Parallel()
	fe := &recorder{approve: agent.ApproveOnce}
	e, c := openWithPackages(t, fe, skillFixture(t, "review-kit"))
	ctx := context.Background()
	res, err := c.Exec(ctx, "/agent")
	if err != nil || !strings.Contains(res.Text, "reviewer  A strict code reviewer (review-kit; read_file, list_dir)") {
		t.Fatalf("/agent: %+v %v", res, err)
	}
	if _, err := c.Exec(ctx, "/agent nobody"); err == nil || !strings.Contains(err.Error(), `no agent profile "nobody"`) {
		t.Fatalf("/agent nobody: %v", err)
	}
	if _, err := c.Exec(ctx, "/agent reviewer"); err != nil {
		t.Fatal(err)
	}
	if c.Session().Agent != "reviewer" {
		t.Fatalf("session agent %q", c.Session().Agent)
	}
	write := `call write_file {"path":"o.txt","content":"x"}`
	if err := c.Send(ctx, write); err != nil {
		t.Fatal(err)
	}
	tm := toolMessages(c)
	if got := tm[len(tm)-1].Content; got != `error: there is no tool named "write_file"` {
		t.Fatalf("under the profile write_file gave %q", got)
	}
	// The choice is saved with the session and comes back with it.
	store, _ := agent.NewSessionStore(e.layout.SessionsDir())
	saved, err := store.Load(c.Session().ID)
	if err != nil || saved.Agent != "reviewer" {
		t.Fatalf("saved agent %q %v", saved.Agent, err)
	}
	if _, err := c.Exec(ctx, "/agent off"); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(ctx, write); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(e.workspace, "o.txt")); err != nil {
		t.Fatal("after /agent off write_file did not run")
	}
}

func TestSessionWithoutAgentFieldLoads(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := `{"version":1,"id":"6f1f0c3e-2b8a-4c1e-9a77-0d5b2f1e8c11","workspaceRoot":"/w","created":"2026-01-01T00:00:00Z","updated":"2026-01-01T00:00:00Z","messages":[]}`
	if err := os.WriteFile(filepath.Join(dir, "6f1f0c3e-2b8a-4c1e-9a77-0d5b2f1e8c11.json"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	store, err := agent.NewSessionStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.Load("6f1f0c3e-2b8a-4c1e-9a77-0d5b2f1e8c11")
	if err != nil || s.Agent != "" {
		t.Fatalf("old session: %+v %v", s, err)
	}
}

// An agent profile whose every listed tool is unknown here (another host's
// names this one does not map) runs without tools, and the user is told
// which names it listed, once, instead of the model silently having none.
// Claude's names it does map select the built-ins.
func TestAgentWithNoKnownToolIsNamed(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	agents := filepath.Join(root, "agents")
	if err := os.MkdirAll(agents, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, tools := range map[string]string{"ghost": "Teleport, Frobnicate", "explorer": "Glob, Grep, Read"} {
		body := "---\nname: " + name + "\ndescription: d\ntools: " + tools + "\n---\nPrompt.\n"
		if err := os.WriteFile(filepath.Join(agents, name+".md"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkg := plugin.Package{Name: "odd-kit", Version: "1.0.0", Root: root, Kind: plugin.PackageReasonix, Agents: []string{agents}}
	fe := &recorder{}
	_, c := openWithPackages(t, fe, pkg)
	ctx := context.Background()
	if _, err := c.Exec(ctx, "/agent ghost"); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := c.Send(ctx, "hello"); err != nil {
			t.Fatal(err)
		}
	}
	var named []string
	for _, ev := range fe.eventsOf(agent.EventNotice) {
		if strings.Contains(ev.Text, "ghost") {
			named = append(named, ev.Text)
		}
	}
	if len(named) != 1 || !strings.Contains(named[0], "Teleport, Frobnicate") || !strings.Contains(named[0], "without tools") {
		t.Fatalf("notices %q", named)
	}
	if _, err := c.Exec(ctx, "/agent explorer"); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(ctx, `call grep {"pattern":"x"}`); err != nil {
		t.Fatal(err)
	}
	tm := toolMessages(c)
	if got := tm[len(tm)-1].Content; strings.Contains(got, "there is no tool") {
		t.Fatalf("the explorer's Grep did not select grep: %q", got)
	}
}

// What a package names that this host cannot honour (an agent's tool no
// name maps to) is in its compatibility report: the install preview the
// user authorizes and the manifest view.
func TestCompatWarningsReachThePreviewAndTheManifest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.open(t, &recorder{})
	src, err := filepath.Abs(filepath.Join("..", "..", "packages", "skill", "testdata", "feature-dev"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	pv, err := c.PreviewPluginInstall(ctx, agent.InstallRequest{Source: src, Link: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pv.Text, "Compatibility: partial") || !strings.Contains(pv.Text, "  - agents/searcher.md: ") || !strings.Contains(pv.Text, "Frobnicate") {
		t.Fatalf("the preview does not name what selects nothing:\n%s", pv.Text)
	}
	if pv.Compat.Grade != compat.Partial || !slices.ContainsFunc(pv.Compat.Lines, func(l compat.Line) bool {
		return l.Where == "agents/searcher.md" && strings.Contains(l.Text, "Frobnicate")
	}) {
		t.Fatalf("the preview's report %+v", pv.Compat)
	}
	if _, err := c.InstallPlugin(ctx, pv); err != nil {
		t.Fatal(err)
	}
	m, err := c.PluginManifest(pv.Name)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(m.Warnings, func(w string) bool { return strings.Contains(w, "Frobnicate") }) {
		t.Fatalf("manifest warnings %q", m.Warnings)
	}
	if !strings.Contains(m.Compat.Text(), "Frobnicate") {
		t.Fatalf("the manifest's report:\n%s", m.Compat.Text())
	}
	// The plugin manager's list carries the same report.
	i := slices.IndexFunc(c.Plugins(), func(p agent.PluginInfo) bool { return p.Name == pv.Name })
	if i < 0 || c.Plugins()[i].Compat == nil || c.Plugins()[i].Compat.Text() != m.Compat.Text() {
		t.Fatalf("Plugins()[%d] report: %+v", i, c.Plugins())
	}
	// The doctor says what the preview said: the grade, then each line once.
	r, err := c.PluginDoctor(ctx, pv.Name)
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(r.Notes, "\n")
	if !strings.Contains(notes, "compatibility: "+m.Compat.Summary()) || strings.Count(notes, "Frobnicate") != strings.Count(m.Compat.Text(), "Frobnicate") {
		t.Fatalf("the doctor's notes do not follow the report:\n%s\nreport:\n%s", notes, m.Compat.Text())
	}
}
