package skill_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/packages/skill"
)

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// loadAsCore loads pkg's contributions as the core does (one Root per path,
// the package root confining the reads).
func loadAsCore(t *testing.T, pkg plugin.Package) (sks []skill.Skill, cmds []skill.Command, ags []skill.Agent) {
	t.Helper()
	at := func(paths []string) []skill.Root {
		var out []skill.Root
		for _, p := range paths {
			out = append(out, skill.Root{Path: p, Plugin: pkg.Name, Package: pkg.Root})
		}
		return out
	}
	sks, _ = skill.LoadSkills(at(pkg.Skills))
	cmds, _ = skill.LoadCommands(append(at(pkg.Prompts), at(pkg.Commands)...), nil)
	ags, _ = skill.LoadAgents(at(pkg.Agents))
	return sks, cmds, ags
}

// A Claude package of 13 skill folders whose skills/ also holds loose
// documents (a README, notes, nested docs without a description, as
// published skill collections do): the preview listed 13 and the runtime
// 50, the documents crowding the 4,000-character index so that none of the
// 13 showed. Now both list the 13, by the same names.
func TestPreviewAndRuntimeListTheSameSkills(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		".claude-plugin/plugin.json": `{"name":"collection","version":"1.0.0"}`,
		"skills/README.md":           "# The collection\n\nThirteen skills.\n",
		"skills/CONTRIBUTING.md":     "How to add a skill.\n",
	}
	var want []string
	for i := range 13 {
		name := fmt.Sprintf("skill-%02d", i)
		want = append(want, name)
		files["skills/"+name+"/SKILL.md"] = "---\nname: " + name + "\ndescription: Playbook number " + name + "\n---\nDo " + name + ".\n"
	}
	for i := range 37 {
		// Loose documents: in skills/ itself and in folders beside the
		// skills, none marked as a skill.
		files[fmt.Sprintf("skills/docs/guide-%02d.md", i)] = strings.Repeat("A long guide paragraph. ", 20) + "\n"
	}
	writeTree(t, root, files)
	pkg, err := plugin.LoadPackage(root)
	if err != nil {
		t.Fatal(err)
	}
	inv := pkg.Inventory()
	sks, _, _ := loadAsCore(t, pkg)
	var names []string
	for _, s := range sks {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, want) || !slices.Equal(inv.Skills, want) {
		t.Fatalf("runtime %d %v\npreview %d %v\nwant %v", len(names), names, len(inv.Skills), inv.Skills, want)
	}
	index := skill.IndexBlock(sks)
	for _, n := range want {
		if !strings.Contains(index, "- "+n+" — Playbook number") {
			t.Fatalf("the index lacks %s:\n%s", n, index)
		}
	}
}

// hookify's skill is titled "Writing Hookify Rules" in its frontmatter name,
// which is no name: it runs as writing-rules, and the preview said the title.
func TestSkillTitleIsNotItsName(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".claude-plugin/plugin.json":        `{"name":"hookify","version":"0.1.0"}`,
		"skills/writing-rules/SKILL.md":     "---\nname: Writing Hookify Rules\ndescription: How to write a rule\nversion: 0.1.0\n---\nRules go in .claude/.\n",
		"commands/hookify.md":               "---\ndescription: Make a rule\n---\nRule: $ARGUMENTS\n",
		"commands/help/list.md":             "List the rules.\n",
		"commands/Bad Name.md":              "never a command\n",
		"agents/conversation-analyzer.md":   "---\nname: conversation-analyzer\ntools: [\"Read\"]\n---\nAnalyze.\n",
		"agents/Titled.md":                  "---\nname: A Title Too\n---\nNamed by its file.\n",
		"skills/writing-rules/examples.md":  "an example beside SKILL.md, part of the skill\n",
		"skills/writing-rules/references/a": "not markdown",
	})
	pkg, err := plugin.LoadPackage(root)
	if err != nil {
		t.Fatal(err)
	}
	inv := pkg.Inventory()
	sks, cmds, ags := loadAsCore(t, pkg)
	if len(sks) != 1 || sks[0].Name != "writing-rules" || !slices.Equal(inv.Skills, []string{"writing-rules"}) {
		t.Fatalf("runtime %+v, preview %v", sks, inv.Skills)
	}
	var short []string
	for _, c := range cmds {
		if !c.Hidden {
			short = append(short, "/"+c.ShortName)
		}
	}
	slices.Sort(short)
	got := slices.Clone(inv.Commands)
	slices.Sort(got)
	if !slices.Equal(short, got) || !slices.Equal(got, []string{"/help:list", "/hookify"}) {
		t.Fatalf("runtime commands %v, preview %v", short, got)
	}
	var agents []string
	for _, a := range ags {
		agents = append(agents, a.Name)
	}
	if !slices.Equal(agents, inv.Agents) || !slices.Equal(agents, []string{"Titled", "conversation-analyzer"}) {
		t.Fatalf("runtime agents %v, preview %v", agents, inv.Agents)
	}
}

// A native package keeps the host's looser rule: a flat .md in a skills
// folder is a skill without frontmatter; nested ones need a description.
func TestNativePackageFlatSkills(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"reasonix-plugin.json":       `{"apiVersion":"reasonix.io/plugin/v2","name":"native","version":"1.0.0","contributes":{"skills":["skills"]}}`,
		"skills/quick.md":            "Do it quickly.\n",
		"skills/deep/notes.md":       "no description: a document\n",
		"skills/deep/described.md":   "---\ndescription: a nested playbook\n---\nbody\n",
		"skills/deep/inner/SKILL.md": "---\nname: inner\n---\nno description, nested: not listed\n",
	})
	pkg, err := plugin.LoadPackage(root)
	if err != nil {
		t.Fatal(err)
	}
	sks, _, _ := loadAsCore(t, pkg)
	var names []string
	for _, s := range sks {
		names = append(names, s.Name)
	}
	if want := []string{"described", "quick"}; !slices.Equal(names, want) || !slices.Equal(pkg.Inventory().Skills, want) {
		t.Fatalf("runtime %v preview %v, want %v", names, pkg.Inventory().Skills, want)
	}
}
