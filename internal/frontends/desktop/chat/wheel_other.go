//go:build !darwin

package chat

// fyneNotch is how far Fyne's desktop driver scrolls for one wheel notch
// outside macOS (its scrollSpeed, 25 px; faster spins are accelerated on
// top of that).
const fyneNotch = 25
