package desktop

import (
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// With no system font for Chinese, switching the UI to Chinese says once,
// in English (Chinese would be boxes), how to install one; with a font,
// nothing is said.
func TestMissingCJKFontIsSaid(t *testing.T) {
	t.Cleanup(func() { i18n.SetLang(i18n.English) })
	for _, has := range []bool{false, true} {
		h := newHarness(t)
		asked := make(chan struct{}, 1)
		h.ui(func() { h.d.hasCJKFont = func() bool { asked <- struct{}{}; return has } })
		i18n.SetLang(i18n.SimplifiedChinese)
		<-asked
		said := func() (n int) {
			for _, x := range h.d.notes.Entries() {
				if strings.Contains(x.Title, "sudo apt install fonts-noto-cjk") {
					n++
				}
			}
			return n
		}
		if has {
			if said() != 0 {
				t.Error("a font is there, yet the window says it is missing")
			}
		} else {
			h.waitFor("the missing font said", func() bool { return said() == 1 })
		}
		i18n.SetLang(i18n.English)
		i18n.SetLang(i18n.SimplifiedChinese) // said once only
		i18n.SetLang(i18n.English)
		h.ui(func() {})
		if n := said(); n > 1 {
			t.Errorf("said %d times", n)
		}
		h.d.Close()
	}
}

func TestSessionTextFindsCJK(t *testing.T) {
	s := agent.Session{Messages: []protocol.ProviderMessage{{Role: "user", Content: "hello"}, {Role: "assistant", Content: "你好"}}}
	if got := sessionText(s); got != "你好" {
		t.Errorf("sessionText = %q", got)
	}
	if hasCJK("plain English") || !hasCJK("カタカナ") {
		t.Error("hasCJK misjudges")
	}
}
