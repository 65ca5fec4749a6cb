package desktop

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
)

// Theme modes as Settings stores them.
const (
	ThemeSystem = dialogs.ThemeSystem
	ThemeLight  = dialogs.ThemeLight
	ThemeDark   = dialogs.ThemeDark
)

// themeMode is the saved mode (System when none).
func (d *UI) themeMode() string {
	switch m := d.prefs.Theme(); m {
	case ThemeLight, ThemeDark:
		return m
	}
	return ThemeSystem
}

// applyTheme saves and applies a mode; Fyne repaints every window (UI
// goroutine).
func (d *UI) applyTheme(mode string) {
	d.prefs.SetTheme(mode)
	d.opts.App.Settings().SetTheme(newScaledTheme(mode, d.prefs.Zoom()))
}

// appTheme is Fyne's default theme with this app's colours: every pair of
// a text colour and a background it is drawn on meets WCAG AA (theme_test.go
// computes each pair), in both variants. mode pins a variant or follows the
// system's.
type appTheme struct {
	mode string
	zoom float32 // every size times zoom (zoom.go); 0 is 1
}

func newAppTheme(mode string) fyne.Theme { return &appTheme{mode: mode} }

// newScaledTheme is the theme with every size (text, padding, icons)
// times zoom: the window's zoom keys.
func newScaledTheme(mode string, zoom float32) fyne.Theme { return &appTheme{mode: mode, zoom: zoom} }

func hex(v uint32) color.NRGBA {
	return color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}

func withAlpha(c color.NRGBA, a uint8) color.NRGBA { c.A = a; return c }

// palettes are the colours the theme defines; a name not here falls back
// to Fyne's default theme (shadows, scroll bars).
var palettes = map[fyne.ThemeVariant]map[fyne.ThemeColorName]color.Color{
	theme.VariantDark: {
		theme.ColorNameBackground:          hex(0x17171a),
		theme.ColorNameInputBackground:     hex(0x232328),
		theme.ColorNameOverlayBackground:   hex(0x202025),
		theme.ColorNameMenuBackground:      hex(0x202025),
		theme.ColorNameHeaderBackground:    hex(0x26262c),
		theme.ColorNameButton:              hex(0x2e2e35),
		theme.ColorNameDisabledButton:      hex(0x26262c),
		theme.ColorNameHover:               withAlpha(hex(0xffffff), 0x14),
		theme.ColorNamePressed:             withAlpha(hex(0xffffff), 0x24),
		theme.ColorNameSelection:           withAlpha(hex(0x5b9bff), 0x30),
		theme.ColorNameFocus:               withAlpha(hex(0x5b9bff), 0x60),
		theme.ColorNameSeparator:           hex(0x34343b),
		theme.ColorNameInputBorder:         hex(0x6e6e78),
		theme.ColorNameForeground:          hex(0xededf0),
		theme.ColorNameDisabled:            hex(0xa4a4ae),
		theme.ColorNamePlaceHolder:         hex(0xacacb6),
		theme.ColorNamePrimary:             hex(0x6aa6ff),
		theme.ColorNameHyperlink:           hex(0x7ab2ff),
		theme.ColorNameError:               hex(0xff7b7b),
		theme.ColorNameSuccess:             hex(0x5bd88a),
		theme.ColorNameWarning:             hex(0xf2b84b),
		theme.ColorNameForegroundOnPrimary: hex(0x101014),
		theme.ColorNameForegroundOnError:   hex(0x101014),
		theme.ColorNameForegroundOnSuccess: hex(0x101014),
		theme.ColorNameForegroundOnWarning: hex(0x101014),
	},
	theme.VariantLight: {
		theme.ColorNameBackground:          hex(0xfafafb),
		theme.ColorNameInputBackground:     hex(0xf0f0f3),
		theme.ColorNameOverlayBackground:   hex(0xffffff),
		theme.ColorNameMenuBackground:      hex(0xffffff),
		theme.ColorNameHeaderBackground:    hex(0xebebef),
		theme.ColorNameButton:              hex(0xe3e3e9),
		theme.ColorNameDisabledButton:      hex(0xebebef),
		theme.ColorNameHover:               withAlpha(hex(0x000000), 0x0f),
		theme.ColorNamePressed:             withAlpha(hex(0x000000), 0x1c),
		theme.ColorNameSelection:           withAlpha(hex(0x1f5fd1), 0x20),
		theme.ColorNameFocus:               withAlpha(hex(0x1f5fd1), 0x50),
		theme.ColorNameSeparator:           hex(0xd6d6dc),
		theme.ColorNameInputBorder:         hex(0x85858f),
		theme.ColorNameForeground:          hex(0x1a1a1e),
		theme.ColorNameDisabled:            hex(0x5c5c66),
		theme.ColorNamePlaceHolder:         hex(0x5c5c66),
		theme.ColorNamePrimary:             hex(0x1b55bd),
		theme.ColorNameHyperlink:           hex(0x184fb5),
		theme.ColorNameError:               hex(0xb3222a),
		theme.ColorNameSuccess:             hex(0x17692f),
		theme.ColorNameWarning:             hex(0x7d5200),
		theme.ColorNameForegroundOnPrimary: hex(0xffffff),
		theme.ColorNameForegroundOnError:   hex(0xffffff),
		theme.ColorNameForegroundOnSuccess: hex(0xffffff),
		theme.ColorNameForegroundOnWarning: hex(0xffffff),
	},
}

// variant is the variant the theme draws: the pinned one, else the system's.
func (t *appTheme) variant(system fyne.ThemeVariant) fyne.ThemeVariant {
	switch t.mode {
	case ThemeLight:
		return theme.VariantLight
	case ThemeDark:
		return theme.VariantDark
	}
	return system
}

func (t *appTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	v = t.variant(v)
	if c, ok := palettes[v][n]; ok {
		return c
	}
	return theme.DefaultTheme().Color(n, v)
}

func (t *appTheme) Font(s fyne.TextStyle) fyne.Resource     { return theme.DefaultTheme().Font(s) }
func (t *appTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return theme.DefaultTheme().Icon(n) }
func (t *appTheme) Size(n fyne.ThemeSizeName) float32 {
	if t.zoom > 0 {
		return theme.DefaultTheme().Size(n) * t.zoom
	}
	return theme.DefaultTheme().Size(n)
}
