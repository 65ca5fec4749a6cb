package panels

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Limits of the notification views.
const (
	toastTTL       = 5 * time.Second
	MaxToasts      = 4 // visible at once; older ones go
	historyCap     = 500
	systemInterval = 750 * time.Millisecond // at most one system notification per interval
	systemQueue    = 8
)

// Notification is one entry of the Notifications list.
type Notification struct {
	Key    surfaces.Key // zero for the host's own notices
	Plugin string
	Title  string
	Body   string
	Level  uikit.NoticeLevel
	At     time.Time
	// resolves names what the toast announces ("approval:<call>", a
	// surface key): when that is resolved the toast goes (resolve).
	resolves string
}

// Notifier shows notifications as in-app toasts, as system notifications
// (plugin notifications only, rate-limited, sent from their own goroutine
// because the platform call can block) and in the Notifications window.
//
// Concurrency: HostNotice, HostNoticeUntil, Resolve, Published, Removed,
// ReplyFinished and Entries may be called from any goroutine; ToastLayer,
// Show and ToastCount run on the UI goroutine.
type Notifier struct {
	app  fyne.App
	b    *uikit.Bridge
	ctx  context.Context // ends the system notification loop
	sys  chan *fyne.Notification
	sent atomic.Int64 // system notifications sent
	// background: no window of the app has the focus (the lifecycle says
	// so), so a finished reply is announced by a system notification.
	background atomic.Bool

	mu      sync.Mutex
	history []Notification // oldest first

	// UI goroutine only.
	layer   *fyne.Container
	live    []*liveToast // the toasts, oldest first (some may be hidden: toastLayout)
	resized func()       // kept for the wiring's OnResize; the overlay needs none
	avoid   func() (fyne.Position, fyne.Size, bool)
	actions map[string]*pendingAction // plugin -> its running action (BeginAction)
	win     fyne.Window               // the Notifications window, nil when closed
	list    *widget.List
	listed  []Notification // newest first, what the list shows
}

// NewNotifier starts the system notification loop with spawn (which runs
// a function on a goroutine its owner waits for); the loop ends with ctx.
func NewNotifier(ctx context.Context, spawn func(func()), app fyne.App, b *uikit.Bridge) *Notifier {
	n := &Notifier{app: app, b: b, ctx: ctx, sys: make(chan *fyne.Notification, systemQueue)}
	// The toasts float in the top right corner over the transcript
	// (Overlay stacks the layer on it): in the layout flow they pushed
	// the conversation down, an approval's buttons below the fold.
	n.layer = container.New(&toastLayout{n: n})
	lc := app.Lifecycle()
	lc.SetOnExitedForeground(func() { n.background.Store(true) })
	lc.SetOnEnteredForeground(func() { n.background.Store(false) })
	spawn(n.systemLoop)
	return n
}

// ReplyFinished sends a system notification when the user is elsewhere
// (any goroutine).
func (n *Notifier) ReplyFinished() {
	if !n.background.Load() {
		return
	}
	select {
	case n.sys <- fyne.NewNotification("Reasonix", "The reply is ready."):
	default:
	}
}

// ToastLayer is the layer the toasts float in: stack it over the
// transcript (Overlay does). Its MinSize is zero, so it never grows or
// moves what it lies on.
func (n *Notifier) ToastLayer() fyne.CanvasObject { return n.layer }

// Overlay is content with the toasts floating over its top right corner.
func (n *Notifier) Overlay(content fyne.CanvasObject) fyne.CanvasObject {
	return container.NewStack(content, n.layer)
}

// Published handles a plugin notification (any goroutine).
func (n *Notifier) Published(s surfaces.Surface) {
	p := s.Notification
	x := Notification{Key: s.Key, Plugin: s.Key.Plugin, Title: p.Title, Body: p.Body, Level: levelOf(p.Severity), At: time.Now(),
		resolves: surfaceToastID(s.Key)}
	n.record(x)
	select {
	case n.sys <- fyne.NewNotification(s.Key.Plugin+": "+p.Title, p.Body):
	default: // a burst: the toasts and the list still show every one
	}
}

// Removed: a plugin's notification was dismissed or evicted (any goroutine).
func (n *Notifier) Removed(k surfaces.Key) {
	n.Resolve(surfaceToastID(k))
	n.b.Post(n.refreshList)
}

func surfaceToastID(k surfaces.Key) string { return "surface:" + k.Plugin + "/" + k.SurfaceID }

// HostNoticeUntil is a host notice whose toast stays only until resolve(id).
func (n *Notifier) HostNoticeUntil(text string, level uikit.NoticeLevel, id string) {
	n.record(Notification{Plugin: "Reasonix", Title: text, Level: level, At: time.Now(), resolves: id})
}

// Resolve removes the toasts announcing id (any goroutine).
func (n *Notifier) Resolve(id string) {
	n.b.Post(func() {
		for _, t := range n.live {
			if t.id == id {
				n.drop(t.obj)
			}
		}
	})
}

// HostNotice shows the host's own message (any goroutine).
func (n *Notifier) HostNotice(text string, level uikit.NoticeLevel) {
	n.record(Notification{Plugin: "Reasonix", Title: text, Level: level, At: time.Now()})
}

func (n *Notifier) record(x Notification) {
	n.mu.Lock()
	n.appendHistory(x)
	n.mu.Unlock()
	n.b.Post(func() {
		n.toast(x)
		n.refreshList()
	})
}

// appendHistory keeps x in the list (n.mu held).
func (n *Notifier) appendHistory(x Notification) {
	n.history = append(n.history, x)
	if len(n.history) > historyCap {
		n.history = append(n.history[:0:0], n.history[len(n.history)-historyCap:]...)
	}
}

// Entries are the notifications kept, newest first.
func (n *Notifier) Entries() []Notification {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make([]Notification, len(n.history))
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
func (n *Notifier) systemLoop() {
	for {
		select {
		case x := <-n.sys:
			n.app.SendNotification(x)
			n.sent.Add(1)
		case <-n.ctx.Done():
			return
		}
		select {
		case <-time.After(systemInterval):
		case <-n.ctx.Done():
			return
		}
	}
}

// Show opens (or raises) the Notifications window (UI goroutine).
func (n *Notifier) Show() {
	if n.win != nil {
		n.win.RequestFocus()
		return
	}
	w := n.app.NewWindow("Notifications")
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
			box.Objects[0].(*widget.Label).SetText(x.Plugin + " · " + x.At.Format("15:04:05"))
			t := box.Objects[1].(*widget.Label)
			t.Importance = uikit.Importance(x.Level)
			t.SetText(x.Title)
			box.Objects[2].(*widget.Label).SetText(x.Body)
		})
	clearBtn := widget.NewButtonWithIcon("Clear", theme.DeleteIcon(), func() {
		n.mu.Lock()
		n.history = nil
		n.mu.Unlock()
		n.refreshList()
	})
	w.SetContent(container.NewBorder(nil, container.NewHBox(layout.NewSpacer(), clearBtn), nil, nil, n.list))
	w.Resize(fyne.NewSize(520, 560))
	w.SetOnClosed(func() { n.win, n.list = nil, nil })
	n.win = w
	n.refreshList()
	w.Show()
}

func (n *Notifier) refreshList() {
	if n.list == nil {
		return
	}
	n.listed = n.Entries()
	n.list.Refresh()
}

// Sent counts the system notifications sent.
func (n *Notifier) Sent() int64 { return n.sent.Load() }
