package panels

import (
	"fmt"
	"image/color"
	"math"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

const (
	// ToastWidth is a toast card's width (narrower when the layer is).
	ToastWidth = 340
	// actionGrace is how long after an action answered a notification
	// its plugin publishes still counts as the action's: the two reach the
	// window by different paths, in either order.
	actionGrace = 2 * time.Second
)

// liveToast is a toast card and what it announces (UI goroutine).
type liveToast struct {
	id     string // what resolving removes it ("approval:<call>", a surface)
	key    string // repeats of the same notice merge into one card
	plugin string // the plugin whose notification it is, "" for the host's
	obj    fyne.CanvasObject
	count  int
	times  *widget.Label // "×3" once repeated
	gen    int           // bumped by a repeat or the pointer: an older expiry leaves the card
	pad    *hoverPad
}

// hoverPad lies under a toast's content and tells when the pointer is on
// the toast. It takes no taps: the close button and the text keep theirs.
type hoverPad struct {
	widget.BaseWidget
	in, out func()
}

func newHoverPad(in, out func()) *hoverPad {
	p := &hoverPad{in: in, out: out}
	p.ExtendBaseWidget(p)
	return p
}

func (p *hoverPad) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(canvas.NewRectangle(color.Transparent))
}

// MouseIn: the pointer came onto the toast.
func (p *hoverPad) MouseIn(*desktop.MouseEvent) { p.in() }

// MouseMoved: nothing to do.
func (p *hoverPad) MouseMoved(*desktop.MouseEvent) {}

// MouseOut: the pointer left the toast.
func (p *hoverPad) MouseOut() { p.out() }

// pendingAction is a plugin action running or just answered (BeginAction).
type pendingAction struct {
	notified bool       // its plugin published a notification meanwhile
	toast    *liveToast // the toast of the action's own message, if shown
}

// SetAvoid gives the notifier the absolute rectangle a toast must never
// cover (the approval card waiting for an answer; ok false when none).
// Toasts that would reach into it are hidden, the newest kept. UI goroutine.
func (n *Notifier) SetAvoid(rect func() (pos fyne.Position, size fyne.Size, ok bool)) {
	n.avoid = rect
	n.layer.Refresh()
}

// Relayout places the toasts again, e.g. after what they avoid moved
// (UI goroutine).
func (n *Notifier) Relayout() { n.layer.Refresh() }

// BeginAction is called before a plugin action runs; done(message) after
// it answered, with the message the action returned. One action makes
// one toast: when the plugin publishes a notification meanwhile (or just
// after), its message goes only to the Notifications list. Any goroutine.
func (n *Notifier) BeginAction(plugin string) (done func(message string)) {
	n.b.Post(func() {
		if n.actions == nil {
			n.actions = map[string]*pendingAction{}
		}
		n.actions[plugin] = &pendingAction{}
	})
	return func(message string) {
		if message == "" {
			n.b.Post(func() { n.endAction(plugin) })
			return
		}
		x := Notification{Plugin: plugin, Title: message, Level: uikit.NoticeInfo, At: time.Now()}
		n.mu.Lock()
		n.appendHistory(x)
		n.mu.Unlock()
		n.b.Post(func() {
			n.refreshList()
			a := n.actions[plugin]
			if a == nil || !a.notified {
				t := n.toast(x)
				if a != nil {
					a.toast = t
				}
			}
			if a != nil {
				time.AfterFunc(actionGrace, func() { n.b.Post(func() { n.endActionIf(plugin, a) }) })
			}
		})
	}
}

func (n *Notifier) endAction(plugin string) { delete(n.actions, plugin) }

func (n *Notifier) endActionIf(plugin string, a *pendingAction) {
	if n.actions[plugin] == a {
		delete(n.actions, plugin)
	}
}

// toastKey is what makes two notices repeats of each other.
func toastKey(x Notification) string {
	return strings.Join([]string{x.Plugin, x.Title, x.Body, fmt.Sprint(x.Level), x.resolves}, "\x00")
}

// toast shows x as a card floating over the transcript, or counts it on
// the card of the same notice already shown (UI goroutine). It goes by
// itself after toastTTL (from its last repeat).
func (n *Notifier) toast(x Notification) *liveToast {
	if x.Key.Plugin != "" {
		if a := n.actions[x.Key.Plugin]; a != nil {
			// The plugin's own words about its action win over the
			// action's message.
			a.notified = true
			if a.toast != nil {
				n.drop(a.toast.obj)
				a.toast = nil
			}
		}
	}
	key := toastKey(x)
	for i, t := range n.live {
		if t.key != key {
			continue
		}
		t.count++
		t.times.SetText(fmt.Sprintf("×%d", t.count))
		t.times.Show()
		n.live = append(append(n.live[:i:i], n.live[i+1:]...), t) // the newest again
		n.expire(t)
		n.relayout()
		return t
	}
	title := widget.NewLabel(x.Title)
	title.TextStyle.Bold = true
	title.Wrapping = fyne.TextWrapWord
	title.Importance = uikit.Importance(x.Level)
	times := widget.NewLabel("")
	times.TextStyle.Bold = true
	times.Hide()
	// The labels' own inner padding is space enough between the lines:
	// four toasts then fit above an approval at the transcript's foot.
	box := container.New(layout.NewCustomPaddedVBoxLayout(-theme.InnerPadding()),
		container.NewHBox(uikit.Caption(x.Plugin), times), title)
	if x.Body != "" {
		body := widget.NewLabel(x.Body)
		body.Wrapping = fyne.TextWrapWord
		box.Add(body)
	}
	var card fyne.CanvasObject
	closeBtn := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { n.drop(card) })
	closeBtn.Importance = widget.LowImportance
	head := container.NewBorder(nil, nil, nil, closeBtn, box)
	t := &liveToast{id: x.resolves, key: key, plugin: x.Key.Plugin, count: 1, times: times}
	// The pointer on a toast keeps it (it is being read); it goes
	// toastTTL after the pointer left.
	pad := newHoverPad(func() { t.gen++ }, func() { n.expire(t) })
	card = container.NewStack(pad, uikit.PanelBox(theme.ColorNameOverlayBackground, 0, head))
	t.obj, t.pad = card, pad
	n.layer.Add(card)
	n.live = append(n.live, t)
	for len(n.live) > MaxToasts {
		n.drop(n.live[0].obj)
	}
	n.expire(t)
	n.relayout()
	return t
}

// expire removes t toastTTL from now unless it is repeated meanwhile.
func (n *Notifier) expire(t *liveToast) {
	t.gen++
	gen := t.gen
	time.AfterFunc(toastTTL, func() {
		n.b.Post(func() {
			if t.gen == gen {
				n.drop(t.obj)
			}
		})
	})
}

// drop removes a toast if it is still shown (UI goroutine).
func (n *Notifier) drop(card fyne.CanvasObject) {
	for i, t := range n.live {
		if t.obj == card {
			n.live = append(n.live[:i:i], n.live[i+1:]...)
			n.layer.Remove(card)
			n.relayout()
			return
		}
	}
}

// OnResize sets what is called when toasts come and go (UI goroutine).
// The toasts float over the transcript and move nothing, so the window
// need not do anything; it stays for callers that count on it.
func (n *Notifier) OnResize(fn func()) { n.resized = fn }

func (n *Notifier) relayout() {
	n.layer.Refresh()
	if n.resized != nil {
		n.resized()
	}
}

// Toasts are the toast cards alive, oldest first (UI goroutine); a card
// toastLayout hid to keep clear of an approval is among them.
func (n *Notifier) Toasts() []fyne.CanvasObject {
	out := make([]fyne.CanvasObject, len(n.live))
	for i, t := range n.live {
		out[i] = t.obj
	}
	return out
}

// ToastCount is how many toasts are alive (UI goroutine).
func (n *Notifier) ToastCount() int { return len(n.live) }

// VisibleToasts is how many toasts are on screen now (UI goroutine).
func (n *Notifier) VisibleToasts() int {
	c := 0
	for _, t := range n.live {
		if t.obj.Visible() {
			c++
		}
	}
	return c
}

// waiting says whether a toast announces something waiting for the user
// (an approval or a prompt): its card is then on screen, scrolled into
// view at the transcript's foot.
func (n *Notifier) waiting() bool {
	for _, t := range n.live {
		if strings.HasPrefix(t.id, "approval:") || strings.HasPrefix(t.id, "prompt:") {
			return true
		}
	}
	return false
}

// toastLayout floats the toasts in the top right corner of the layer,
// newest on top, each ToastWidth wide. Its MinSize is zero: it never
// grows what it lies on. Toasts that would reach into the rectangle to
// avoid (or, while an approval waits and no rectangle is known, into the
// layer's lower third, where the approval is) are hidden, oldest first.
//
// Until Overlay is called (a window placing ToastLayer in its layout
// flow, as before) the layer is a strip as tall as its toasts.
type toastLayout struct {
	n        *Notifier
	floating bool
}

func (l *toastLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	if l.floating {
		return fyne.Size{}
	}
	h := float32(0)
	for _, t := range l.n.live {
		h += t.obj.MinSize().Height + theme.Padding()
	}
	if h > 0 {
		h += theme.Padding()
	}
	return fyne.NewSize(0, h)
}

func (l *toastLayout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	n := l.n
	pad := theme.Padding()
	// Clear of the transcript's scroll bar at the right edge.
	right := 2*pad + theme.ScrollBarSize()
	w := min(float32(ToastWidth), size.Width-right-pad)
	x := size.Width - right - w
	limit := size.Height - pad
	if !l.floating {
		limit = float32(math.Inf(1)) // a strip: as tall as its toasts
	} else if n.avoid != nil {
		if ap, as, ok := n.avoid(); ok {
			lp := fyne.CurrentApp().Driver().AbsolutePositionForObject(n.layer)
			top, left := ap.Y-lp.Y, ap.X-lp.X
			if left < x+w && left+as.Width > x && top+as.Height > 0 {
				limit = min(limit, top-pad)
			}
		}
	} else if n.waiting() {
		// The approval is scrolled into view at the transcript's foot:
		// its lower third is the card's (four toasts fit above it).
		limit = min(limit, size.Height*2/3)
	}
	y := pad
	full := w <= 0
	for i := len(n.live) - 1; i >= 0; i-- {
		o := n.live[i].obj
		if full {
			o.Hide()
			continue
		}
		o.Resize(fyne.NewSize(w, o.MinSize().Height)) // wrapping labels measure at their width
		h := o.MinSize().Height
		if y+h > limit {
			full = true
			o.Hide()
			continue
		}
		o.Show()
		o.Move(fyne.NewPos(x, y))
		o.Resize(fyne.NewSize(w, h))
		y += h + pad
	}
}
