package forms

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// ring is the visible focus ring drawn over b, nil when none shows.
func ring(b *Button) *canvas.Rectangle {
	for _, o := range test.WidgetRenderer(b).Objects() {
		if r, ok := o.(*canvas.Rectangle); ok && r.StrokeWidth == ringWidth && r.Visible() && r.Size() == b.Size() {
			return r
		}
	}
	return nil
}

// Tab to a form's button draws a ring around it, and Enter presses it;
// the ring goes with the focus.
func TestButtonFocusRingAndEnter(t *testing.T) {
	test.NewTempApp(t)
	pressed := 0
	b := NewButton("Submit", nil, func() { pressed++ })
	b.Importance = widget.HighImportance
	other := widget.NewEntry()
	w := test.NewWindow(container.NewVBox(other, b))
	defer w.Close()
	w.Resize(fyne.NewSize(300, 200))
	if ring(b) != nil {
		t.Fatal("a ring without the focus")
	}
	w.Canvas().Focus(other)
	w.Canvas().FocusNext()
	if w.Canvas().Focused() != b || ring(b) == nil {
		t.Fatalf("Tab to the button: focused %v, ring %v", w.Canvas().Focused() == b, ring(b) != nil)
	}
	if r := ring(b); r.StrokeColor == nil {
		t.Error("the ring has no colour")
	}
	b.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	b.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	if pressed != 2 {
		t.Errorf("Enter and Space pressed it %d times", pressed)
	}
	b.Disable()
	b.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if pressed != 2 {
		t.Error("Enter pressed a disabled button")
	}
	w.Canvas().Unfocus()
	if ring(b) != nil {
		t.Error("the ring stayed after the focus left")
	}
}

// Enter in a form's text field submits the form (a plugin form in the
// panel as in a prompt).
func TestEnterInAFieldSubmits(t *testing.T) {
	test.NewTempApp(t)
	v := New([]protocol.FormField{{Key: "name", Kind: protocol.FieldInput}, {Key: "sure", Kind: protocol.FieldConfirm}}, false, nil)
	submitted := 0
	v.OnKeys(nil, func() { submitted++ })
	w := test.NewWindow(v.Object())
	defer w.Close()
	test.Type(v.Input("name").Entry, "Ada")
	v.Input("name").Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	v.Input("name").Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) // no cancel given: nothing
	if submitted != 1 {
		t.Errorf("Enter submitted %d times", submitted)
	}
}
