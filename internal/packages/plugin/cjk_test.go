package plugin

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A long plugin value quoted in an error is cut between characters: cut
// at 80 bytes, a Chinese name ended in half a character, spelled \xe4\xbd.
func TestQuoteCutsBetweenCharacters(t *testing.T) {
	got := quote(strings.Repeat("插件", 50))
	if strings.Contains(got, `\x`) || !utf8.ValidString(got) {
		t.Fatalf("a character was split: %s", got)
	}
	if want := `"` + strings.Repeat("插件", 19) + `插…"`; got != want {
		t.Fatalf("got %s, want %s (80 columns: 39 characters and the ellipsis)", got, want)
	}
	if got := quote("short"); got != `"short"` {
		t.Fatalf("got %s", got)
	}
}
