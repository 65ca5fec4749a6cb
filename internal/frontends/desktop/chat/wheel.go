package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// wheelScroll is the transcript's scroller with a wheel notch of about
// three lines of text, as browsers and the desktop chat apps scroll; Fyne
// moves 25 px a notch, and message 1 of a long chat was tens of thousands of
// notches away. Only the wheel changes: offsets, bars and dragging are the
// embedded Scroll's. Being the Scroll itself (not a Scrollable inside it)
// matters: Fyne clips every Scrollable, and a second clip inside the
// scroller drew rows over the toolbar.
type wheelScroll struct {
	container.Scroll
}

func newWheelScroll(content fyne.CanvasObject) *wheelScroll {
	s := &wheelScroll{}
	s.Direction = container.ScrollVerticalOnly
	s.Content = content
	s.ExtendBaseWidget(s)
	return s
}

// Scrolled scales a wheel event from Fyne's notch to wheelLines lines.
func (s *wheelScroll) Scrolled(ev *fyne.ScrollEvent) {
	scaled := *ev
	scaled.Scrolled.DY *= wheelScale()
	s.Scroll.Scrolled(&scaled)
}

// wheelLines is how many lines of text a wheel notch moves.
const wheelLines = 3

// wheelLine is the height of a line of body text with its spacing.
func wheelLine() float32 { return textLine() + theme.LineSpacing() }

// wheelScale turns the driver's notch (fyneNotch pixels) into wheelLines
// lines; 1 where the system already shapes the wheel (see wheel_darwin.go).
func wheelScale() float32 {
	if fyneNotch == 0 {
		return 1
	}
	return wheelLines * wheelLine() / fyneNotch
}
