package desktop

import "fyne.io/fyne/v2"

// Fyne's entry caret fades in and out: each fade is a run of animation
// frames, and under software GL every frame redraws the whole window. An
// idle window with the composer focused cost 8.9 % of a core that way
// (1.5 % with animations off: measured under Xvfb, 20 s, load 6 on 2
// cores). Fyne offers no caret-only setting: its widgets ask the app's
// settings whether to animate (the caret, a button's tap ripple, a
// select's and tabs' transitions), so a quiet app answers no and the
// caret is a steady bar. The real Fyne setting (no_animations in the
// user's Fyne settings, or the build tag) does the same for every Fyne
// app.

// quietApp is the app with animations off (Options.QuietAnimations).
type quietApp struct {
	fyne.App
	settings quietSettings
}

func (a *quietApp) Settings() fyne.Settings { return a.settings }

// quietSettings are the app's settings but for ShowAnimations.
type quietSettings struct{ fyne.Settings }

func (quietSettings) ShowAnimations() bool { return false }

// quieten makes the current app (what Fyne's widgets ask) a quietApp
// over a. Call it before any widget is built.
func quieten(a fyne.App) fyne.App {
	q := &quietApp{App: a, settings: quietSettings{a.Settings()}}
	fyne.SetCurrentApp(q)
	return q
}
