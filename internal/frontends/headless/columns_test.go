package headless

import (
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/foundation/textwidth"
)

// After a Chinese cell the next column starts at the same terminal column
// as after an English one: text/tabwriter counted 你好 as two columns, not
// four, so the table shifted left by one column per character.
func TestColumnsAlignByDisplayWidth(t *testing.T) {
	out := Columns([][]string{
		{"ID", "TITLE", "MODEL"},
		{"a1", "修复登录页面的问题", "deepseek-chat"},
		{"b22", "fix the login page", "deepseek-reasoner"},
		{"c3", "混合 mixed 文本", "echo-1"},
	})
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	want := -1
	for _, l := range lines {
		last := strings.LastIndex(l, "  ") + 2 // the third column follows the last gap
		col := textwidth.Width(l[:last])
		if want < 0 {
			want = col
		}
		if col != want {
			t.Errorf("third column of %q starts at cell %d, want %d:\n%s", l, col, want, out)
		}
	}
	if want != 3+2+textwidth.Width("修复登录页面的问题")+2 {
		t.Errorf("third column at %d:\n%s", want, out)
	}
}

// Cells keep to their line, the last cell is not padded, and a short row
// (a search's snippet under its chat) lines up with the rest.
func TestColumnsFlattenAndLastCell(t *testing.T) {
	got := Columns([][]string{{"a", "b\tc", "x\ny"}, {"", "", "  snippet"}})
	want := "a  b c  x y\n          snippet\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
