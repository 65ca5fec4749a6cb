package headless

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/protocol"
)

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
