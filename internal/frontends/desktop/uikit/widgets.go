package uikit

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// ThemedRect is a rounded background that re-reads its theme colour on
// every refresh, so a theme switch repaints rows already built (a plain
// canvas.Rectangle keeps the colour it was made with).
type ThemedRect struct {
	widget.BaseWidget
	name  fyne.ThemeColorName
	alpha uint8 // 0: the colour as the theme defines it
	// Square drops the border and the rounding (the touching parts of a
	// split code block read as one box).
	Square bool
}

// NewThemedRect is a background of the theme colour name (alpha 0: as the
// theme defines it).
func NewThemedRect(name fyne.ThemeColorName, alpha uint8) *ThemedRect {
	r := &ThemedRect{name: name, alpha: alpha}
	r.ExtendBaseWidget(r)
	return r
}

func (r *ThemedRect) CreateRenderer() fyne.WidgetRenderer {
	rr := &themedRectRenderer{r: r, rect: canvas.NewRectangle(color.Transparent)}
	rr.Refresh()
	return rr
}

type themedRectRenderer struct {
	r    *ThemedRect
	rect *canvas.Rectangle
}

func (rr *themedRectRenderer) Layout(s fyne.Size)           { rr.rect.Resize(s) }
func (rr *themedRectRenderer) MinSize() fyne.Size           { return fyne.NewSize(0, 0) }
func (rr *themedRectRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{rr.rect} }
func (rr *themedRectRenderer) Destroy()                     {}

func (rr *themedRectRenderer) Refresh() {
	th := rr.r.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	fill := th.Color(rr.r.name, v)
	if rr.r.alpha != 0 {
		cr, cg, cb, _ := fill.RGBA()
		fill = color.NRGBA{R: uint8(cr >> 8), G: uint8(cg >> 8), B: uint8(cb >> 8), A: rr.r.alpha}
	}
	rr.rect.FillColor = fill
	rr.rect.StrokeColor = th.Color(theme.ColorNameSeparator, v)
	rr.rect.StrokeWidth, rr.rect.CornerRadius = 1, th.Size(theme.SizeNameInputRadius)
	if rr.r.Square {
		rr.rect.StrokeWidth, rr.rect.CornerRadius = 0, 0
	}
	rr.rect.Refresh()
}

// PanelBox puts content on a rounded background of a theme colour (alpha 0:
// opaque), repainted when the theme changes.
func PanelBox(fill fyne.ThemeColorName, alpha uint8, content fyne.CanvasObject) *fyne.Container {
	return container.NewStack(NewThemedRect(fill, alpha), container.NewPadded(content))
}

// Caption is a small bold label.
func Caption(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.TextStyle.Bold = true
	l.SizeName = theme.SizeNameCaptionText
	return l
}

// NewRichText is a word-wrapped RichText.
func NewRichText() *widget.RichText {
	r := widget.NewRichText()
	r.Wrapping = fyne.TextWrapWord
	return r
}

// IconButton is a low-importance button showing only icon.
func IconButton(icon fyne.Resource, tapped func()) *widget.Button {
	b := widget.NewButtonWithIcon("", icon, tapped)
	b.Importance = widget.LowImportance
	return b
}

// SetShown shows or hides o.
func SetShown(o fyne.CanvasObject, shown bool) {
	if shown {
		o.Show()
	} else {
		o.Hide()
	}
}

// FixedWidth lays out its objects at one width W (toasts, popups).
type FixedWidth struct{ W float32 }

func (f FixedWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := float32(0)
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(f.W, h)
}

func (f FixedWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}
