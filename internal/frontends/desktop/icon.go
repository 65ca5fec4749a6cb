package desktop

import (
	_ "embed"

	"fyne.io/fyne/v2"
)

// iconPNG is a copy of assets/icon.png (go:embed cannot reach above the
// package folder; FyneApp.toml names the original for `fyne package`).
//
//go:embed icon.png
var iconPNG []byte

// Icon is the app and window icon.
var Icon fyne.Resource = fyne.NewStaticResource("icon.png", iconPNG)
