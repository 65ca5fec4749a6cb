package desktop

import (
	"context"
	"strings"
	"sync"

	"github.com/go-text/typesetting/fontscan"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"

	"github.com/reasonix/reasonix-desktop/internal/foundation/textwidth"
)

// No font Fyne bundles has Chinese characters: Fyne draws them with a
// system font it finds through go-text's fontscan, and where none has them
// every character is a box (a minimal Linux without fonts-noto-cjk). The
// window asks fontscan the same question Fyne's painter does, off the UI
// goroutine, when the UI speaks Chinese or the chat shown holds CJK text,
// and says once how to fix it.

// cjkProbe is a common Chinese character (中) every CJK font has.
const cjkProbe = '中'

// systemHasCJK reports whether a system font draws cjkProbe, as Fyne's
// fallback would find it (the scan is cached by fontscan under the user's
// cache directory, as Fyne's own is).
var systemHasCJK = sync.OnceValue(func() bool {
	fm := fontscan.NewFontMap(quietLog{})
	if err := fm.UseSystemFonts(""); err != nil {
		return false
	}
	fm.SetQuery(fontscan.Query{Families: []string{fontscan.SansSerif}})
	return fm.ResolveFace(cjkProbe) != nil
})

type quietLog struct{}

func (quietLog) Printf(string, ...any) {}

// missingCJKFont is said in English whatever the language: in Chinese it
// would be drawn in the very boxes it is about.
const missingCJKFont = "Chinese text cannot be drawn: no font on this system has Chinese characters, so they show as boxes. " +
	"Install one and restart the app: Debian and Ubuntu: sudo apt install fonts-noto-cjk; " +
	"Fedora: sudo dnf install google-noto-sans-cjk-fonts; Arch: sudo pacman -S noto-fonts-cjk."

// checkCJKFont looks for a CJK font when the UI speaks Chinese or text
// holds CJK, and warns once if there is none (any goroutine).
func (d *UI) checkCJKFont(text string) {
	if !i18n.Chinese() && !hasCJK(text) {
		return
	}
	d.fontCheck.Do(func() {
		d.async(i18n.M("font check"), func(context.Context) error {
			if d.hasCJKFont() {
				d.trace("cjk glyphs ok")
				return nil
			}
			d.trace("cjk glyphs missing")
			d.notes.HostNotice(missingCJKFont, uikit.NoticeWarn)
			d.b.Post(func() { d.transcript.AddNotice(missingCJKFont, uikit.NoticeWarn) })
			return nil
		})
	})
}

// hasCJK reports whether s holds a Chinese, Japanese or Korean character.
func hasCJK(s string) bool {
	return strings.IndexFunc(s, textwidth.CJK) >= 0
}

// sessionText is enough of a chat to tell whether it holds CJK text: its
// title and its messages up to the first CJK one (cheap on a long chat
// that has some; a whole scan only of one that has none, once a switch).
func sessionText(s agent.Session) string {
	if hasCJK(s.Title()) {
		return s.Title()
	}
	for _, m := range s.Messages {
		if hasCJK(m.Content) {
			return m.Content
		}
	}
	return ""
}
