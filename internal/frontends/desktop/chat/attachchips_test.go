package chat

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// A sent message's chips show their labels whole (a truncating label in
// the row of chips was as narrow as "…"), a very long file name shortened
// to its start and its end.
func TestChipsShowTheirLabels(t *testing.T) {
	long := strings.Repeat("quarterly-report-", 5) + "final.txt"
	r := newChipRow()
	r.show([]string{ImageChipLabel("image/png", 75)}, "hi\n\nAttached file "+long+":\n```\nx\n```")
	w := test.NewWindow(r.box)
	defer w.Close()
	var shown []string
	for _, o := range test.LaidOutObjects(r.box) {
		if l, ok := o.(*widget.Label); ok {
			shown = append(shown, l.Text)
			if min := l.MinSize().Width; min < 60 {
				t.Errorf("the chip %q is %v wide", l.Text, min)
			}
		}
	}
	if len(shown) != 2 || shown[0] != "image/png · 75 bytes" {
		t.Fatalf("chips %q", shown)
	}
	if n := len([]rune(shown[1])); n != chipChars || !strings.HasPrefix(shown[1], "quarterly-report-") || !strings.HasSuffix(shown[1], "final.txt") {
		t.Errorf("a long file name's chip reads %q (%d characters)", shown[1], n)
	}
}
