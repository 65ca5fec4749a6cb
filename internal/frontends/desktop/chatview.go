package desktop

import (
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/chat"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// chatView is the transcript on screen. Any goroutine may call it (the
// transcript's model methods are safe from any goroutine); which transcript
// it is changes on the UI goroutine only.
type chatView struct {
	cur    atomic.Pointer[chat.Transcript]
	holder *fyne.Container // the window's slot for it (UI goroutine)
}

func newChatView(t *chat.Transcript) *chatView {
	v := &chatView{holder: container.NewStack(t.Object())}
	v.cur.Store(t)
	return v
}

func (v *chatView) get() *chat.Transcript { return v.cur.Load() }

// show puts t on screen (UI goroutine).
func (v *chatView) show(t *chat.Transcript) {
	if v.cur.Swap(t) == t {
		return
	}
	v.holder.Objects = []fyne.CanvasObject{t.Object()}
	v.holder.Refresh()
}

// Object is the window's slot for the transcript on screen.
func (v *chatView) Object() fyne.CanvasObject { return v.holder }

// The transcript methods the window calls on the chat on screen.

func (v *chatView) AddNotice(text string, level uikit.NoticeLevel) { v.get().AddNotice(text, level) }
func (v *chatView) PendingApproval() *chat.Approval                { return v.get().PendingApproval() }
func (v *chatView) ClearApproval(a *chat.Approval)                 { v.get().ClearApproval(a) }
func (v *chatView) LastUser() string                               { return v.get().LastUser() }
func (v *chatView) SetPlaceholder(text string)                     { v.get().SetPlaceholder(text) }
func (v *chatView) BusyChanged()                                   { v.get().BusyChanged() }
func (v *chatView) Stats() chat.Stats                              { return v.get().Stats() }
func (v *chatView) Opening()                                       { v.get().Opening() }
func (v *chatView) LoadHistory(msgs []protocol.ProviderMessage)    { v.get().LoadHistory(msgs) }
func (v *chatView) Replace(msgs []protocol.ProviderMessage)        { v.get().Replace(msgs) }
func (v *chatView) ShowSession(s agent.Session)                    { v.get().ShowSession(s) }
func (v *chatView) LoadSession(s agent.Session)                    { v.get().LoadSession(s) }
func (v *chatView) ScrollPages(n int)                              { v.get().ScrollPages(n) }
func (v *chatView) ScrollToStart()                                 { v.get().ScrollToStart() }
func (v *chatView) ScrollToEnd()                                   { v.get().ScrollToEnd() }
func (v *chatView) Following() bool                                { return v.get().Following() }
