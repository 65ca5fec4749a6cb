//go:build !cgo

package dialogs

import "fyne.io/fyne/v2"

// nativeScreenSize: a build without cgo has no GLFW (its Go package then
// lacks the monitor calls), so the screen is unknown and windows keep the
// size they ask for.
func nativeScreenSize(fyne.Window) (fyne.Size, bool) { return fyne.Size{}, false }
