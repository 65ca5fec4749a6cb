package panels

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
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
	// Chat names the chat in the background it came from ("" : the chat
	// on screen, or none): it went to this list only, no toast.
	Chat string
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
	send func(*fyne.Notification) // the system's (app.SendNotification); a test's spy
	sent atomic.Int64             // system notifications sent
	// background: no window of the app has the focus (the lifecycle says
	// so), so a finished reply is announced by a system notification.
	background atomic.Bool
	prefs      atomic.Pointer[NotifyPrefs]

	mu      sync.Mutex
	history []Notification // oldest first

	// UI goroutine only.
	layer   *fyne.Container
	lay     *toastLayout
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
	n.SetNotify(DefaultNotify)
	n.send = app.SendNotification
	// The toasts float in the top right corner over the transcript
	// (Overlay stacks the layer on it): in the layout flow they pushed
	// the conversation down, an approval's buttons below the fold.
	n.lay = &toastLayout{n: n}
	n.layer = container.New(n.lay)
	lc := app.Lifecycle()
	lc.SetOnExitedForeground(func() { n.background.Store(true) })
	lc.SetOnEnteredForeground(func() { n.background.Store(false) })
	spawn(n.systemLoop)
	return n
}

// NotifyPrefs say what the system notifies while no window of the app
// has the focus (Settings' "Notify me when…").
type NotifyPrefs struct {
	ReplyDone    bool // a reply finished
	Waiting      bool // an approval or a plugin's question waits
	PluginFailed bool // a plugin stopped with an error
}

// DefaultNotify is every notification on.
var DefaultNotify = NotifyPrefs{ReplyDone: true, Waiting: true, PluginFailed: true}

// SetNotify sets what the system notifies (any goroutine).
func (n *Notifier) SetNotify(p NotifyPrefs) { n.prefs.Store(&p) }

// Notify is what the system notifies.
func (n *Notifier) Notify() NotifyPrefs { return *n.prefs.Load() }

// SetBackground says whether the user is elsewhere (no window of the app
// focused); the app's lifecycle says so by itself, the wiring may too
// (any goroutine).
func (n *Notifier) SetBackground(away bool) { n.background.Store(away) }

// ReplyFinished sends a system notification when the user is elsewhere
// (any goroutine).
func (n *Notifier) ReplyFinished() {
	n.away(n.Notify().ReplyDone, "Reasonix", i18n.T("The reply is ready."))
}

// Waiting announces an approval or a plugin's question waiting for the
// user, through the system when the user is elsewhere (any goroutine).
func (n *Notifier) Waiting(what string) {
	n.away(n.Notify().Waiting, i18n.T("Reasonix is waiting for you"), what)
}

// PluginFailed announces a plugin that stopped with an error, through the
// system when the user is elsewhere (any goroutine).
func (n *Notifier) PluginFailed(plugin, why string) {
	n.away(n.Notify().PluginFailed, i18n.T("Plugin %s failed", plugin), why)
}

// away queues a system notification when on and the user is elsewhere.
func (n *Notifier) away(on bool, title, body string) {
	if !on || !n.background.Load() {
		return
	}
	select {
	case n.sys <- fyne.NewNotification(title, body):
	default: // a burst: the toasts and the list still show every one
	}
}

// ToastLayer is the layer the toasts float in: stack it over the
// transcript (Overlay does). Its MinSize is zero, so it never grows or
// moves what it lies on.
func (n *Notifier) ToastLayer() fyne.CanvasObject { return n.layer }

// Overlay is content with the toasts floating over its top right corner.
func (n *Notifier) Overlay(content fyne.CanvasObject) fyne.CanvasObject {
	n.lay.floating = true
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
// An approval or a prompt ("approval:…", "prompt:…") is also announced
// through the system while the user is elsewhere (Waiting).
func (n *Notifier) HostNoticeUntil(text string, level uikit.NoticeLevel, id string) {
	n.record(Notification{Plugin: "Reasonix", Title: text, Level: level, At: time.Now(), resolves: id})
	if strings.HasPrefix(id, "approval:") || strings.HasPrefix(id, "prompt:") {
		n.Waiting(text)
	}
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
		if x.Chat == "" { // a chat in the background says nothing over the chat on screen
			n.toast(x)
		}
		n.refreshList()
	})
}

// PublishedAway handles a plugin notification of a chat in the background
// (any goroutine): the Notifications window and the system (when the
// window is away) show it, named after its chat; no toast covers the chat
// on screen.
func (n *Notifier) PublishedAway(s surfaces.Surface, chat string) {
	p := s.Notification
	n.record(Notification{Key: s.Key, Plugin: s.Key.Plugin, Title: p.Title, Body: p.Body, Level: levelOf(p.Severity),
		At: time.Now(), Chat: chat})
	select {
	case n.sys <- fyne.NewNotification(s.Key.Plugin+": "+p.Title, p.Body):
	default:
	}
}

// HostNoticeAway is a host notice about a chat in the background (any
// goroutine): the Notifications window only.
func (n *Notifier) HostNoticeAway(text string, level uikit.NoticeLevel, chat string) {
	n.record(Notification{Plugin: "Reasonix", Title: text, Level: level, At: time.Now(), Chat: chat})
}

// WaitingAway: an approval or a question waits in a chat in the
// background (any goroutine): the Notifications window, and the system
// while the user is elsewhere; no toast over the chat on screen.
func (n *Notifier) WaitingAway(text, chat string) {
	n.record(Notification{Plugin: "Reasonix", Title: text, Level: uikit.NoticeInfo, At: time.Now(), Chat: chat})
	n.Waiting(text)
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
			n.send(x)
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
	w := n.app.NewWindow(i18n.T("Notifications"))
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
			caption := x.Plugin + " · " + x.At.Format("15:04:05") // i18n:keep (a name and a clock time)
			if x.Chat != "" {
				caption = i18n.T("%s · in “%s”", caption, x.Chat)
			}
			box.Objects[0].(*widget.Label).SetText(caption)
			t := box.Objects[1].(*widget.Label)
			t.Importance = uikit.Importance(x.Level)
			t.SetText(x.Title)
			box.Objects[2].(*widget.Label).SetText(x.Body)
		})
	clearBtn := widget.NewButtonWithIcon(i18n.T("Clear"), theme.DeleteIcon(), func() {
		n.mu.Lock()
		n.history = nil
		n.mu.Unlock()
		n.refreshList()
	})
	w.SetContent(container.NewBorder(nil, container.NewHBox(layout.NewSpacer(), clearBtn), nil, nil, n.list))
	w.Resize(fyne.NewSize(520, 560))
	w.CenterOnScreen()
	// Esc and Ctrl+W close it, as every secondary window (dialogs.Secondary,
	// which panels may not import).
	w.Canvas().SetOnTypedKey(func(k *fyne.KeyEvent) {
		if k.Name == fyne.KeyEscape {
			w.Close()
		}
	})
	w.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyW, Modifier: fyne.KeyModifierShortcutDefault},
		func(fyne.Shortcut) { w.Close() })
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
