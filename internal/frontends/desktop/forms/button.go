package forms

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// ringWidth is the focus ring's stroke.
const ringWidth = 2

// Button is a form's button: a visible ring while it has the keyboard
// focus (Fyne's own focus tint is all but invisible on a high-importance
// button, so Tab gave no sign of where Enter would go), and Enter presses
// it as Space does.
type Button struct {
	widget.Button
	focused bool
}

// NewButton is a Button labelled label (icon may be nil).
func NewButton(label string, icon fyne.Resource, tapped func()) *Button {
	b := &Button{}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// Focused says whether the button has the keyboard focus.
func (b *Button) Focused() bool { return b.focused }

// FocusGained shows the ring.
func (b *Button) FocusGained() {
	b.focused = true
	b.Button.FocusGained()
}

// FocusLost hides the ring.
func (b *Button) FocusLost() {
	b.focused = false
	b.Button.FocusLost()
}

// TypedKey presses the button on Enter as on Space.
func (b *Button) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyReturn || ev.Name == fyne.KeyEnter {
		if !b.Disabled() && b.OnTapped != nil {
			b.OnTapped()
		}
		return
	}
	b.Button.TypedKey(ev)
}

// CreateRenderer is the button's renderer with the ring drawn over it.
func (b *Button) CreateRenderer() fyne.WidgetRenderer {
	ring := canvas.NewRectangle(nil)
	ring.StrokeWidth = ringWidth
	ring.Hide()
	return &ringRenderer{WidgetRenderer: b.Button.CreateRenderer(), b: b, ring: ring}
}

type ringRenderer struct {
	fyne.WidgetRenderer
	b    *Button
	ring *canvas.Rectangle
}

func (r *ringRenderer) Objects() []fyne.CanvasObject {
	return append(r.WidgetRenderer.Objects(), r.ring)
}

func (r *ringRenderer) Layout(size fyne.Size) {
	r.WidgetRenderer.Layout(size)
	r.ring.Move(fyne.NewPos(0, 0))
	r.ring.Resize(size)
}

func (r *ringRenderer) Refresh() {
	r.WidgetRenderer.Refresh()
	th := r.b.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	r.ring.StrokeColor = th.Color(theme.ColorNamePrimary, v)
	r.ring.CornerRadius = th.Size(theme.SizeNameInputRadius)
	r.ring.Hidden = !r.b.focused
	r.ring.Refresh()
}
