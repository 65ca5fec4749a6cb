package dialogs

import (
	"context"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/forms"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// staleCheckEvery is how often an open prompt checks whether its
// generation or session went stale (Wake also makes it check).
const staleCheckEvery = 250 * time.Millisecond

// PromptHost is the window the prompt dialogs open over.
//
// Concurrency: Stale is called from the goroutine waiting in Ask (a core
// goroutine), so it must be safe on any goroutine and must not wait on a
// sidecar. PushModal and Trace are called on the UI goroutine only.
type PromptHost interface {
	// Stale reports whether p's generation or session is gone.
	Stale(p *surfaces.Prompt) bool
	// PushModal gives the window's Esc and Enter to an open dialog; the
	// returned func takes them back (called once, when the dialog closes).
	PushModal(cancel, confirm func()) (pop func())
	// Trace records a UI event for the end-to-end script ("prompt <plugin>",
	// "prompt closed").
	Trace(event string)
}

// promptAnswer is what the dialog sends back to the waiting goroutine.
type promptAnswer struct {
	values    map[string]any
	cancelled bool
}

// Prompts shows host/ui/request prompts (confirm, select, input, forms) as
// modal dialogs named after the plugin, and wakes the waiting ones when the
// surfaces store changes so stale prompts close themselves.
type Prompts struct {
	ctx  context.Context // ends when the window closes
	win  fyne.Window
	b    *uikit.Bridge
	host PromptHost

	mu       sync.Mutex
	watchers map[chan struct{}]struct{}

	open map[*surfaces.Prompt]*promptView // UI goroutine only
}

// NewPrompts makes the prompt dialogs of win; ctx ends when the window
// closes (every open prompt is then cancelled).
func NewPrompts(ctx context.Context, win fyne.Window, b *uikit.Bridge, host PromptHost) *Prompts {
	return &Prompts{ctx: ctx, win: win, b: b, host: host,
		watchers: map[chan struct{}]struct{}{}, open: map[*surfaces.Prompt]*promptView{}}
}

func (t *Prompts) watch() chan struct{} {
	ch := make(chan struct{}, 1)
	t.mu.Lock()
	t.watchers[ch] = struct{}{}
	t.mu.Unlock()
	return ch
}

func (t *Prompts) unwatch(ch chan struct{}) {
	t.mu.Lock()
	delete(t.watchers, ch)
	t.mu.Unlock()
}

// Wake makes every waiting prompt re-check staleness (any goroutine).
func (t *Prompts) Wake() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for ch := range t.watchers {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// Open reports whether p's dialog is showing (UI goroutine).
func (t *Prompts) Open(p *surfaces.Prompt) bool { return t.open[p] != nil }

// Count is how many prompt dialogs are showing (UI goroutine).
func (t *Prompts) Count() int { return len(t.open) }

// Ask shows p and blocks until the user answers, ctx ends, the prompt goes
// stale or the window closes; in the last three cases the dialog closes
// itself and the prompt is cancelled. Call it on a core goroutine, never
// the UI goroutine.
func (t *Prompts) Ask(ctx context.Context, p *surfaces.Prompt) (map[string]any, bool) {
	return t.AskIn(ctx, p, "")
}

// AskIn is Ask for a prompt of the chat named chat: the dialog's title
// names it ("" : none named), so a question is never taken for another
// chat's.
func (t *Prompts) AskIn(ctx context.Context, p *surfaces.Prompt, chat string) (map[string]any, bool) {
	res := make(chan promptAnswer, 1)
	t.b.Post(func() { t.show(p, res, chat) })
	wake := t.watch()
	defer t.unwatch(wake)
	tick := time.NewTicker(staleCheckEvery)
	defer tick.Stop()
	for {
		select {
		case a := <-res:
			return a.values, a.cancelled
		case <-ctx.Done():
		case <-t.ctx.Done():
		case <-tick.C:
			if !t.host.Stale(p) {
				continue
			}
		case <-wake:
			if !t.host.Stale(p) {
				continue
			}
		}
		t.b.Post(func() {
			if v := t.open[p]; v != nil {
				v.close()
			}
		})
		return nil, true
	}
}

// promptView is an open prompt dialog (UI goroutine).
type promptView struct {
	dlg    *dialog.CustomDialog
	form   *forms.View
	res    chan<- promptAnswer
	done   bool
	onDone func()
	// confirm is the default answer: Enter (Yes, or OK when complete).
	confirm func()
}

// show builds and shows the dialog (UI goroutine).
func (t *Prompts) show(p *surfaces.Prompt, res chan<- promptAnswer, chat string) {
	v := &promptView{res: res}
	cancelFn := func() { v.finish(nil, true) }
	popKeys := t.host.PushModal(cancelFn, func() { v.confirm() })
	v.onDone = func() {
		delete(t.open, p)
		popKeys()
		t.host.Trace("prompt closed")
	}
	content := container.NewVBox()
	if p.Title != "" {
		content.Add(widget.NewLabelWithStyle(p.Title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	}
	if p.Message != "" {
		m := widget.NewLabel(p.Message)
		m.Wrapping = fyne.TextWrapWord
		content.Add(m)
	}
	// forms.Button: a focus ring shows where Tab went, and Enter presses it.
	cancel := forms.NewButton(i18n.T("Cancel"), nil, cancelFn)
	buttons := []fyne.CanvasObject{cancel}
	if p.Simple && p.Kind == protocol.RequestConfirm {
		no := forms.NewButton(i18n.T("No"), nil, func() { v.finish(map[string]any{protocol.SimpleValueKey: false}, false) })
		yes := forms.NewButton(i18n.T("Yes"), nil, func() { v.finish(map[string]any{protocol.SimpleValueKey: true}, false) })
		yes.Importance = widget.HighImportance
		v.confirm = yes.OnTapped
		buttons = append(buttons, no, yes)
	} else {
		ok := forms.NewButton(i18n.T("OK"), nil, nil)
		ok.Importance = widget.HighImportance
		v.form = forms.New(p.Fields, p.Simple, func() {
			if v.form.Complete() {
				ok.Enable()
			} else {
				ok.Disable()
			}
		})
		ok.OnTapped = func() {
			if v.form.Complete() {
				v.finish(v.form.Values(), false)
			}
		}
		v.form.Changed()
		v.confirm = ok.OnTapped
		v.form.OnKeys(cancelFn, v.confirm)
		content.Add(v.form.Object())
		buttons = append(buttons, ok)
	}
	title := i18n.T("%s asks", p.Plugin)
	if chat != "" {
		title = i18n.T("%s asks in “%s”", p.Plugin, chat)
	}
	v.dlg = dialog.NewCustomWithoutButtons(title, content, t.win)
	v.dlg.SetButtons(buttons)
	v.dlg.SetOnClosed(cancelFn) // closed any other way: cancelled
	t.open[p] = v
	v.dlg.Resize(fyne.NewSize(460, content.MinSize().Height+140))
	v.dlg.Show()
	t.host.Trace("prompt " + p.Plugin)
	// Focus the first field; with none, nothing has the focus and the
	// window's keys (Esc, Enter) reach the dialog.
	if v.form != nil && v.form.FirstEntry() != nil {
		t.win.Canvas().Focus(v.form.FirstEntry())
	} else {
		t.win.Canvas().Unfocus()
	}
}

// finish answers once and closes the dialog.
func (v *promptView) finish(values map[string]any, cancelled bool) {
	if v.done {
		return
	}
	v.done = true
	v.res <- promptAnswer{values: values, cancelled: cancelled}
	v.dlg.Hide()
	v.onDone()
}

// close hides a dialog whose answer is no longer wanted.
func (v *promptView) close() {
	if v.done {
		return
	}
	v.done = true
	v.dlg.Hide()
	v.onDone()
}
