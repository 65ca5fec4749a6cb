package gate

import (
	"context"
	"regexp"
	"strings"
	"testing"
)

// The built-in declarations name the tools extensions may not take:
// unique names, no implementation (the core supplies it and its tests
// check the list against what it offers).
func TestBuiltins(t *testing.T) {
	name := regexp.MustCompile(`^[a-z_]+$`)
	seen := map[string]bool{}
	for _, tool := range Builtins() {
		if !name.MatchString(tool.Name) || seen[tool.Name] {
			t.Errorf("bad or repeated name %q", tool.Name)
		}
		seen[tool.Name] = true
		if tool.Run != nil {
			t.Errorf("%s: a declaration has Run", tool.Name)
		}
	}
	if !seen["run_command"] || !seen["edit_file"] || !seen["web_fetch"] {
		t.Fatalf("builtins %v", seen)
	}
	Builtins()[0].Name = "changed"
	if Builtins()[0].Name != "read_file" {
		t.Fatal("Builtins shares its slice")
	}
}

type fakeSet struct {
	name   string
	events *[]string
}

func (f fakeSet) Gates() []ToolGate   { return nil }
func (f fakeSet) Tools() []Tool       { return []Tool{{Name: f.name}} }
func (f fakeSet) Commands() []Command { return []Command{{Name: "/" + f.name}} }
func (f fakeSet) SessionStarted(context.Context, string) {
	*f.events = append(*f.events, "start "+f.name)
}
func (f fakeSet) TurnEnded(context.Context, string) { *f.events = append(*f.events, "turn "+f.name) }
func (f fakeSet) Close(context.Context)             { *f.events = append(*f.events, "close "+f.name) }

// Join keeps the order of its sets for what they offer and tells each
// of them every notification; nil sets are skipped.
func TestJoin(t *testing.T) {
	var ev []string
	j := Join(reportingSet{fakeSet{"a", &ev}}, nil, fakeSet{"b", &ev})
	// The join keeps what a set can say about itself (xdev's status).
	if r, ok := j.(Reporter); !ok || len(r.ExtensionStatus()) != 1 || r.ExtensionStatus()[0].Name != "a" {
		t.Fatal("the joined set lost the extensions' status")
	}
	if tl := j.Tools(); len(tl) != 2 || tl[0].Name != "a" || tl[1].Name != "b" {
		t.Fatalf("tools %+v", tl)
	}
	if c := j.Commands(); len(c) != 2 || c[1].Name != "/b" {
		t.Fatalf("commands %+v", c)
	}
	ctx := context.Background()
	j.SessionStarted(ctx, "s")
	j.TurnEnded(ctx, "s")
	j.Close(ctx)
	if want := "start a,start b,turn a,turn b,close a,close b"; strings.Join(ev, ",") != want {
		t.Fatalf("events %v", ev)
	}
}

type reportingSet struct{ fakeSet }

func (r reportingSet) ExtensionStatus() []Status { return []Status{{Name: r.name}} }
