package desktop

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// With QuietAnimations the app Fyne's widgets ask says not to animate (the
// caret is then a steady bar, not a fade redrawing the window), and the
// rest of the app is the real one.
func TestQuietAnimationsTurnTheCaretFadeOff(t *testing.T) {
	a := test.NewTempApp(t)
	if !a.Settings().ShowAnimations() {
		t.Skip("this Fyne build has animations off already")
	}
	q := quieten(a)
	t.Cleanup(func() { fyne.SetCurrentApp(a) }) // Fyne's test helpers want their app back
	if fyne.CurrentApp() != q || q.Settings().ShowAnimations() {
		t.Fatal("the current app still animates")
	}
	if q.Settings().Theme() != a.Settings().Theme() || q.Driver() != a.Driver() {
		t.Error("the quiet app is not the app")
	}
}
