//go:build cgo

package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"
	"github.com/go-gl/glfw/v3.3/glfw"
)

// nativeScreenSize asks GLFW (which Fyne's desktop driver runs on) for
// the primary monitor's size: Fyne has no API for the screen. It is
// called on the UI goroutine, which Fyne runs on the main thread GLFW's
// monitor calls need; a window of another driver (the test driver) is
// not native, and the answer is "unknown".
func nativeScreenSize(w fyne.Window) (fyne.Size, bool) {
	nw, ok := w.(driver.NativeWindow)
	if !ok {
		return fyne.Size{}, false
	}
	var size fyne.Size
	nw.RunNative(func(any) {
		mon := glfw.GetPrimaryMonitor()
		if mon == nil {
			return
		}
		mode := mon.GetVideoMode()
		if mode == nil {
			return
		}
		scale := w.Canvas().Scale()
		if scale <= 0 {
			scale = 1
		}
		size = fyne.NewSize(float32(mode.Width)/scale, float32(mode.Height)/scale)
	})
	return size, size.Width > 0 && size.Height > 0
}
