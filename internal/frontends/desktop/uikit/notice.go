package uikit

import (
	"time"

	"fyne.io/fyne/v2/widget"
)

// FrameInterval is the render budget of the transcript, the panel and the
// status bar: changes are buffered and rendered at most this often (60 Hz,
// one frame every 16.7 ms).
const FrameInterval = time.Second / 60

// NoticeLevel is how serious a notice is (transcript notices, toasts).
type NoticeLevel int

// The notice levels.
const (
	NoticeInfo NoticeLevel = iota
	NoticeWarn
	NoticeError
)

// Importance is the label importance a notice of level l is shown with.
func Importance(l NoticeLevel) widget.Importance {
	switch l {
	case NoticeError:
		return widget.DangerImportance
	case NoticeWarn:
		return widget.WarningImportance
	}
	return widget.MediumImportance
}
