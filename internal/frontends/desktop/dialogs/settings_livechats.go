package dialogs

import (
	"context"
	"strconv"

	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

// LiveChatsHost is a host whose chats stay live with their plugins
// (settings.json's "liveChats"): how many idle chats are kept besides the
// one on screen and every chat replying. ReadLiveChats may read the file
// (called off the UI goroutine); SetLiveChats saves and applies a count
// (called off the UI goroutine).
type LiveChatsHost interface {
	ReadLiveChats() (int, error)
	SetLiveChats(n int) error
}

// maxLiveChats is the most idle chats the choice offers: each keeps its
// plugins' processes running.
const maxLiveChats = 16

// addLiveChatsSection adds "Live chats kept" to form when the host keeps
// live chats.
func addLiveChatsSection(form *widget.Form, s *Settings) {
	h, ok := s.host.(LiveChatsHost)
	if !ok {
		return
	}
	opts := make([]string, maxLiveChats+1)
	for i := range opts {
		opts[i] = strconv.Itoa(i)
	}
	quiet := true // until the saved count is shown
	sel := widget.NewSelect(opts, nil)
	sel.OnChanged = func(v string) {
		n, err := strconv.Atoi(v)
		if quiet || err != nil {
			return
		}
		s.host.Async("save live chats", func(context.Context) error { return h.SetLiveChats(n) })
	}
	s.host.Async("read live chats", func(context.Context) error {
		n, err := h.ReadLiveChats()
		s.b.Post(func() {
			sel.SetSelected(strconv.Itoa(min(max(n, 0), maxLiveChats)))
			quiet = false
		})
		return err
	})
	form.AppendItem(widget.NewFormItem(i18n.T("Live chats kept"), container.NewVBox(sel,
		hint(i18n.T("Chats whose plugins keep running besides the one on screen and those replying: switching to one restarts nothing. Each uses memory.")))))
}
