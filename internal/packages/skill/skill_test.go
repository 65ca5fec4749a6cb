package skill_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/packages/skill"
)

func fixture(t *testing.T, parts ...string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join(append([]string{"testdata"}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSplitFrontmatter(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     map[string]string
		body     string
	}{
		{"none", "just body\n", map[string]string{}, "just body\n"},
		{"basic", "---\nName: x\ndescription: \"quoted: yes\"\n---\nbody", map[string]string{"name": "x", "description": "quoted: yes"}, "body"},
		{"crlf and bom", "\uFEFF---\r\nname: y\r\n---\r\nb\r\n", map[string]string{"name": "y"}, "b\n"},
		{"list", "---\nallowed-tools:\n  - read_file\n  - 'grep'\nnext: 1\n---\n", map[string]string{"allowed-tools": "read_file, grep", "next": "1"}, ""},
		{"section flattens", "---\nmetadata:\n  type: t\n---\n", map[string]string{"type": "t"}, ""},
		{"unclosed", "---\nname: z\nbody", map[string]string{}, "---\nname: z\nbody"},
		{"last wins", "---\na: 1\na: 2\n---\n", map[string]string{"a": "2"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fm, body := skill.SplitFrontmatter(tc.in)
			if !reflect.DeepEqual(fm, tc.want) || body != tc.body {
				t.Fatalf("got %q %q, want %q %q", fm, body, tc.want, tc.body)
			}
		})
	}
}

func FuzzSplitFrontmatter(f *testing.F) {
	for _, s := range []string{"", "---", "---\n---", "---\na: b\n---\nbody", "---\nk:\n- a\n-\n---", "\uFEFF---\r\nx:'y'\r\n---",
		"---\nd: |2-\n   a\n\n  b\n---", "---\nd: >+\n a\n  b\n\n---\n", "---\nd: \"a\\u4F60\\\n b\"\n---", "---\nd: x\n  y\n---"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fm, body := skill.SplitFrontmatter(s)
		for k := range fm {
			if k != strings.ToLower(strings.TrimSpace(k)) {
				t.Fatalf("key %q not normalised", k)
			}
		}
		// A body is a tail of the normalised input: nothing is invented.
		norm := strings.TrimPrefix(strings.ReplaceAll(s, "\r\n", "\n"), "\uFEFF")
		if !strings.HasSuffix(norm, body) {
			t.Fatalf("body %q is not a tail of %q", body, norm)
		}
	})
}

func loadFixtureSkills(t *testing.T) []skill.Skill {
	t.Helper()
	sks, errs := skill.LoadSkills([]skill.Root{
		{Path: fixture(t, "review-kit", "skills"), Plugin: "review-kit"},
		{Path: fixture(t, "other-kit", "skills", "single"), Plugin: "other-kit"},
	})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return sks
}

func TestLoadSkills(t *testing.T) {
	sks := loadFixtureSkills(t)
	got := map[string]skill.Skill{}
	var names []string
	for _, s := range sks {
		got[s.Name] = s
		names = append(names, s.Name)
	}
	if want := []string{"commit", "explorer", "forker", "single"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("names %v, want %v (scripts/ is skipped, nested folders searched)", names, want)
	}
	for _, tc := range []struct {
		name  string
		runAs skill.RunAs
		tools []string
	}{
		{"commit", skill.RunInline, nil},
		{"explorer", skill.RunSubagent, []string{"read_file", "list_dir"}}, // runAs: subagent, YAML list
		{"forker", skill.RunSubagent, nil},                                 // context: fork
		{"single", skill.RunSubagent, nil},                                 // agent: …
	} {
		s := got[tc.name]
		if s.RunAs != tc.runAs || !reflect.DeepEqual(s.AllowedTools, tc.tools) {
			t.Errorf("%s: runAs %s tools %v, want %s %v", tc.name, s.RunAs, s.AllowedTools, tc.runAs, tc.tools)
		}
	}
	if c := got["commit"]; !strings.Contains(c.Body, "## Reference: style\n\nSubject lines") || c.Plugin != "review-kit" {
		t.Fatalf("commit body lacks its reference: %q", c.Body)
	}
	// The same skill name twice in one package: the first keeps it.
	flat := filepath.Join(t.TempDir(), "commit.md")
	if err := os.WriteFile(flat, []byte("another commit"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs := skill.LoadSkills([]skill.Root{
		{Path: fixture(t, "review-kit", "skills"), Plugin: "a"},
		{Path: flat, Plugin: "a"},
	})
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `skill "commit" of a`) {
		t.Fatalf("shadowing not reported: %v", errs)
	}
}

func TestLoadSkillsNamespacesClashes(t *testing.T) {
	sks, errs := skill.LoadSkills([]skill.Root{
		{Path: fixture(t, "review-kit", "skills"), Plugin: "a"},
		{Path: fixture(t, "review-kit", "skills", "commit"), Plugin: "b"},
	})
	if len(errs) != 1 || !errors.Is(errs[0], skill.ErrNameClash) || !strings.HasSuffix(errs[0].Error(), `: skill "commit" is in a and b: named a:commit and b:commit`) {
		t.Fatalf("the clash is not named: %v", errs)
	}
	for _, tc := range []struct{ name, plugin string }{{"a:commit", "a"}, {"b:commit", "b"}, {"explorer", "a"}} {
		sk, ok := skill.Find(sks, tc.name)
		if !ok || sk.Plugin != tc.plugin {
			t.Errorf("skill %s: %+v %v, want the one of %s", tc.name, sk.Plugin, ok, tc.plugin)
		}
	}
	if _, ok := skill.Find(sks, "commit"); ok {
		t.Fatal("the bare name still resolves to one package")
	}
	out, err := skill.ReadSkill(sks, json.RawMessage(`{"name":"b:commit"}`))
	if err != nil || !strings.Contains(out, "plugin b") {
		t.Fatalf("read_skill b:commit: %v %.80q", err, out)
	}
}

func TestIndexBlock(t *testing.T) {
	idx := skill.IndexBlock(loadFixtureSkills(t))
	for _, want := range []string{
		"# Skills — playbooks you can invoke",
		"- commit — Write a conventional commit message for the staged changes",
		"- explorer [🧬 subagent] — Survey the codebase",
		"run_skill({ name: \"<skill-name>\"",
	} {
		if !strings.Contains(idx, want) {
			t.Errorf("index lacks %q:\n%s", want, idx)
		}
	}
	if strings.Contains(idx, "Read the staged diff") {
		t.Fatal("a body reached the index")
	}
	if skill.IndexBlock(nil) != "" {
		t.Fatal("an empty index is not empty")
	}
	many := make([]skill.Skill, 200)
	for i := range many {
		many[i] = skill.Skill{Name: "s" + strings.Repeat("x", 20), Description: strings.Repeat("d", 300)}
	}
	big := skill.IndexBlock(many)
	if !strings.Contains(big, "… (truncated ") || len([]rune(big)) > skill.IndexMaxChars+2000 {
		t.Fatalf("index not capped: %d runes", len([]rune(big)))
	}
}

func TestSkillTools(t *testing.T) {
	sks := loadFixtureSkills(t)
	var ranTask string
	runner := func(_ context.Context, sk skill.Skill, task string) (string, error) {
		ranTask = sk.Name + ":" + task
		return "answer", nil
	}
	args := func(name, a string) json.RawMessage {
		b, _ := json.Marshal(map[string]string{"name": name, "arguments": a})
		return b
	}
	for _, tc := range []struct {
		tool, name, args string
		want, err        string
	}{
		{"run", "commit", "feat", `<skill-pin name="commit">` + "\n# Skill: commit", ""},
		{"run", "explorer [🧬 subagent]", "find X", "answer", ""},
		{"run", "explorer", "", "", "requires 'arguments'"},
		{"run", "nope", "", "", `unknown skill "nope" — available: commit, explorer, forker, single`},
		{"run", "[🧬 subagent]", "", "", "requires a 'name' argument"},
		{"read", "commit", "x", "Arguments: x\n</skill-pin>", ""},
		{"read", "explorer", "", "", "must be executed, not read"},
	} {
		var out string
		var err error
		if tc.tool == "run" {
			out, err = skill.RunSkill(context.Background(), sks, args(tc.name, tc.args), runner)
		} else {
			out, err = skill.ReadSkill(sks, args(tc.name, tc.args))
		}
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s %s: err %v, want %q", tc.tool, tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || !strings.Contains(out, tc.want) {
			t.Errorf("%s %s: %q %v, want %q", tc.tool, tc.name, out, err, tc.want)
		}
	}
	if ranTask != "explorer:find X" {
		t.Fatalf("subagent ran %q", ranTask)
	}
	if _, err := skill.RunSkill(context.Background(), sks, args("explorer", "x"), nil); err == nil {
		t.Fatal("a subagent skill ran inline without a runner")
	}
}

func TestCommands(t *testing.T) {
	builtin := func(n string) bool { return n == "help" }
	cmds, errs := skill.LoadCommands([]skill.Root{
		{Path: fixture(t, "review-kit", "commands"), Plugin: "review-kit"},
		{Path: fixture(t, "other-kit", "commands"), Plugin: "other-kit"},
	}, builtin)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var names []string
	byName := map[string]skill.Command{}
	for _, c := range cmds {
		n := c.Name
		if c.Hidden {
			n += "(hidden)"
		}
		names = append(names, n)
		byName[c.Name] = c
	}
	// review is in both packages: only the qualified names; help is a
	// built-in: no alias; deploy and git:commit are unique: hidden aliases.
	want := []string{"deploy(hidden)", "git:commit(hidden)", "other-kit:deploy", "other-kit:help", "other-kit:review", "review-kit:git:commit", "review-kit:review"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("names %v, want %v", names, want)
	}
	for _, tc := range []struct {
		cmd, args, want string
	}{
		{"review-kit:review", "  src/a.go   src/b.go ", "Review src/a.go src/b.go for bugs. Cost: $5."},
		{"review-kit:git:commit", "feat ui", `Commit type feat in scope ui (third: "").`},
		{"deploy", "web prod extra", "Deploy web to prod now."},
		{"other-kit:review", "", "Other review of ."},
	} {
		if got := byName[tc.cmd].Render(tc.args); got != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.cmd, tc.args, got, tc.want)
		}
	}
	if c := byName["review-kit:review"]; c.Description != "Review a file for bugs" || c.ArgHint != "<path>" || c.ShortName != "review" {
		t.Fatalf("frontmatter: %+v", c)
	}
}

func TestAgents(t *testing.T) {
	ags, errs := skill.LoadAgents([]skill.Root{{Path: fixture(t, "review-kit", "agents"), Plugin: "review-kit"}})
	if len(errs) > 0 || len(ags) != 1 {
		t.Fatal(ags, errs)
	}
	a := ags[0]
	if a.Name != "reviewer" || a.Prompt != "You are a strict code reviewer. Only read; never write." ||
		!reflect.DeepEqual(a.Tools, []string{"read_file", "list_dir"}) || !a.Allows("read_file") || a.Allows("write_file") {
		t.Fatalf("agent %+v", a)
	}
	if (skill.Agent{}).Allows("anything") != true {
		t.Fatal("an agent without a list refuses tools")
	}
}
