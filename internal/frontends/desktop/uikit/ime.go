package uikit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// IMEGuard keeps the keys an input method used away from the app.
//
// Fyne's desktop driver hands every key press to the focused widget
// (KeyDown, then TypedKey) and the characters typed after it (TypedRune).
// GLFW on X11 reports a press even when the input method filtered it: with
// fcitx5's pinyin, "wo" then Enter reached the composer as TypedKey(W),
// TypedKey(O), TypedKey(Return) — which sent the message — and only then
// the committed runes "wo"; Backspace that edited the preedit deleted text
// already in the composer. Nothing in the events says "the input method
// has it", but a pattern does: a printable key with no rune after it means
// the input method is composing. From then on, until committed runes
// arrive or a key that ends a composition (Enter, Esc, Space, a digit
// choosing a candidate), the keys are the input method's and are
// swallowed. Backspace shortens the composition; when the letters it held
// are gone, Backspace is the app's again.
//
// The committed text may come late: under Xvfb with fcitx5 the 你 that
// Space chose arrived after the next syllable's first keys, and the
// letters Enter committed after the input method was switched off. So a
// composition ended by Enter, Space or a digit owes a commit, and the next
// run of runes (runes with no key between them) pays it without touching
// the composition under way; a run that nothing owed and no key typed is
// the current composition committing (a punctuation key, a switch to
// English) and ends it.
//
// The guard is a small state machine fed by the widget's TypedKey and
// TypedRune (UI goroutine only). Without an input method every printable
// key is followed by its rune in the same event dispatch, so nothing is
// ever swallowed.
type IMEGuard struct {
	// pending: a printable key went by and no rune has followed it yet.
	pending bool
	// preedit estimates the keys the composition holds; 0: not composing.
	preedit int
	// owed counts compositions ended by a commit whose text has not come.
	owed int
	// inRun: runes came since the last key (one commit, or a key's rune).
	inRun bool
	// OnSwallow, if set, hears each key kept from the app (a trace).
	OnSwallow func(fyne.KeyName)
}

// Composing reports whether an input method is composing, as far as the
// keys tell.
func (g *IMEGuard) Composing() bool { return g.preedit > 0 || g.pending }

// Key takes a TypedKey before the widget acts on it and reports whether
// the key belongs to the input method (the widget must then ignore it).
func (g *IMEGuard) Key(name fyne.KeyName) bool {
	g.inRun = false
	if g.pending { // the previous printable key brought no rune
		g.pending = false
		g.preedit++
	}
	if g.preedit == 0 {
		if printableKey(name) && !commandModifier() {
			g.pending = true // its rune follows at once, unless an input method took it
		}
		return false
	}
	switch {
	case letterKey(name) || name == fyne.KeyApostrophe: // pinyin's letters and syllable mark
		g.preedit++
	case name == fyne.KeyBackspace:
		g.preedit--
	case name == fyne.KeyReturn || name == fyne.KeyEnter || name == fyne.KeySpace || digitKey(name):
		// Enter commits the letters, Space or a digit a candidate: the
		// composition ends here and its runes follow, maybe late.
		g.preedit = 0
		g.owed++
	case name == fyne.KeyEscape: // drops the composition: nothing to commit
		g.preedit = 0
	}
	// Arrows, Page keys, - = , . and the rest move among the candidates.
	if g.OnSwallow != nil {
		g.OnSwallow(name)
	}
	return true
}

// Rune takes a TypedRune (the widget types it in any case): the first rune
// after a key is a commit owed by an ended composition, or the rune of the
// printable key just typed (ordinary typing), or the current composition
// committing itself.
func (g *IMEGuard) Rune() {
	if g.inRun {
		return // the rest of the same text
	}
	g.inRun = true
	switch {
	case g.owed > 0:
		g.owed--
	case g.pending:
		g.pending = false
	default:
		g.preedit = 0
	}
}

func letterKey(n fyne.KeyName) bool {
	return len(n) == 1 && n[0] >= 'A' && n[0] <= 'Z'
}

func digitKey(n fyne.KeyName) bool {
	return len(n) == 1 && n[0] >= '0' && n[0] <= '9'
}

// printableKey is a key that types a character without an input method.
func printableKey(n fyne.KeyName) bool {
	if letterKey(n) || digitKey(n) {
		return true
	}
	switch n {
	case fyne.KeySpace, fyne.KeyApostrophe, fyne.KeyComma, fyne.KeyMinus, fyne.KeyPeriod,
		fyne.KeySlash, fyne.KeyBackslash, fyne.KeyLeftBracket, fyne.KeyRightBracket,
		fyne.KeySemicolon, fyne.KeyEqual, fyne.KeyBackTick:
		return true
	}
	return false
}

// commandModifier reports Ctrl, Alt or Super held: such a key types no
// rune (Ctrl+B with no shortcut), which is not a composition. Only the
// desktop driver knows; test drivers report none.
func commandModifier() bool {
	app := fyne.CurrentApp()
	if app == nil {
		return false
	}
	if drv, ok := app.Driver().(desktop.Driver); ok {
		return drv.CurrentKeyModifiers()&(fyne.KeyModifierControl|fyne.KeyModifierAlt|fyne.KeyModifierSuper) != 0
	}
	return false
}
