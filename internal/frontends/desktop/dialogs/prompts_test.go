package dialogs

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/forms"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

const (
	session = "s1"
	gen     = int64(1)
)

// promptHost is a window over a real surfaces store; its modal stack is
// the window's Esc and Enter (UI goroutine).
type promptHost struct {
	store  *surfaces.Store
	modals []*[2]func()
}

func (h *promptHost) Stale(p *surfaces.Prompt) bool { return h.store.Stale(p) }
func (h *promptHost) Trace(string)                  {}
func (h *promptHost) PushModal(cancel, confirm func()) func() {
	m := &[2]func(){cancel, confirm}
	h.modals = append(h.modals, m)
	return func() {
		for i, x := range h.modals {
			if x == m {
				h.modals = append(h.modals[:i], h.modals[i+1:]...)
			}
		}
	}
}

type promptRig struct {
	t    *testing.T
	win  fyne.Window
	b    *uikit.Bridge
	host *promptHost
	p    *Prompts
}

func newPromptRig(t *testing.T, ctx context.Context) *promptRig {
	a := test.NewTempApp(t)
	b := uikit.NewBridge()
	t.Cleanup(b.Stop)
	r := &promptRig{t: t, win: a.NewWindow("main"), b: b,
		host: &promptHost{store: surfaces.NewStore(func(string) surfaces.PluginState { return surfaces.PluginActive })}}
	r.host.store.Bind(surfaces.Binding{SessionID: session, Generation: gen})
	r.win.Resize(fyne.NewSize(800, 600))
	b.OnUI(r.win.Show)
	r.p = NewPrompts(ctx, r.win, b, r.host)
	return r
}

// prompt admits a host/ui/request the way the core does.
func (r *promptRig) prompt(plugin, kind, payload string) *surfaces.Prompt {
	r.t.Helper()
	raw, _ := json.Marshal(map[string]any{"kind": kind, "surfaceId": "ask", "sessionId": session,
		"generation": gen, "payload": json.RawMessage(payload)})
	p, early, err := r.host.store.AdmitRequest(plugin, raw)
	if err != nil || early != nil {
		r.t.Fatalf("admit %s: %v %v", kind, early, err)
	}
	return p
}

type promptResult struct {
	values    map[string]any
	cancelled bool
}

// ask runs Ask on a "core" goroutine and returns its answer channel once
// the dialog shows.
func (r *promptRig) ask(ctx context.Context, p *surfaces.Prompt) <-chan promptResult {
	r.t.Helper()
	out := make(chan promptResult, 1)
	go func() {
		v, c := r.p.Ask(ctx, p)
		out <- promptResult{v, c}
	}()
	waitFor(r.t, r.b.OnUI, "the prompt dialog", func() bool { return r.p.Open(p) && r.win.Canvas().Overlays().Top() != nil })
	return out
}

func answer(t *testing.T, ch <-chan promptResult) promptResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("Ask did not return")
	}
	return promptResult{}
}

// shown lists the widgets of type T in the top dialog, in layout order.
func shown[T fyne.CanvasObject](win fyne.Window) []T {
	var out []T
	top := win.Canvas().Overlays().Top()
	if top == nil {
		return nil
	}
	for _, o := range test.LaidOutObjects(top) {
		if w, ok := o.(T); ok && w.Visible() {
			out = append(out, w)
		}
	}
	return out
}

// button is the top dialog's button labelled text.
func button(t *testing.T, win fyne.Window, text string) *widget.Button {
	t.Helper()
	for _, b := range shown[*forms.Button](win) {
		if b.Text == text {
			return &b.Button
		}
	}
	for _, b := range shown[*widget.Button](win) {
		if b.Text == text {
			return b
		}
	}
	t.Fatalf("no %q button in the dialog", text)
	return nil
}

func TestPromptKindsAnswerTypedValues(t *testing.T) {
	tests := []struct {
		name, kind, payload string
		act                 func(t *testing.T, w fyne.Window)
		want                map[string]any
	}{
		{name: "confirm yes", kind: "confirm", payload: `{"title":"Proceed?","fields":[{"key":"value","kind":"confirm"}]}`,
			act: func(t *testing.T, w fyne.Window) { test.Tap(button(t, w, "Yes")) }, want: map[string]any{"value": true}},
		{name: "confirm no", kind: "confirm", payload: `{"title":"Proceed?","fields":[{"key":"value","kind":"confirm"}]}`,
			act: func(t *testing.T, w fyne.Window) { test.Tap(button(t, w, "No")) }, want: map[string]any{"value": false}},
		{name: "input", kind: "input", payload: `{"message":"Name?","fields":[{"key":"value","kind":"input","default":"x"}]}`,
			act: func(t *testing.T, w fyne.Window) {
				e := shown[*forms.Entry](w)[0]
				e.SetText("")
				test.Type(e, "Ada")
				test.Tap(button(t, w, "OK"))
			}, want: map[string]any{"value": "Ada"}},
		{name: "select", kind: "select", payload: `{"fields":[{"key":"value","kind":"select","options":["a","b"]}]}`,
			act: func(t *testing.T, w fyne.Window) {
				if !button(t, w, "OK").Disabled() {
					t.Error("OK enabled before a choice")
				}
				shown[*widget.RadioGroup](w)[0].SetSelected("b")
				test.Tap(button(t, w, "OK"))
			}, want: map[string]any{"value": "b"}},
		{name: "multiselect", kind: "multiselect", payload: `{"fields":[{"key":"value","kind":"multiselect","options":["a","b","c"]}]}`,
			act: func(t *testing.T, w fyne.Window) {
				shown[*widget.CheckGroup](w)[0].SetSelected([]string{"a", "c"})
				test.Tap(button(t, w, "OK"))
			}, want: map[string]any{"value": []string{"a", "c"}}},
		{name: "custom form", kind: "input", payload: `{"title":"Login","fields":[
			{"key":"user","label":"User","kind":"input","required":true},
			{"key":"remember","kind":"confirm"},
			{"key":"scopes","kind":"multiselect","options":["r","w"]}]}`,
			act: func(t *testing.T, w fyne.Window) {
				if !button(t, w, "OK").Disabled() {
					t.Error("OK enabled with the required user empty")
				}
				test.Type(shown[*forms.Entry](w)[0], "root")
				test.Tap(shown[*widget.Check](w)[0]) // remember, before the group's boxes
				shown[*widget.CheckGroup](w)[0].SetSelected([]string{"w"})
				test.Tap(button(t, w, "OK"))
			}, want: map[string]any{"user": "root", "remember": true, "scopes": []string{"w"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newPromptRig(t, context.Background())
			p := r.prompt("hello-surfaces", tt.kind, tt.payload)
			ch := r.ask(context.Background(), p)
			r.b.OnUI(func() { tt.act(t, r.win) })
			got := answer(t, ch)
			if got.cancelled || !reflect.DeepEqual(got.values, tt.want) {
				t.Fatalf("answer %#v cancelled=%v, want %#v", got.values, got.cancelled, tt.want)
			}
			// The core turns the values into the wire answer; they must fit.
			if _, err := p.Answer(got.values); err != nil {
				t.Fatalf("values do not fit the prompt: %v", err)
			}
			waitFor(t, r.b.OnUI, "dialog closed", func() bool {
				return !r.p.Open(p) && r.win.Canvas().Overlays().Top() == nil && len(r.host.modals) == 0
			})
		})
	}
}

func TestPromptTitleNamesThePlugin(t *testing.T) {
	r := newPromptRig(t, context.Background())
	ch := r.ask(context.Background(), r.prompt("hello-surfaces", "confirm", `{"title":"Proceed?","fields":[{"key":"value","kind":"confirm"}]}`))
	r.b.OnUI(func() {
		found := false
		for _, l := range shown[*widget.Label](r.win) {
			if l.Text == "hello-surfaces asks" {
				found = true
			}
		}
		if !found {
			t.Error("the dialog is not titled with the plugin's name")
		}
		test.Tap(button(t, r.win, "Cancel"))
	})
	if got := answer(t, ch); !got.cancelled || got.values != nil {
		t.Fatalf("Cancel answered %+v", got)
	}
}

func TestPromptCancelAndClose(t *testing.T) {
	r := newPromptRig(t, context.Background())
	ch := r.ask(context.Background(), r.prompt("p", "input", `{"fields":[{"key":"value","kind":"input"}]}`))
	r.b.OnUI(func() { test.Tap(button(t, r.win, "Cancel")) })
	if got := answer(t, ch); !got.cancelled {
		t.Fatalf("Cancel answered %+v", got)
	}

	// Closing the dialog any other way is a cancel too.
	p := r.prompt("p", "confirm", `{"fields":[{"key":"value","kind":"confirm"}]}`)
	ch = r.ask(context.Background(), p)
	r.b.OnUI(func() { r.p.open[p].dlg.Hide() })
	if got := answer(t, ch); !got.cancelled {
		t.Fatalf("closing answered %+v", got)
	}

	// The request's context ending closes the dialog.
	p = r.prompt("p", "confirm", `{"fields":[{"key":"value","kind":"confirm"}]}`)
	ctx, cancel := context.WithCancel(context.Background())
	ch = r.ask(ctx, p)
	cancel()
	if got := answer(t, ch); !got.cancelled {
		t.Fatalf("ctx end answered %+v", got)
	}
	waitFor(t, r.b.OnUI, "dialog gone", func() bool { return !r.p.Open(p) && r.win.Canvas().Overlays().Top() == nil })
}

// The window closing cancels an open prompt.
func TestPromptWindowCloseCancels(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := newPromptRig(t, ctx)
	p := r.prompt("p", "confirm", `{"fields":[{"key":"value","kind":"confirm"}]}`)
	ch := r.ask(context.Background(), p)
	cancel()
	if got := answer(t, ch); !got.cancelled {
		t.Fatalf("window close answered %+v", got)
	}
	waitFor(t, r.b.OnUI, "dialog gone", func() bool { return !r.p.Open(p) })
}

func TestStalePromptClosesItself(t *testing.T) {
	r := newPromptRig(t, context.Background())
	p := r.prompt("p", "confirm", `{"fields":[{"key":"value","kind":"confirm"}]}`)
	ch := r.ask(context.Background(), p)
	r.host.store.Bind(surfaces.Binding{SessionID: session, Generation: gen + 1}) // a reload
	r.p.Wake()
	if got := answer(t, ch); !got.cancelled {
		t.Fatalf("stale prompt answered %+v", got)
	}
	waitFor(t, r.b.OnUI, "stale dialog closed", func() bool { return !r.p.Open(p) && r.win.Canvas().Overlays().Top() == nil })
}

// The window's Esc and Enter reach the top dialog: Enter in the first
// field (which has the focus) submits it, Enter says Yes, Esc cancels.
func TestPromptDialogKeys(t *testing.T) {
	r := newPromptRig(t, context.Background())
	ch := r.ask(context.Background(), r.prompt("alpha", "input", `{"title":"Name?","fields":[{"key":"value","kind":"input"}]}`))
	r.b.OnUI(func() {
		focused, ok := r.win.Canvas().Focused().(*forms.Entry)
		if !ok || focused != shown[*forms.Entry](r.win)[0] {
			t.Fatalf("focus is on %T, not the first field", r.win.Canvas().Focused())
		}
		test.Type(focused, "Ada")
		focused.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	})
	if a := answer(t, ch); a.cancelled || a.values[protocol.SimpleValueKey] != "Ada" {
		t.Fatalf("Enter answered %+v", a)
	}
	for _, tc := range []struct {
		key       int // 0 cancel (Esc), 1 confirm (Enter)
		cancelled bool
	}{{0, true}, {1, false}} {
		ch = r.ask(context.Background(), r.prompt("alpha", "confirm", `{"title":"Sure?","fields":[{"key":"value","kind":"confirm"}]}`))
		r.b.OnUI(func() {
			if r.win.Canvas().Focused() != nil {
				t.Errorf("%T has the focus; the window's keys would not reach the dialog", r.win.Canvas().Focused())
			}
			r.host.modals[len(r.host.modals)-1][tc.key]()
		})
		if a := answer(t, ch); a.cancelled != tc.cancelled || (!a.cancelled && a.values[protocol.SimpleValueKey] != true) {
			t.Fatalf("key %d answered %+v", tc.key, a)
		}
	}
	waitFor(t, r.b.OnUI, "keys given back", func() bool { return len(r.host.modals) == 0 })
}

// Tab to a prompt's button shows a ring around it, and Enter presses the
// focused button (here No, not the default Yes).
func TestPromptFocusedButtonTakesEnter(t *testing.T) {
	r := newPromptRig(t, context.Background())
	ch := r.ask(context.Background(), r.prompt("hello-surfaces", "confirm", `{"title":"Proceed?","fields":[{"key":"value","kind":"confirm"}]}`))
	r.b.OnUI(func() {
		var no *forms.Button
		for _, b := range shown[*forms.Button](r.win) {
			if b.Text == "No" {
				no = b
			}
		}
		if no == nil {
			t.Fatal("the No button is no forms.Button")
		}
		r.win.Canvas().Focus(no)
		if !no.Focused() {
			t.Error("No did not take the focus")
		}
		no.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	})
	if got := answer(t, ch); got.cancelled || got.values["value"] != false {
		t.Fatalf("Enter on No answered %+v", got)
	}
}
