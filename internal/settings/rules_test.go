package settings

import (
	"encoding/json"
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
	if r != (Rule{Tool: "run_command", Workspace: ws, CommandPrefix: "go"}) {
		t.Fatalf("rule %+v", r)
	}
	for cmd, want := range map[string]bool{
		"go vet ./...":         true,
		"go":                   true,
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
	scoped := Rule{Tool: "run_command", Workspace: "/w", CommandPrefix: "make"}
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
	if !s.Allows("write_file", "/any", nil) || !s.Allows("run_command", "/w", cmdArgs("make test")) {
		t.Error("a rule does not allow its call")
	}
	if err := f.RevokeRule(Rule{Tool: "write_file"}); err != nil {
		t.Fatal(err)
	}
	if err := f.RevokeRule(scoped); err != nil {
		t.Fatal(err)
	}
	s = f.Get()
	if s.Allows("write_file", "/any", nil) || s.Allows("run_command", "/w", cmdArgs("make test")) || len(s.AlwaysRules()) != 0 {
		t.Errorf("revoked rules still allow: %+v", s)
	}
	if got := scoped.Describe(); got != "run_command `make …` in /w" {
		t.Errorf("describe %q", got)
	}
}
