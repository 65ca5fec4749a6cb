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
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// skillsPkg writes a package of skills (name -> SKILL.md text) to a
// temp folder, as the loader would give it.
func skillsPkg(t *testing.T, name string, skills map[string]string) plugin.Package {
	t.Helper()
	root := filepath.Join(t.TempDir(), name)
	for dir, body := range skills {
		if err := os.MkdirAll(filepath.Join(root, "skills", dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "skills", dir, "SKILL.md"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return plugin.Package{Name: name, Version: "1.0.0", Root: root, Kind: plugin.PackageClaude,
		Skills: []string{filepath.Join(root, "skills")}}
}

// A package's skills are commands, as the real plugin guide documents:
// /<plugin>:<skill> [args] runs one (an inline skill's body pinned with its
// arguments reaches the model; a subagent skill is asked of run_skill with
// its task), a unique skill also answers to /<skill>, a name two packages
// share only to its qualified form, /skills lists them, and completion and
// the palette (package-kind completions) offer them.
func TestSkillsAreCommands(t *testing.T) {
	t.Parallel()
	fe := &recorder{}
	rules := skillsPkg(t, "hookify", map[string]string{
		"writing-rules": "---\nname: writing-rules\ndescription: Write hookify rules\n---\nWrite the rule in .claude/hookify.NAME.local.md.\n",
		"shared":        "---\nname: shared\ndescription: Hookify's shared skill\n---\nHookify body.\n",
		"explore":       "---\nname: explore\ndescription: Survey the code\nrunAs: subagent\n---\nSurvey.\n",
	})
	other := skillsPkg(t, "other", map[string]string{
		"shared": "---\nname: shared\ndescription: Other's shared skill\n---\nOther body.\n",
		"deploy": "---\nname: deploy\ndescription: The deploy skill\n---\nSkill body.\n",
	})
	// A command of the same package and name wins: /other:deploy runs it
	// and the skill is not offered under that name.
	if err := os.MkdirAll(filepath.Join(other.Root, "commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other.Root, "commands", "deploy.md"), []byte("---\ndescription: Deploy\n---\nDeploy $1 now.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other.Commands = []string{filepath.Join(other.Root, "commands")}
	_, c := openWithPackages(t, fe, rules, other)
	ctx := context.Background()

	for _, tc := range []struct{ line, want string }{
		{"/hookify:writing-rules no force push", "Write the rule in .claude/hookify.NAME.local.md."},
		{"/writing-rules no force push", "Write the rule in .claude/hookify.NAME.local.md."},
		{"/hookify:shared", "Hookify body."},
		{"/other:shared", "Other body."},
	} {
		res, err := c.Exec(ctx, tc.line)
		if err != nil || res.Kind != agent.CommandSend || !strings.HasPrefix(res.Text, "<skill-pin name=") || !strings.Contains(res.Text, tc.want) {
			t.Fatalf("%s: %+v %v, want the pinned skill with %q", tc.line, res, err, tc.want)
		}
		if strings.Contains(tc.line, "force push") && !strings.Contains(res.Text, "no force push") {
			t.Fatalf("%s: the arguments are not in %q", tc.line, res.Text)
		}
	}
	if res, err := c.Exec(ctx, "/other:deploy web"); err != nil || res.Text != "Deploy web now." {
		t.Fatalf("/other:deploy: %+v %v, want the command", res, err)
	}
	if _, err := c.Exec(ctx, "/shared"); !errors.Is(err, agent.ErrUnknownCommand) {
		t.Fatalf("/shared (two packages have it) ran: %v", err)
	}
	if _, err := c.Exec(ctx, "/hookify:explore"); err == nil || !strings.Contains(err.Error(), "say its task") {
		t.Fatalf("a subagent skill without a task: %v", err)
	}
	res, err := c.Exec(ctx, "/hookify:explore where is the config read")
	if err != nil || res.Kind != agent.CommandSend || !strings.Contains(res.Text, `"explore" with run_skill`) ||
		!strings.HasSuffix(res.Text, "where is the config read") {
		t.Fatalf("a subagent skill: %+v %v", res, err)
	}

	res, err = c.Exec(ctx, "/skills")
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, ci := range res.Commands {
		listed = append(listed, ci.Name)
	}
	want := []string{"/hookify:explore", "/hookify:shared", "/hookify:writing-rules", "/other:shared"}
	slices.Sort(listed)
	if !slices.Equal(listed, want) || !strings.Contains(res.Text, "/hookify:writing-rules  Write hookify rules") ||
		!strings.Contains(res.Text, "/hookify:explore  [subagent] Survey the code") {
		t.Fatalf("/skills: %v\n%s", listed, res.Text)
	}
	var offered []string
	for _, ci := range c.Completions() {
		if ci.Kind == agent.CommandKindPackage && ci.Send {
			offered = append(offered, ci.Name)
		}
	}
	for _, w := range append(want, "/skills") {
		if w == "/skills" {
			if !slices.ContainsFunc(c.Completions(), func(ci agent.CommandInfo) bool { return ci.Name == w }) {
				t.Errorf("completion lacks /skills")
			}
			continue
		}
		if !slices.Contains(offered, w) {
			t.Errorf("completion lacks %s: %v", w, offered)
		}
	}

	// The front end sends what the command gave: the model reads the skill.
	res, _ = c.Exec(ctx, "/hookify:writing-rules no force push")
	if err := c.SendAll(ctx, res.Text); err != nil {
		t.Fatal(err)
	}
	if got := fe.text(agent.EventText); !strings.Contains(got, "Write the rule in .claude/hookify.NAME.local.md.") {
		t.Fatalf("model got %q", got)
	}
}
