package agent

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
)

// quietFrontend drops events and declines everything.
type quietFrontend struct{}

func (quietFrontend) Emit(Event)                                        {}
func (quietFrontend) Approve(context.Context, ApprovalRequest) Approval { return ApproveDeny }
func (quietFrontend) Prompt(context.Context, *surfaces.Prompt) (map[string]any, bool) {
	return nil, true
}

// The system prompt a turn starts from and the tools it offers, with and
// without an agent profile, and after the packages change.
func TestSystemPromptAndToolsFollowSkillsAndAgent(t *testing.T) {
	t.Parallel()
	root, _ := filepath.Abs(filepath.Join("..", "..", "packages", "skill", "testdata", "review-kit"))
	pkg := plugin.Package{Name: "review-kit", Root: root, Skills: []string{filepath.Join(root, "skills")},
		Agents: []string{filepath.Join(root, "agents")}}
	pkgs := []plugin.Package{pkg}
	layout := plugin.Layout{Root: t.TempDir()}
	if err := layout.EnsureDirs(); err != nil {
		t.Fatal(err)
	}
	c, err := Open(context.Background(), Config{Layout: layout, Workspace: t.TempDir(), Frontend: quietFrontend{},
		Packages: func() ([]plugin.Package, []error) { return pkgs, nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	names := func() []string {
		var out []string
		for _, tl := range c.toolset() {
			out = append(out, tl.Name)
		}
		return out
	}
	for _, tc := range []struct {
		name      string
		agent     string
		pkgs      []plugin.Package
		prompt    []string // substrings the prompt has
		notPrompt []string
		tools     []string
		notTools  []string
	}{
		{"skills", "", pkgs,
			[]string{BaseSystemPrompt, "# Skills — playbooks you can invoke", "- explorer [🧬 subagent] — Survey"},
			[]string{"Read the staged diff"}, []string{"run_skill", "read_skill", "write_file"}, nil},
		{"agent without run_skill", "reviewer", pkgs,
			[]string{"You are a strict code reviewer."}, []string{BaseSystemPrompt, "# Skills"},
			[]string{"read_file", "list_dir"}, []string{"write_file", "run_command", "run_skill"}},
		{"no packages", "", nil,
			[]string{BaseSystemPrompt}, []string{"# Skills"}, []string{"write_file"}, []string{"run_skill"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pkgs = tc.pkgs
			c.reloadPackages()
			c.mu.Lock()
			c.session.Agent = tc.agent
			c.mu.Unlock()
			p := c.systemPrompt()
			for _, s := range tc.prompt {
				if !strings.Contains(p, s) {
					t.Errorf("prompt lacks %q:\n%s", s, p)
				}
			}
			for _, s := range tc.notPrompt {
				if strings.Contains(p, s) {
					t.Errorf("prompt has %q", s)
				}
			}
			got := names()
			for _, s := range tc.tools {
				if !slices.Contains(got, s) {
					t.Errorf("tools %v lack %s", got, s)
				}
			}
			for _, s := range tc.notTools {
				if slices.Contains(got, s) {
					t.Errorf("tools %v have %s", got, s)
				}
			}
		})
	}
}
