package mcp

import (
	"context"
	"maps"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
)

func TestPromptParseArgs(t *testing.T) {
	p := Prompt{Command: "/mcp__ev__args-prompt", Args: []PromptArg{{Name: "city", Required: true}, {Name: "state"}}}
	none := Prompt{Command: "/mcp__ev__simple"}
	for _, c := range []struct {
		name string
		p    Prompt
		line string
		want map[string]string
		err  string
	}{
		{"positional", p, "Paris Texas", map[string]string{"city": "Paris", "state": "Texas"}, ""},
		{"keys", p, "state=Oregon city=Salem", map[string]string{"city": "Salem", "state": "Oregon"}, ""},
		{"quoted", p, `city="Hood River"`, map[string]string{"city": "Hood River"}, ""},
		{"mixed", p, "state=WA Seattle", map[string]string{"city": "Seattle", "state": "WA"}, ""},
		{"the last takes the rest", p, "Paris New Mexico", map[string]string{"city": "Paris", "state": "New Mexico"}, ""},
		{"optional left out", p, "Lyon", map[string]string{"city": "Lyon"}, ""},
		{"missing required", p, "", nil, `argument "city" is required`},
		{"unknown key", p, "country=FR", nil, `no argument "country"`},
		{"unterminated", p, `city="x`, nil, "unterminated quote"},
		{"none taken", none, "", map[string]string{}, ""},
		{"none given any", none, "x", nil, "takes no arguments"},
		{"a value with = in it", p, "a=b=c", nil, `no argument "a"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.p.ParseArgs(c.line)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || !maps.Equal(got, c.want) {
				t.Fatalf("got %v %v, want %v", got, err, c.want)
			}
		})
	}
}

// FuzzPromptParseArgs: any line either fails or gives every required
// argument and only declared ones.
func FuzzPromptParseArgs(f *testing.F) {
	for _, s := range []string{"", "a b c", `city="x y" state=z`, `"`, "k=v=w", "=x", "\t\n"} {
		f.Add(s)
	}
	p := Prompt{Command: "/p", Args: []PromptArg{{Name: "city", Required: true}, {Name: "state"}}}
	f.Fuzz(func(t *testing.T, line string) {
		got, err := p.ParseArgs(line)
		if err != nil {
			return
		}
		if _, ok := got["city"]; !ok {
			t.Fatalf("%q: no required city in %v", line, got)
		}
		for k := range got {
			if k != "city" && k != "state" {
				t.Fatalf("%q: undeclared %q", line, k)
			}
		}
	})
}

func TestReferences(t *testing.T) {
	m := NewManager(Options{})
	defer m.Close()
	m.Start([]Server{{Name: "ev", Server: mcpspec.Server{Command: "x", AutoStart: new(bool)}}, {Name: "fs.1", Server: mcpspec.Server{Command: "x", AutoStart: new(bool)}}})
	for _, c := range []struct {
		text string
		want []Reference
	}{
		{"read @ev:demo://a/b.md please", []Reference{{"ev", "demo://a/b.md"}}},
		{"@ev:x. and @fs.1:file:///tmp/a), @ev:x", []Reference{{"ev", "x"}, {"fs.1", "file:///tmp/a"}}},
		{"mail a@ev:x or @alice:home", nil},
		{"@ev: nothing", nil},
	} {
		got := m.References(c.text)
		if len(got) != len(c.want) {
			t.Errorf("%q: %v, want %v", c.text, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: %v, want %v", c.text, got, c.want)
			}
		}
	}
	// A message that already carries the resource (a retry of an expanded
	// message) is not read again.
	done := "see @ev:demo://x\n\n<resource server=\"ev\" uri=\"demo://x\">\nbody\n</resource>"
	if got, err := m.ExpandMessage(context.Background(), done); err != nil || got != done {
		t.Errorf("an expanded message again: %q %v", got, err)
	}
	// A reference to a server that is not ready fails, naming it.
	if _, err := m.ExpandMessage(context.Background(), "see @ev:demo://x"); err == nil || !strings.Contains(err.Error(), "@ev:demo://x") {
		t.Errorf("a stopped server's resource: %v", err)
	}
}

// A tool the user disabled stays listed, marked, and is not offered to the
// model; the choice survives the file round trip.
func TestDisabledToolsAreNotOffered(t *testing.T) {
	t.Parallel() // its own Manager and processes: see slow in manager_test.go
	m := started(t, slow, everything(t))
	store := DisabledStore{Path: t.TempDir() + "/" + DisabledFileName}
	if got, err := store.Load(); err != nil || len(got) != 0 {
		t.Fatalf("a missing file: %v %v", got, err)
	}
	if err := store.Save(map[string]bool{"mcp__everything__echo": true}); err != nil {
		t.Fatal(err)
	}
	off, err := store.Load()
	if err != nil {
		t.Fatal(err)
	}
	m.SetDisabled(off)
	if e, ok := tool(m, "mcp__everything__echo"); !ok || !e.Disabled {
		t.Errorf("echo listed %v disabled %v", ok, e.Disabled)
	}
	for _, gt := range (Set{M: m}).Tools() {
		if gt.Name == "mcp__everything__echo" {
			t.Error("a disabled tool is offered to the model")
		}
	}
	if len((Set{M: m}).Tools()) != len(m.Tools())-1 {
		t.Errorf("offered %d of %d tools", len((Set{M: m}).Tools()), len(m.Tools()))
	}
}
