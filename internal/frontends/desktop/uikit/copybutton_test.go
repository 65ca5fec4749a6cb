package uikit

import (
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// A Copy button copies and says so for a moment, then is itself again;
// an icon-only one shows a check mark.
func TestCopyButtonConfirms(t *testing.T) {
	test.NewTempApp(t)
	b := NewBridge()
	t.Cleanup(b.Stop)
	for _, label := range []string{"Copy", ""} {
		copies := 0
		var btn *widget.Button
		b.OnUI(func() {
			btn = CopyButton(b, label, func() { copies++ })
			test.NewTempWindow(t, btn)
			test.Tap(btn)
		})
		b.OnUI(func() {
			want := CopiedLabel
			if label == "" {
				want = ""
			}
			if copies != 1 || btn.Text != want || btn.Icon != theme.ConfirmIcon() {
				t.Errorf("after a tap: %d copies, %q, icon %v", copies, btn.Text, btn.Icon.Name())
			}
		})
		testutil.WaitUntil(t, "the button back", func() (back bool) {
			b.OnUI(func() { back = btn.Text == label && btn.Icon == theme.ContentCopyIcon() })
			return back
		})
	}
}
