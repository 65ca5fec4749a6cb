//go:build darwin

package chat

// fyneNotch is 0 on macOS: the system accelerates the wheel and trackpad
// itself and Fyne passes its deltas on at 10 px a unit; scaling them again
// would make a trackpad fly.
const fyneNotch = 0
