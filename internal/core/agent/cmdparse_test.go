package agent_test

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/protocol"
)

func TestParseCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, line string
		want       agent.CommandLine
		err        error
	}{
		{"built-in", "/new", agent.CommandLine{Name: "/new"}, nil},
		{"trimmed, arguments trimmed", "  /open  abc  ", agent.CommandLine{Name: "/open", Args: "abc"}, nil},
		{"a tab ends the name", "/open\tabc", agent.CommandLine{Name: "/open", Args: "abc"}, nil},
		{"action with quoted values", `/hello:greet who="Ann Lee" n=2`, agent.CommandLine{Name: "/hello:greet", Args: `who="Ann Lee" n=2`}, nil},
		{"action in any case", "/Hello-Surfaces:REFRESH", agent.CommandLine{Name: "/Hello-Surfaces:REFRESH"}, nil},
		{"extension command", "/ext:deploy prod --dry-run", agent.CommandLine{Name: "/ext:deploy", Args: "prod --dry-run"}, nil},
		{"unknown but command-shaped", "/etc is a folder", agent.CommandLine{Name: "/etc", Args: "is a folder"}, nil},
		{"a path is a message", "/usr/bin is on my PATH", agent.CommandLine{}, agent.ErrNotCommand},
		{"a path with a colon", "/tmp/a:1 fails", agent.CommandLine{}, agent.ErrNotCommand},
		{"double slash", "//comment", agent.CommandLine{}, agent.ErrNotCommand},
		{"plain text", "hello /new", agent.CommandLine{}, agent.ErrNotCommand},
		{"empty", "   ", agent.CommandLine{}, agent.ErrNotCommand},
		{"several lines", "/new\nand more", agent.CommandLine{}, agent.ErrNotCommand},
		{"not a name", "/:x", agent.CommandLine{}, agent.ErrNotCommand},
		{"namespaced package command", "/p:git:commit x", agent.CommandLine{Name: "/p:git:commit", Args: "x"}, nil},
		{"empty namespace", "/p::a", agent.CommandLine{}, agent.ErrNotCommand},
		{"a colon and nothing", "/p:", agent.CommandLine{}, agent.ErrNotCommand},
		{"punctuation", "/? what", agent.CommandLine{}, agent.ErrNotCommand},
		{"slash alone", "/", agent.CommandLine{}, agent.ErrNoCommandName},
		{"slash then a space", "/ new", agent.CommandLine{}, agent.ErrNoCommandName},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := agent.ParseCommand(tt.line)
			if !errors.Is(err, tt.err) || (tt.err == nil && err != nil) {
				t.Fatalf("error %v, want %v", err, tt.err)
			}
			if got != tt.want {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// FuzzParseCommand: the parser never panics; what it accepts is one line
// starting with its name, a name with no second slash, arguments trimmed;
// and a line it calls a message is never one starting with a command name
// and a space.
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"/new", "/open abc", `/p:a k="v w"`, "/usr/bin x", "/", "/ x", "//", "/ext:x\ty", "/p:a:b", "hello", "/new\nx", "/é", "/a\u00a0b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		cl, err := agent.ParseCommand(line)
		if err != nil {
			if !errors.Is(err, agent.ErrNotCommand) && !errors.Is(err, agent.ErrNoCommandName) {
				t.Fatalf("%q: unexpected error %v", line, err)
			}
			return
		}
		trimmed := strings.TrimSpace(line)
		if !strings.HasPrefix(trimmed, cl.Name) || !strings.HasPrefix(cl.Name, "/") || len(cl.Name) < 2 {
			t.Fatalf("%q: name %q is not the line's first word", line, cl.Name)
		}
		if strings.Contains(cl.Name[1:], "/") || strings.ContainsAny(trimmed, "\n\r") || strings.ContainsAny(cl.Name, " \t") {
			t.Fatalf("%q: accepted as %+v", line, cl)
		}
		if cl.Args != strings.TrimSpace(cl.Args) {
			t.Fatalf("%q: arguments %q not trimmed", line, cl.Args)
		}
		// Parsing what it parsed again gives the same command.
		again, err := agent.ParseCommand(cl.Name + " " + cl.Args)
		if err != nil || again != cl {
			t.Fatalf("%q -> %+v -> %+v, %v", line, cl, again, err)
		}
	})
}

func TestParseAnswer(t *testing.T) {
	t.Parallel()
	color := protocol.FormField{Key: "color", Kind: protocol.FieldSelect, Options: []string{"red", "green", "blue"}, Default: "green"}
	tags := protocol.FormField{Key: "tags", Kind: protocol.FieldMultiselect, Options: []string{"go", "desktop", "plugins"}}
	name := protocol.FormField{Key: "name", Kind: protocol.FieldInput, Required: true}
	agree := protocol.FormField{Key: "agree", Kind: protocol.FieldConfirm}
	cases := []struct {
		name  string
		field protocol.FormField
		in    string
		want  any
		err   string
	}{
		{"select by number", color, "3", "blue", ""},
		{"select by text", color, "RED", "red", ""},
		{"select default", color, "", "green", ""},
		{"select out of range", color, "4", nil, "4 is not an option number (1 to 3)"},
		{"select unknown", color, "purple", nil, `"purple" is not one of the options (red, green, blue)`},
		{"multiselect mixed", tags, "1, plugins", []string{"go", "plugins"}, ""},
		{"multiselect empty", tags, "", []string{}, ""},
		{"multiselect only commas", tags, " , ,", []string{}, ""},
		{"multiselect unknown", tags, "go,rust", nil, `"rust" is not one of`},
		{"input keeps spaces", name, "  Ann Lee ", "  Ann Lee ", ""},
		{"input required", name, "  ", nil, "is required"},
		{"confirm yes", agree, "Y", true, ""},
		{"confirm off", agree, "off", false, ""},
		{"confirm empty is no", agree, "", false, ""},
		{"confirm default", protocol.FormField{Key: "a", Kind: protocol.FieldConfirm, Default: true}, "", true, ""},
		{"confirm garbage", agree, "maybe", nil, `"maybe" is not yes or no`},
		{"multiselect default", protocol.FormField{Key: "t", Kind: protocol.FieldMultiselect, Options: []string{"a", "b"}, Default: []any{"b"}}, "", []string{"b"}, ""},
		{"select default not an option", protocol.FormField{Key: "s", Kind: protocol.FieldSelect, Options: []string{"a"}, Default: "z", Required: true}, "", nil, "is required"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := agent.ParseFormAnswer(tc.field, tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %#v, %v; want %#v", got, err, tc.want)
			}
		})
	}
}

func TestKeyValues(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want map[string]string
		err  string
	}{
		{"", nil, ""},
		{"a=1 b=2", map[string]string{"a": "1", "b": "2"}, ""},
		{`msg="hello world" x='it''s'`, map[string]string{"msg": "hello world", "x": "its"}, ""},
		{`empty= q=""`, map[string]string{"empty": "", "q": ""}, ""},
		{"a=1=2", map[string]string{"a": "1=2"}, ""},
		{"loose", nil, `"loose" is not key=value`},
		{"=v", nil, "is not key=value"},
		{"a=1 a=2", nil, `"a" is given twice`},
		{`a="open`, nil, "quote is not closed"},
	}
	for _, tc := range cases {
		got, err := agent.ParseKeyValues(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: got %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// FuzzKeyValues: the argument decoder never panics, and what it accepts
// round-trips: quoting every value again gives the same map.
func FuzzKeyValues(f *testing.F) {
	for _, s := range []string{"a=1 b=2", `m="x y"`, `a='`, "=", "a=1 a=2", "k=\"\t\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := agent.ParseKeyValues(s)
		if err != nil {
			return
		}
		var parts []string
		for k, v := range m {
			if strings.ContainsAny(k, `"' `+"\t") || strings.Contains(v, `"`) {
				return // not re-quotable this simply
			}
			parts = append(parts, k+`="`+v+`"`)
		}
		again, err := agent.ParseKeyValues(strings.Join(parts, " "))
		if err != nil || len(m) > 0 && !reflect.DeepEqual(again, m) {
			t.Fatalf("%q -> %v -> %v (%v)", s, m, again, err)
		}
	})
}

func TestInlineValues(t *testing.T) {
	t.Parallel()
	fields := []protocol.FormField{
		{Key: "name", Kind: protocol.FieldInput, Required: true},
		{Key: "color", Kind: protocol.FieldSelect, Options: []string{"red", "green"}, Default: "green"},
	}
	got, err := agent.FormValues(fields, map[string]string{"name": "Ann"})
	if err != nil || !reflect.DeepEqual(got, map[string]any{"name": "Ann", "color": "green"}) {
		t.Fatalf("defaults: %v %v", got, err)
	}
	if _, err := agent.FormValues(fields, map[string]string{"colour": "red"}); err == nil || !strings.Contains(err.Error(), `no field "colour" (fields: name, color)`) {
		t.Fatalf("unknown field: %v", err)
	}
	if _, err := agent.FormValues(fields, map[string]string{"color": "9"}); err == nil || !strings.Contains(err.Error(), `field "color": 9 is not an option number`) {
		t.Fatalf("bad option: %v", err)
	}
}

// FuzzParseAnswer: whatever is typed, an answer never panics, and what it
// accepts fits the field: a select answers one of its options, a
// multiselect only options, a confirm a bool, a required field something.
func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{"", "1", "0", "-1", "red", "1,2", " , ,", "yes", "99999999999999999999"} {
		f.Add(s, uint8(0))
	}
	fields := []protocol.FormField{
		{Key: "s", Kind: protocol.FieldSelect, Options: []string{"red", "green"}, Required: true},
		{Key: "m", Kind: protocol.FieldMultiselect, Options: []string{"a", "b", "c"}},
		{Key: "c", Kind: protocol.FieldConfirm},
		{Key: "i", Kind: protocol.FieldInput, Required: true},
	}
	f.Fuzz(func(t *testing.T, text string, which uint8) {
		field := fields[int(which)%len(fields)]
		v, err := agent.ParseFormAnswer(field, text)
		if err != nil {
			return
		}
		switch field.Kind {
		case protocol.FieldSelect:
			s, ok := v.(string)
			if !ok || !slices.Contains(field.Options, s) {
				t.Fatalf("select %q -> %#v", text, v)
			}
		case protocol.FieldMultiselect:
			if v == nil {
				return
			}
			for _, s := range v.([]string) {
				if !slices.Contains(field.Options, s) {
					t.Fatalf("multiselect %q -> %#v", text, v)
				}
			}
		case protocol.FieldConfirm:
			if _, ok := v.(bool); !ok {
				t.Fatalf("confirm %q -> %#v", text, v)
			}
		case protocol.FieldInput:
			if s, _ := v.(string); strings.TrimSpace(s) == "" {
				t.Fatalf("required input %q -> %#v", text, v)
			}
		}
	})
}
