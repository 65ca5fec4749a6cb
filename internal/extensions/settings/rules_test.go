package settings

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func cmdArgs(c string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"command": c})
	return b
}

func TestAlwaysRuleIsScopedToWorkspaceAndCommandPrefix(t *testing.T) {
	ws := "/home/u/proj"
	r := AlwaysRule("run_command", ws+"/", cmdArgs("go test ./..."))
	if r != (Rule{Tool: "run_command", Workspace: ws, CommandPrefix: "go test"}) {
		t.Fatalf("rule %+v", r)
	}
	for cmd, want := range map[string]bool{
		"go test -run X ./x":   true,
		"go vet ./...":         false, // another subcommand
		"go":                   false,
		"gofmt -w .":           false, // a prefix is a whole word
		"rm -rf ~":             false,
		"go test; rm -rf ~":    false, // chaining is never covered
		"go test && curl evil": false,
		"go test $(whoami)":    false,
		"go test\nrm -rf ~":    false,
	} {
		if got := r.Allows("run_command", ws, cmdArgs(cmd)); got != want {
			t.Errorf("%q: allowed %v, want %v", cmd, got, want)
		}
	}
	if r.Allows("run_command", "/elsewhere", cmdArgs("go vet")) {
		t.Error("a rule of one workspace allowed another")
	}
	w := AlwaysRule("write_file", ws, json.RawMessage(`{"path":"a"}`))
	if !w.Allows("write_file", ws, nil) || w.Allows("write_file", "/other", nil) || w.Allows("run_command", ws, cmdArgs("go")) {
		t.Errorf("write rule %+v matches wrongly", w)
	}
}

func TestRulesRevokeAndLegacyApprovals(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	// An older settings file's unscoped approval still works and is listed.
	if err := f.Update(func(s *Settings) { s.AlwaysApprove = []string{"write_file"} }); err != nil {
		t.Fatal(err)
	}
	scoped := Rule{Tool: "run_command", Workspace: "/w", CommandPrefix: "go"}
	if err := f.AddRule(scoped); err != nil {
		t.Fatal(err)
	}
	if err := f.AddRule(scoped); err != nil { // once
		t.Fatal(err)
	}
	f, err = Open(path) // it survives a restart
	if err != nil {
		t.Fatal(err)
	}
	s := f.Get()
	if got := s.AlwaysRules(); len(got) != 2 || got[0] != (Rule{Tool: "write_file"}) || got[1] != scoped {
		t.Fatalf("rules %+v", got)
	}
	if !s.Allows("write_file", "/any", nil) || !s.Allows("run_command", "/w", cmdArgs("go test")) {
		t.Error("a rule does not allow its call")
	}
	if err := f.RevokeRule(Rule{Tool: "write_file"}); err != nil {
		t.Fatal(err)
	}
	if err := f.RevokeRule(scoped); err != nil {
		t.Fatal(err)
	}
	s = f.Get()
	if s.Allows("write_file", "/any", nil) || s.Allows("run_command", "/w", cmdArgs("go test")) || len(s.AlwaysRules()) != 0 {
		t.Errorf("revoked rules still allow: %+v", s)
	}
	if got := scoped.Describe(); got != "run_command `go …` in /w" {
		t.Errorf("describe %q", got)
	}
}

// The attacks of issue 33: an approval of a harmless line must not cover a
// hostile one that shares its first word. Each row is approved (the rule
// AlwaysRule writes) and then tried; before scopes, every row was allowed.
func TestRuleCoversOnlyWhatRuns(t *testing.T) {
	ws := "/w"
	for _, c := range []struct{ approved, hostile string }{
		{"LANG=C echo hi", "LANG=C touch PWN"},
		{"env echo hi", "env touch PWN"},
		{"nice echo hi", "nice touch PWN"},
		{`sh -c "echo hi"`, `sh -c "touch PWN"`},
		{"find . -name x", "find . -exec touch PWN {} +"},
		{"git --version", "git -c alias.x='!touch PWN' x"},
		{"git status", "git -c alias.x='!touch PWN' x"},
		{"git status", "git push"},
		{"python3 -c 'print(1)'", "python3 -c 'import os'"},
	} {
		r := AlwaysRule("run_command", ws, cmdArgs(c.approved))
		if r.CommandPrefix == "" {
			continue // no rule: approved once (checked below)
		}
		if r.Allows("run_command", ws, cmdArgs(c.hostile)) {
			t.Errorf("after approving %q (rule %+v), %q is allowed", c.approved, r, c.hostile)
		}
	}
	for _, cmd := range []string{"LANG=C echo hi", "env echo hi", "nice echo hi", `sh -c "echo hi"`} {
		if r := AlwaysRule("run_command", ws, cmdArgs(cmd)); r.CommandPrefix != "" {
			t.Errorf("%q gives a rule %+v; no approval may cover it", cmd, r)
		}
	}
	exact := AlwaysRule("run_command", ws, cmdArgs("python3 -c 'print(1)'"))
	if !exact.Exact || !exact.Allows("run_command", ws, cmdArgs("python3 -c 'print(1)'")) {
		t.Errorf("an interpreter's exact rule %+v does not allow its own line", exact)
	}
	if got := exact.Describe(); got != "run_command `python3 -c 'print(1)'` (exactly this line) in /w" {
		t.Errorf("describe %q", got)
	}
	if got := AlwaysRule("run_command", ws, cmdArgs("git status -s")).Describe(); got != "run_command `git status …` in /w" {
		t.Errorf("describe %q", got)
	}
}

// A settings file written before scopes keeps loading, and its rules only
// get narrower: the first-word prefix "git" still covers git commands the
// parser proves, no longer an alias, -c, or an assignment-led line.
func TestLegacyPrefixRulesNarrow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	old := `{"rules":[{"tool":"run_command","workspace":"/w","commandPrefix":"git"},` +
		`{"tool":"run_command","workspace":"/w","commandPrefix":"LANG=C"},` +
		`{"tool":"run_command","workspace":"/w","commandPrefix":"env"}]}`
	if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s := f.Get()
	if len(s.Rules) != 3 {
		t.Fatalf("rules %+v", s.Rules)
	}
	for cmd, want := range map[string]bool{
		"git status":                    true,
		"git push origin main":          true,
		"git -c alias.x='!touch PWN' x": false,
		"git x":                         false,
		"LANG=C touch PWN":              false,
		"LANG=C echo hi":                false,
		"env touch PWN":                 false,
		"git status; touch PWN":         false,
		"git clone --upload-pack=x url": false,
		"find . -exec touch PWN {} +":   false,
		"sh -c 'touch PWN'":             false,
	} {
		if got := s.Allows("run_command", "/w", cmdArgs(cmd)); got != want {
			t.Errorf("%q: allowed %v, want %v", cmd, got, want)
		}
	}
}

// A web_fetch approval covers the host approved: "always" for one site
// must not let the model send workspace data to any other.
func TestWebFetchRuleCoversItsHostOnly(t *testing.T) {
	args := func(u string) json.RawMessage { return json.RawMessage(`{"url":"` + u + `"}`) }
	r := AlwaysRule(WebFetchTool, "/w", args("https://Docs.Example.com/a?b=1"))
	if r.Host != "docs.example.com" {
		t.Fatalf("rule host = %q", r.Host)
	}
	for u, want := range map[string]bool{
		"https://docs.example.com/other": true,
		"http://docs.example.com/x":      true,
		"https://evil.example.net/":      false,
		"https://docs.example.com:8443/": false,
		"file:///etc/passwd":             false,
		"":                               false,
	} {
		if got := r.Allows(WebFetchTool, "/w", args(u)); got != want {
			t.Errorf("rule for docs.example.com allows %q = %v, want %v", u, got, want)
		}
	}
	if got := r.Describe(); got != "web_fetch of docs.example.com in /w" {
		t.Errorf("Describe = %q", got)
	}
	if h := FetchHost(args("ftp://x.org/")); h != "" {
		t.Errorf("FetchHost of ftp = %q, want none", h)
	}
}
