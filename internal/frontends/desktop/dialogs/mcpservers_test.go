package dialogs

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// A tool's line says what will happen when the model calls it: a server's
// read-only claim skips approval only when the user trusts its hints, so
// an untrusted claim must not read as "read-only" alone.
func TestMCPToolLineSaysWhetherItIsAsked(t *testing.T) {
	test.NewTempApp(t)
	w := &MCPServers{}
	for _, tt := range []struct {
		tool MCPTool
		want string
	}{
		{MCPTool{Name: "mcp__fs__read_file", ReadOnly: true}, "mcp__fs__read_file  (says read-only; asked: its server's hints are not trusted)"},
		{MCPTool{Name: "mcp__fs__read_file", ReadOnly: true, HintsTrusted: true}, "mcp__fs__read_file  (read-only: runs without asking)"},
		{MCPTool{Name: "mcp__fs__write_file", Destructive: true, HintsTrusted: true}, "mcp__fs__write_file  (may change things: asked every time)"},
		{MCPTool{Name: "mcp__fs__stat"}, "mcp__fs__stat"},
	} {
		box, ok := w.toolCheck(tt.tool).(*fyne.Container)
		if !ok || len(box.Objects) == 0 {
			t.Fatalf("%s: not a box", tt.tool.Name)
		}
		check, ok := box.Objects[0].(*widget.Check)
		if !ok {
			t.Fatalf("%s: not a check box", tt.tool.Name)
		}
		if check.Text != tt.want {
			t.Errorf("%+v: %q, want %q", tt.tool, check.Text, tt.want)
		}
	}
}
