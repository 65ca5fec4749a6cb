package headless

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/host/agent"
	"github.com/reasonix/reasonix-desktop/internal/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

func TestParseAnswer(t *testing.T) {
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
		{"multiselect empty", tags, "", nil, ""},
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
			got, err := parseAnswer(tc.field, tc.in)
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
		got, err := keyValues(tc.in)
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
		m, err := keyValues(s)
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
		again, err := keyValues(strings.Join(parts, " "))
		if err != nil || len(m) > 0 && !reflect.DeepEqual(again, m) {
			t.Fatalf("%q -> %v -> %v (%v)", s, m, again, err)
		}
	})
}

func TestInlineValues(t *testing.T) {
	fields := []protocol.FormField{
		{Key: "name", Kind: protocol.FieldInput, Required: true},
		{Key: "color", Kind: protocol.FieldSelect, Options: []string{"red", "green"}, Default: "green"},
	}
	got, err := inlineValues(fields, map[string]string{"name": "Ann"})
	if err != nil || !reflect.DeepEqual(got, map[string]any{"name": "Ann", "color": "green"}) {
		t.Fatalf("defaults: %v %v", got, err)
	}
	if _, err := inlineValues(fields, map[string]string{"colour": "red"}); err == nil || !strings.Contains(err.Error(), `no field "colour" (fields: name, color)`) {
		t.Fatalf("unknown field: %v", err)
	}
	if _, err := inlineValues(fields, map[string]string{"color": "9"}); err == nil || !strings.Contains(err.Error(), `field "color": 9 is not an option number`) {
		t.Fatalf("bad option: %v", err)
	}
}

func TestRenderText(t *testing.T) {
	exts := []agent.ExtensionStatus{
		{Name: "other", Renderers: []agent.RendererRef{{Name: "hosts", Kind: "card"}}},
		{Name: "ops", Capabilities: []string{"command /ext:status"}, Renderers: []agent.RendererRef{{Name: "hosts", Kind: "table"}, {Name: "deps", Kind: "tree"}}},
	}
	cases := []struct {
		name, out string
		want      []string // lines of the text, in order
		noRender  bool
		err       string
	}{
		{"table from the owning extension", `{"renderer":"hosts","data":{"columns":["host","state"],"rows":[["web-1","up"],["db-10","down"]]}}`,
			[]string{"[xdev ops] hosts (table)", "  host   state", "  web-1  up", "  db-10  down"}, false, ""},
		{"tree", `{"renderer":"deps","data":{"label":"app","children":[{"label":"lib","children":[{"label":"leaf"}]}]}}`,
			[]string{"[xdev ops] deps (tree)", "  app", "    lib", "      leaf"}, false, ""},
		{"undeclared renderer", `{"renderer":"nope","data":{}}`, nil, true, ""},
		{"plain text", "deployed", nil, true, ""},
		{"data of the wrong shape", `{"renderer":"hosts","data":{"rows":"x"}}`, nil, false, "table data"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, ok := agent.FindRenderer(exts, "/ext:status", tc.out)
			if ok == tc.noRender {
				t.Fatalf("renderer found %v", ok)
			}
			if !ok {
				return
			}
			text, err := renderText(r)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || text != strings.Join(tc.want, "\n")+"\n" {
				t.Fatalf("got %q, %v\nwant %q", text, err, strings.Join(tc.want, "\n")+"\n")
			}
		})
	}
	// The row bound is the window's.
	rows := make([][]string, agent.MaxRenderRows+5)
	for i := range rows {
		rows[i] = []string{"r"}
	}
	data, _ := json.Marshal(map[string]any{"rows": rows})
	text, err := renderText(agent.Rendered{Extension: "ops", Ref: agent.RendererRef{Name: "hosts", Kind: "table"}, Data: data})
	if err != nil || !strings.HasSuffix(text, "… 5 more rows not shown\n") || strings.Count(text, "\n") != agent.MaxRenderRows+2 {
		t.Fatalf("bounded table: %v\n%s", err, text[len(text)-80:])
	}
}

// A form asked on the terminal re-asks an answer that does not fit, naming
// why, and takes defaults for empty answers.
func TestAskFieldsReasksInvalidAnswers(t *testing.T) {
	var errb strings.Builder
	f := New(Options{Out: &strings.Builder{}, Err: &errb, In: strings.NewReader("\nAnn\npurple\n\n1,3\nmaybe\ny\n")})
	defer f.Close()
	fields := []protocol.FormField{
		{Key: "name", Label: "Name", Kind: protocol.FieldInput, Required: true},
		{Key: "color", Label: "Colour", Kind: protocol.FieldSelect, Options: []string{"red", "green"}, Default: "green"},
		{Key: "tags", Kind: protocol.FieldMultiselect, Options: []string{"go", "desktop", "plugins"}},
		{Key: "agree", Kind: protocol.FieldConfirm},
	}
	values, ok := f.askFields(context.Background(), fields, false)
	want := map[string]any{"name": "Ann", "color": "green", "tags": []string{"go", "plugins"}, "agree": true}
	if !ok || !reflect.DeepEqual(values, want) {
		t.Fatalf("values %v ok %v\n%s", values, ok, errb.String())
	}
	for _, say := range []string{"Name: is required", `Colour: "purple" is not one of the options (red, green)`, `agree: "maybe" is not yes or no`} {
		if !strings.Contains(errb.String(), say) {
			t.Errorf("the terminal did not say %q:\n%s", say, errb.String())
		}
	}
	// The input ending mid-form abandons it.
	g := New(Options{Out: &strings.Builder{}, Err: &strings.Builder{}, In: strings.NewReader("Bo\n")})
	defer g.Close()
	if _, ok := g.askFields(context.Background(), fields, false); ok {
		t.Fatal("a form with unanswered fields was completed")
	}
}

// /form waits for a form published after it was asked for, and names the
// published ones when the wait is over.
func TestFormBookFind(t *testing.T) {
	b := newFormBook()
	form := func(plugin, id string) *surfaces.Change {
		return &surfaces.Change{Kind: surfaces.Published, Surface: surfaces.Surface{
			Key: surfaces.Key{Plugin: plugin, SurfaceID: id, SessionID: "s", Generation: 1}, Kind: protocol.PublishForm, Form: &protocol.FormPayload{}}}
	}
	found := make(chan error, 1)
	go func() {
		_, err := b.find(context.Background(), "later")
		found <- err
	}()
	b.track(form("p", "other"))
	b.track(form("p", "later"))
	if err := <-found; err != nil {
		t.Fatal(err)
	}
	b.track(form("q", "later"))
	if _, err := b.find(context.Background(), "later"); err == nil || !strings.Contains(err.Error(), "ambiguous: p/later, q/later") {
		t.Fatalf("ambiguous: %v", err)
	}
	if s, err := b.find(context.Background(), "q/later"); err != nil || s.Key.Plugin != "q" {
		t.Fatalf("by key: %v %v", s.Key, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.find(ctx, "none"); !errors.Is(err, errNoForm) || !strings.Contains(err.Error(), "published: p/later, p/other, q/later") {
		t.Fatalf("missing: %v", err)
	}
	b.track(&surfaces.Change{Kind: surfaces.Cleared, Generation: 2})
	if len(b.list()) != 0 {
		t.Fatal("a new generation kept the old forms")
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
		v, err := parseAnswer(field, text)
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

func TestLooksLikeAction(t *testing.T) {
	for name, want := range map[string]bool{
		"/hello-surfaces:refresh": true, "/p:a": true, "/tmp/a:1": false, "/ext": false, "/:x": false,
		"/p:": false, "/p:a:b": false, "/usr/bin": false,
	} {
		if got := looksLikeAction(name); got != want {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
}
