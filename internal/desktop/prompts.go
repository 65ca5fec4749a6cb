package desktop

import (
	"context"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/desktop/forms"
	"github.com/reasonix/reasonix-desktop/internal/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// staleCheckEvery is how often an open prompt checks whether its
// generation or session went stale (a Cleared store change also wakes it).
const staleCheckEvery = 250 * time.Millisecond

// promptAnswer is what the dialog sends back to the waiting core goroutine.
type promptAnswer struct {
	values    map[string]any
	cancelled bool
}

// promptTracker wakes waiting prompts on store changes and remembers the
// open dialogs (UI goroutine) so tests can find their buttons.
type promptTracker struct {
	mu       sync.Mutex
	watchers map[chan struct{}]struct{}

	open map[*surfaces.Prompt]*promptView // UI goroutine only
}

func newPromptTracker() *promptTracker {
	return &promptTracker{watchers: map[chan struct{}]struct{}{}, open: map[*surfaces.Prompt]*promptView{}}
}

func (t *promptTracker) watch() chan struct{} {
	ch := make(chan struct{}, 1)
	t.mu.Lock()
	t.watchers[ch] = struct{}{}
	t.mu.Unlock()
	return ch
}

func (t *promptTracker) unwatch(ch chan struct{}) {
	t.mu.Lock()
	delete(t.watchers, ch)
	t.mu.Unlock()
}

// wake makes every waiting prompt re-check staleness (any goroutine).
func (t *promptTracker) wake() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for ch := range t.watchers {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// promptView is an open prompt dialog (UI goroutine).
type promptView struct {
	p       *surfaces.Prompt
	dlg     *dialog.CustomDialog
	form    *forms.View
	buttons map[string]*widget.Button
	res     chan<- promptAnswer
	done    bool
	onDone  func()
	// confirm is the default answer: Enter (Yes, or OK when complete).
	confirm func()
}

// Prompt implements agent.Frontend for host/ui/request: a modal dialog
// named after the plugin. It runs on a core goroutine and blocks until the
// user answers, the request's context ends, the prompt goes stale or the
// window closes; in the last three cases the dialog closes itself and the
// prompt is cancelled.
func (d *UI) Prompt(ctx context.Context, p *surfaces.Prompt) (map[string]any, bool) {
	res := make(chan promptAnswer, 1)
	d.b.Post(func() { d.showPrompt(p, res) })
	wake := d.wins.prompts.watch()
	defer d.wins.prompts.unwatch(wake)
	tick := time.NewTicker(staleCheckEvery)
	defer tick.Stop()
	for {
		select {
		case a := <-res:
			return a.values, a.cancelled
		case <-ctx.Done():
		case <-d.link.ctx.Done():
		case <-tick.C:
			if !d.promptStale(p) {
				continue
			}
		case <-wake:
			if !d.promptStale(p) {
				continue
			}
		}
		d.b.Post(func() {
			if v := d.wins.prompts.open[p]; v != nil {
				v.close()
			}
		})
		return nil, true
	}
}

// promptStale asks the store whether p's generation or session is gone.
func (d *UI) promptStale(p *surfaces.Prompt) bool {
	c := d.getCore()
	return c != nil && c.PromptStale(p)
}

// showPrompt builds and shows the dialog (UI goroutine).
func (d *UI) showPrompt(p *surfaces.Prompt, res chan<- promptAnswer) {
	v := &promptView{p: p, res: res, buttons: map[string]*widget.Button{}}
	keys := &modalKeys{cancel: func() { v.finish(nil, true) }, confirm: func() { v.confirm() }}
	popKeys := d.pushModal(keys)
	v.onDone = func() {
		delete(d.wins.prompts.open, p)
		popKeys()
		d.trace("prompt closed")
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
	cancel := widget.NewButton("Cancel", func() { v.finish(nil, true) })
	v.buttons["Cancel"] = cancel
	buttons := []fyne.CanvasObject{cancel}
	if p.Simple && p.Kind == protocol.RequestConfirm {
		no := widget.NewButton("No", func() { v.finish(map[string]any{protocol.SimpleValueKey: false}, false) })
		yes := widget.NewButton("Yes", func() { v.finish(map[string]any{protocol.SimpleValueKey: true}, false) })
		yes.Importance = widget.HighImportance
		v.buttons["No"], v.buttons["Yes"] = no, yes
		v.confirm = yes.OnTapped
		buttons = append(buttons, no, yes)
	} else {
		ok := widget.NewButton("OK", nil)
		ok.Importance = widget.HighImportance
		v.buttons["OK"] = ok
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
		v.form.OnKeys(keys.cancel, v.confirm)
		content.Add(v.form.Object())
		buttons = append(buttons, ok)
	}
	v.dlg = dialog.NewCustomWithoutButtons(p.Plugin+" asks", content, d.win)
	v.dlg.SetButtons(buttons)
	v.dlg.SetOnClosed(func() { v.finish(nil, true) }) // closed any other way: cancelled
	d.wins.prompts.open[p] = v
	v.dlg.Resize(fyne.NewSize(460, content.MinSize().Height+140))
	v.dlg.Show()
	d.trace("prompt " + p.Plugin)
	// Focus the first field; with none, nothing has the focus and the
	// window's keys (Esc, Enter) reach the dialog.
	if v.form != nil && v.form.FirstEntry() != nil {
		d.win.Canvas().Focus(v.form.FirstEntry())
	} else {
		d.win.Canvas().Unfocus()
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
