package desktop

import (
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Limits of the notification views.
const (
	toastTTL       = 5 * time.Second
	maxToasts      = 4
	historyCap     = 500
	systemInterval = 750 * time.Millisecond // at most one system notification per interval
	systemQueue    = 8
)

// notification is one entry of the Notifications list.
type notification struct {
	key    surfaces.Key // zero for the host's own notices
	plugin string
	title  string
	body   string
	level  uikit.NoticeLevel
	at     time.Time
	// resolves names what the toast announces ("approval:<call>", a
	// surface key): when that is resolved the toast goes (resolve).
	resolves string
}

// notifier shows notifications as in-app toasts, as system notifications
// (plugin notifications only, rate-limited, sent from their own goroutine
// because the platform call can block) and in the Notifications window.
type notifier struct {
	d    *UI
	sys  chan *fyne.Notification
	sent atomic.Int64 // system notifications sent
	// background: no window of the app has the focus (the lifecycle says
	// so), so a finished reply is announced by a system notification.
	background atomic.Bool

	mu      sync.Mutex
	history []notification // oldest first

	// UI goroutine only.
	stack  *fyne.Container
	layer  *fyne.Container
	live   []liveToast // the visible toasts, oldest first
	list   *widget.List
	listed []notification // newest first, what the list shows
}

func newNotifier(d *UI) *notifier {
	n := &notifier{d: d, sys: make(chan *fyne.Notification, systemQueue)}
	n.stack = container.NewVBox()
	// The top-right corner of the transcript: never over the composer or
	// the surface panel's fields and buttons (window.go places the layer).
	n.layer = container.NewBorder(container.NewHBox(layout.NewSpacer(), n.stack), nil, nil, nil)
	lc := d.opts.App.Lifecycle()
	lc.SetOnExitedForeground(func() { n.background.Store(true) })
	lc.SetOnEnteredForeground(func() { n.background.Store(false) })
	d.link.wg.Add(1)
	go n.systemLoop()
	return n
}

// replyFinished sends a system notification when the user is elsewhere
// (any goroutine).
func (n *notifier) replyFinished() {
	if !n.background.Load() {
		return
	}
	select {
	case n.sys <- fyne.NewNotification("Reasonix", "The reply is ready."):
	default:
	}
}

func (n *notifier) toastLayer() fyne.CanvasObject { return n.layer }

// published handles a plugin notification (any goroutine).
func (n *notifier) published(s surfaces.Surface) {
	p := s.Notification
	x := notification{key: s.Key, plugin: s.Key.Plugin, title: p.Title, body: p.Body, level: levelOf(p.Severity), at: time.Now(),
		resolves: surfaceToastID(s.Key)}
	n.record(x)
	select {
	case n.sys <- fyne.NewNotification(s.Key.Plugin+": "+p.Title, p.Body):
	default: // a burst: the toasts and the list still show every one
	}
}

// removed: a plugin's notification was dismissed or evicted (any goroutine).
func (n *notifier) removed(k surfaces.Key) {
	n.resolve(surfaceToastID(k))
	n.d.b.Post(n.refreshList)
}

func surfaceToastID(k surfaces.Key) string { return "surface:" + k.Plugin + "/" + k.SurfaceID }

// hostNoticeUntil is a host notice whose toast stays only until resolve(id).
func (n *notifier) hostNoticeUntil(text string, level uikit.NoticeLevel, id string) {
	n.record(notification{plugin: "Reasonix", title: text, level: level, at: time.Now(), resolves: id})
}

// resolve removes the toasts announcing id (any goroutine).
func (n *notifier) resolve(id string) {
	n.d.b.Post(func() {
		for _, t := range n.live {
			if t.id == id {
				n.drop(t.obj)
			}
		}
	})
}

// hostNotice shows the host's own message (any goroutine).
func (n *notifier) hostNotice(text string, level uikit.NoticeLevel) {
	n.record(notification{plugin: "Reasonix", title: text, level: level, at: time.Now()})
}

func (n *notifier) record(x notification) {
	n.mu.Lock()
	n.history = append(n.history, x)
	if len(n.history) > historyCap {
		n.history = append(n.history[:0:0], n.history[len(n.history)-historyCap:]...)
	}
	n.mu.Unlock()
	n.d.b.Post(func() {
		n.toast(x)
		n.refreshList()
	})
}

func (n *notifier) entries() []notification {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make([]notification, len(n.history))
	for i, x := range n.history {
		out[len(out)-1-i] = x
	}
	return out
}

func levelOf(s protocol.Severity) uikit.NoticeLevel {
	switch s {
	case protocol.SeverityWarn:
		return uikit.NoticeWarn
	case protocol.SeverityError:
		return uikit.NoticeError
	}
	return uikit.NoticeInfo
}

// systemLoop sends system notifications one at a time, spaced out.
func (n *notifier) systemLoop() {
	defer n.d.link.wg.Done()
	for {
		select {
		case x := <-n.sys:
			n.d.opts.App.SendNotification(x)
			n.sent.Add(1)
		case <-n.d.link.ctx.Done():
			return
		}
		select {
		case <-time.After(systemInterval):
		case <-n.d.link.ctx.Done():
			return
		}
	}
}

// toast shows a transient card in the window's bottom-right corner (UI
// goroutine); it goes away by itself after toastTTL.
func (n *notifier) toast(x notification) {
	title := widget.NewLabel(x.title)
	title.TextStyle.Bold = true
	title.Wrapping = fyne.TextWrapWord
	title.Importance = uikit.Importance(x.level)
	box := container.NewVBox(uikit.Caption(x.plugin), title)
	if x.body != "" {
		body := widget.NewLabel(x.body)
		body.Wrapping = fyne.TextWrapWord
		box.Add(body)
	}
	var card fyne.CanvasObject
	closeBtn := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { n.drop(card) })
	closeBtn.Importance = widget.LowImportance
	head := container.NewBorder(nil, nil, nil, closeBtn, box)
	card = container.New(fixedWidth{340}, uikit.PanelBox(theme.ColorNameOverlayBackground, 0, head))
	n.stack.Add(card)
	n.live = append(n.live, liveToast{id: x.resolves, obj: card})
	for len(n.live) > maxToasts {
		n.drop(n.live[0].obj)
	}
	n.layer.Refresh() // the corner grew: re-lay out the layer, not just the stack
	time.AfterFunc(toastTTL, func() { n.d.b.Post(func() { n.drop(card) }) })
}

// liveToast is a visible toast and what it announces.
type liveToast struct {
	id  string
	obj fyne.CanvasObject
}

// drop removes a toast if it is still shown (UI goroutine).
func (n *notifier) drop(card fyne.CanvasObject) {
	for i, t := range n.live {
		if t.obj == card {
			n.live = append(n.live[:i:i], n.live[i+1:]...)
			n.stack.Remove(card)
			n.layer.Refresh()
			return
		}
	}
}

// toastCount is how many toasts are visible (tests).
func (n *notifier) toastCount() int { return len(n.stack.Objects) }

// fixedWidth lays out its objects at one width (toasts).
type fixedWidth struct{ w float32 }

func (f fixedWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := float32(0)
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(f.w, h)
}

func (f fixedWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

// showNotifications opens the Notifications window (UI goroutine).
func (d *UI) showNotifications() {
	n := d.notes
	if d.wins.notes != nil {
		d.wins.notes.RequestFocus()
		return
	}
	w := d.opts.App.NewWindow("Notifications")
	n.list = widget.NewList(func() int { return len(n.listed) },
		func() fyne.CanvasObject {
			title := widget.NewLabel("")
			title.TextStyle.Bold = true
			title.Truncation = fyne.TextTruncateEllipsis
			body := widget.NewLabel("")
			body.Truncation = fyne.TextTruncateEllipsis
			return container.NewVBox(uikit.Caption(""), title, body)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			x := n.listed[i]
			box := o.(*fyne.Container)
			box.Objects[0].(*widget.Label).SetText(x.plugin + " · " + x.at.Format("15:04:05"))
			t := box.Objects[1].(*widget.Label)
			t.Importance = uikit.Importance(x.level)
			t.SetText(x.title)
			box.Objects[2].(*widget.Label).SetText(x.body)
		})
	clearBtn := widget.NewButtonWithIcon("Clear", theme.DeleteIcon(), func() {
		n.mu.Lock()
		n.history = nil
		n.mu.Unlock()
		n.refreshList()
	})
	w.SetContent(container.NewBorder(nil, container.NewHBox(layout.NewSpacer(), clearBtn), nil, nil, n.list))
	w.Resize(fyne.NewSize(520, 560))
	w.SetOnClosed(func() { d.wins.notes, n.list = nil, nil })
	d.wins.notes = w
	n.refreshList()
	w.Show()
}

func (n *notifier) refreshList() {
	if n.list == nil {
		return
	}
	n.listed = n.entries()
	n.list.Refresh()
}
