package surfaces

import (
	"bytes"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/protocol"
)

func TestActionsRegister(t *testing.T) {
	var logBuf bytes.Buffer
	a := NewActions(slog.New(slog.NewTextHandler(&logBuf, nil)))
	tests := []struct {
		name   string
		plugin string
		decls  []protocol.UIActionDecl
		warns  []string // substrings, one per expected warning
	}{
		{"valid", "beta", []protocol.UIActionDecl{{ActionID: "run", Label: "Run it"}, {ActionID: "a-1"}}, nil},
		{"invalid ids", "beta", []protocol.UIActionDecl{{ActionID: "Bad"}, {ActionID: "a b"}, {ActionID: ""}, {ActionID: "ok_not"}}, []string{`"Bad"`, `"a b"`, `""`, `"ok_not"`}},
		{"duplicate within a call keeps the first", "alpha", []protocol.UIActionDecl{{ActionID: "go", Label: "First"}, {ActionID: "go", Label: "Second"}}, []string{"/alpha:go"}},
		{"duplicate across calls", "beta", []protocol.UIActionDecl{{ActionID: "run", Label: "Again"}}, []string{"/beta:run"}},
		{"same public name in another case", "Beta", []protocol.UIActionDecl{{ActionID: "run"}}, []string{"/Beta:run duplicates /beta:run"}},
		{"secret label", "gamma", []protocol.UIActionDecl{{ActionID: "rotate", Label: "rotate " + openAIKey}}, nil},
		{"bad plugin name", "a:b", []protocol.UIActionDecl{{ActionID: "x"}}, []string{"a:b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := a.Register(tt.plugin, tt.decls)
			if len(got) != len(tt.warns) {
				t.Fatalf("warnings = %q, want %d", got, len(tt.warns))
			}
			for i, w := range tt.warns {
				if !strings.Contains(got[i], w) {
					t.Errorf("warning %q does not mention %q", got[i], w)
				}
			}
		})
	}
	var names []string
	for _, x := range a.List() {
		names = append(names, x.Name)
	}
	if want := []string{"/alpha:go", "/beta:a-1", "/beta:run", "/gamma:rotate"}; !slices.Equal(names, want) {
		t.Errorf("List names = %v, want %v", names, want)
	}
	if x, ok := a.Lookup("/alpha:go"); !ok || x.Label != "First" || x.Plugin != "alpha" || x.ID != "go" {
		t.Errorf("Lookup /alpha:go = %+v %v", x, ok)
	}
	if x, _ := a.Lookup("/beta:a-1"); x.Label != "a-1" {
		t.Errorf("empty label should fall back to the id: %+v", x)
	}
	if x, _ := a.Lookup("/beta:run"); x.Label != "Run it" {
		t.Errorf("duplicate replaced the first: %+v", x)
	}
	if x, _ := a.Lookup("/gamma:rotate"); strings.Contains(x.Label, openAIKey) || x.ID != "rotate" {
		t.Errorf("label not redacted: %+v", x)
	}
	if _, ok := a.Lookup("/beta:nope"); ok {
		t.Error("Lookup of an undeclared action")
	}
	if got := a.ForPlugin("beta"); len(got) != 2 || got[0].Name != "/beta:a-1" || got[1].Name != "/beta:run" {
		t.Errorf("ForPlugin(beta) = %+v", got)
	}
	if !strings.Contains(logBuf.String(), "ui action skipped") || strings.Contains(logBuf.String(), openAIKey) {
		t.Errorf("log = %s", logBuf.String())
	}
	a.Remove("beta")
	if len(a.ForPlugin("beta")) != 0 || len(a.List()) != 2 {
		t.Errorf("after Remove(beta): %+v", a.List())
	}
	a.Reset()
	if len(a.List()) != 0 {
		t.Error("Reset left actions")
	}
	if w := NewActions(nil).Register("p", []protocol.UIActionDecl{{ActionID: "BAD"}}); len(w) != 1 {
		t.Errorf("nil logger: %v", w)
	}
}

func TestActionName(t *testing.T) {
	if got := ActionName("hello-surfaces", "greet"); got != "/hello-surfaces:greet" {
		t.Errorf("ActionName = %q", got)
	}
}
