package desktop

import (
	"image/color"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/chat"
)

// luminance is WCAG 2's relative luminance of an opaque colour.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// over composites a translucent colour over an opaque one, as drawn.
func over(top, under color.Color) color.Color {
	t := color.NRGBAModel.Convert(top).(color.NRGBA)
	u := color.NRGBAModel.Convert(under).(color.NRGBA)
	a := float64(t.A) / 255
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*a + float64(y)*(1-a))) }
	return color.NRGBA{R: mix(t.R, u.R), G: mix(t.G, u.G), B: mix(t.B, u.B), A: 0xff}
}

// TestThemeContrastMeetsWCAGAA checks every pair of a text (or control)
// colour the theme defines and a background it is drawn on, in both
// variants: 4.5:1 for text, 3:1 for control boundaries.
func TestThemeContrastMeetsWCAGAA(t *testing.T) {
	th := newAppTheme(ThemeSystem)
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		c := func(n fyne.ThemeColorName) color.Color { return th.Color(n, v) }
		bg := c(theme.ColorNameBackground)
		primary := c(theme.ColorNamePrimary)
		// Every surface text sits on: the window, inputs and panels, dialogs,
		// menus, list headers, buttons (and hovered / pressed buttons), a
		// selected row, and the tint behind the user's messages.
		surfaces := map[string]color.Color{
			"background":        bg,
			"inputBackground":   c(theme.ColorNameInputBackground),
			"overlayBackground": c(theme.ColorNameOverlayBackground),
			"menuBackground":    c(theme.ColorNameMenuBackground),
			"headerBackground":  c(theme.ColorNameHeaderBackground),
			"selection":         over(c(theme.ColorNameSelection), bg),
			"user message tint": over(withAlpha(color.NRGBAModel.Convert(primary).(color.NRGBA), chat.UserTint), bg),
		}
		texts := []fyne.ThemeColorName{theme.ColorNameForeground, theme.ColorNameDisabled, theme.ColorNamePlaceHolder,
			theme.ColorNamePrimary, theme.ColorNameHyperlink, theme.ColorNameError, theme.ColorNameSuccess, theme.ColorNameWarning}
		pairs := 0
		check := func(fgName string, fg color.Color, bgName string, b color.Color, min float64) {
			pairs++
			if r := contrast(fg, b); r < min {
				t.Errorf("%s: %s on %s is %.2f:1, want %.1f:1", variantName(v), fgName, bgName, r, min)
			}
		}
		for _, fg := range texts {
			for name, s := range surfaces {
				check(string(fg), c(fg), name, s, 4.5)
			}
		}
		// A button's label is the foreground colour, on the button in each
		// of its states; a disabled one's is the disabled colour.
		button := c(theme.ColorNameButton)
		for name, b := range map[string]color.Color{"button": button,
			"hover on button": over(c(theme.ColorNameHover), button), "pressed on button": over(c(theme.ColorNamePressed), button),
			"hover on background": over(c(theme.ColorNameHover), bg)} {
			check("foreground", c(theme.ColorNameForeground), name, b, 4.5)
		}
		check("disabled", c(theme.ColorNameDisabled), "disabledButton", c(theme.ColorNameDisabledButton), 4.5)
		// Text on the filled (high importance, danger, success, warning) buttons.
		for fg, b := range map[fyne.ThemeColorName]fyne.ThemeColorName{
			theme.ColorNameForegroundOnPrimary: theme.ColorNamePrimary,
			theme.ColorNameForegroundOnError:   theme.ColorNameError,
			theme.ColorNameForegroundOnSuccess: theme.ColorNameSuccess,
			theme.ColorNameForegroundOnWarning: theme.ColorNameWarning,
		} {
			check(string(fg), c(fg), string(b), c(b), 4.5)
			check(string(fg), c(fg), string(b)+"+hover", over(c(theme.ColorNameHover), c(b)), 4.5)
		}
		// Controls: an input's border and the primary colour (focus ring,
		// check boxes, the context meter) against what surrounds them.
		for _, s := range []fyne.ThemeColorName{theme.ColorNameBackground, theme.ColorNameInputBackground, theme.ColorNameOverlayBackground} {
			check("inputBorder", c(theme.ColorNameInputBorder), string(s), c(s), 3)
			check("primary", primary, string(s), c(s), 3)
		}
		if pairs < 70 {
			t.Errorf("%s: only %d pairs checked", variantName(v), pairs)
		}
	}
}

func variantName(v fyne.ThemeVariant) string {
	if v == theme.VariantDark {
		return "dark"
	}
	return "light"
}

func TestThemeModePinsTheVariant(t *testing.T) {
	dark, light := newAppTheme(ThemeDark), newAppTheme(ThemeLight)
	if dark.Color(theme.ColorNameBackground, theme.VariantLight) != palettes[theme.VariantDark][theme.ColorNameBackground] {
		t.Error("Dark does not pin the dark background")
	}
	if light.Color(theme.ColorNameBackground, theme.VariantDark) != palettes[theme.VariantLight][theme.ColorNameBackground] {
		t.Error("Light does not pin the light background")
	}
	sys := newAppTheme(ThemeSystem)
	if sys.Color(theme.ColorNameBackground, theme.VariantDark) != palettes[theme.VariantDark][theme.ColorNameBackground] {
		t.Error("System does not follow the system's variant")
	}
}
