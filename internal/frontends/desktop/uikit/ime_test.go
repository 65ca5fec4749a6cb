package uikit

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// A dialog's field under an input method: the Enter that commits a
// composition confirms nothing, Backspace that edits the preedit deletes
// nothing, and the committed text lands; without a composition Enter
// confirms and Backspace deletes.
func TestDialogEntryIgnoresInputMethodKeys(t *testing.T) {
	test.NewTempApp(t)
	e := NewDialogEntry()
	w := test.NewTempWindow(t, e)
	w.Canvas().Focus(e)
	submitted := 0
	e.OnSubmitted = func(string) { submitted++ }
	keys := func(names ...fyne.KeyName) {
		for _, n := range names {
			e.TypedKey(&fyne.KeyEvent{Name: n}) // an input method took it: no rune follows
		}
	}
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyA}) // typed: its rune follows
	e.TypedRune('a')
	keys(fyne.KeyN, fyne.KeyI, fyne.KeyBackspace, fyne.KeyReturn)
	if submitted != 0 || e.Text != "a" {
		t.Fatalf("composing: %d submits, text %q; want none and \"a\"", submitted, e.Text)
	}
	e.TypedRune('n') // the commit
	keys(fyne.KeyBackspace)
	if e.Text != "a" {
		t.Fatalf("Backspace after the commit left %q, want \"a\"", e.Text)
	}
	keys(fyne.KeyReturn)
	if submitted != 1 {
		t.Fatalf("Enter with no composition: %d submits, want 1", submitted)
	}
}

// The guard's count: Backspace gives the app its keys back once the
// letters the composition held are gone; Esc ends a composition.
func TestIMEGuardCountsThePreedit(t *testing.T) {
	var g IMEGuard
	for _, k := range []fyne.KeyName{fyne.KeyN, fyne.KeyI} {
		if g.Key(k) && k == fyne.KeyN {
			t.Fatal("the first key is swallowed before anything says an input method has it")
		}
	}
	for i, want := range []bool{true, true, false} { // "ni": two Backspaces are the input method's
		if got := g.Key(fyne.KeyBackspace); got != want {
			t.Fatalf("Backspace %d: kept %v, want %v", i+1, got, want)
		}
	}
	g.Key(fyne.KeyW)
	if !g.Key(fyne.KeyEscape) || g.Key(fyne.KeyEscape) {
		t.Fatal("Esc ends a composition: the first is the input method's, the second the app's")
	}
	g.Key(fyne.KeyA)
	g.Rune()
	if g.Composing() || g.Key(fyne.KeyReturn) {
		t.Fatal("a key followed by its rune is ordinary typing")
	}
}
