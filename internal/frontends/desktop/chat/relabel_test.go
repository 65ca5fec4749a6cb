package chat

import (
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

// A language change while a chat is open relabels what the chat itself
// wrote (buttons, the find bar) without touching what was said in it.
func TestRelabelShowsTheChatsWordsInTheNewLanguage(t *testing.T) {
	h := newHarness(t)
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	h.d.Emit(agent.Event{Kind: agent.EventUserMessage, Text: "hi"})
	h.d.Emit(agent.Event{Kind: agent.EventText, Text: "Hello there."})
	h.d.Emit(agent.Event{Kind: agent.EventTurnDone})
	h.waitFor("Regenerate in English", func() bool {
		for _, v := range h.d.transcript.liveViews() {
			if a, ok := v.(*assistantView); ok && a.footer.regen.Visible() {
				return a.footer.regen.Text == "Regenerate"
			}
		}
		return false
	})
	inLang(t, i18n.SimplifiedChinese)
	h.ui(func() { h.d.transcript.Relabel() })
	h.waitFor("the reply rebuilt in Chinese", func() bool {
		for _, v := range h.d.transcript.liveViews() {
			if a, ok := v.(*assistantView); ok && a.r != nil && a.r.snap.text == "Hello there." {
				return a.footer.regen.Text == "重新生成" && a.footer.regen.Visible()
			}
		}
		return false
	})
	h.ui(func() {
		v := h.d.transcript.view
		if v.find.entry.PlaceHolder != "在会话中查找" || v.jump.Text != "跳到最新" {
			t.Errorf("find bar %q, jump %q", v.find.entry.PlaceHolder, v.jump.Text)
		}
	})
}
