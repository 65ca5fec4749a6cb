package desktop

import (
	"context"
	"reflect"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/surfaces"
)

type promptResult struct {
	values    map[string]any
	cancelled bool
}

// ask runs Frontend.Prompt on a "core" goroutine and returns its answer
// channel once the dialog is open.
func ask(t *testing.T, h *harness, p *surfaces.Prompt) (<-chan promptResult, *promptView) {
	t.Helper()
	out := make(chan promptResult, 1)
	go func() {
		v, c := h.d.Prompt(context.Background(), p)
		out <- promptResult{v, c}
	}()
	var view *promptView
	h.waitFor("prompt dialog", func() bool {
		view = h.d.wins.prompts.open[p]
		return view != nil && h.topOverlay() != nil
	})
	return out, view
}

func answer(t *testing.T, ch <-chan promptResult) promptResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("Prompt did not return")
	}
	return promptResult{}
}

func TestPromptKindsAnswerTypedValues(t *testing.T) {
	tests := []struct {
		name, kind, payload string
		act                 func(v *promptView)
		want                map[string]any
		wantTitle           string
	}{
		{name: "confirm yes", kind: "confirm", payload: `{"title":"Proceed?","fields":[{"key":"value","kind":"confirm"}]}`,
			act: func(v *promptView) { test.Tap(v.buttons["Yes"]) }, want: map[string]any{"value": true}},
		{name: "confirm no", kind: "confirm", payload: `{"title":"Proceed?","fields":[{"key":"value","kind":"confirm"}]}`,
			act: func(v *promptView) { test.Tap(v.buttons["No"]) }, want: map[string]any{"value": false}},
		{name: "input", kind: "input", payload: `{"message":"Name?","fields":[{"key":"value","kind":"input","default":"x"}]}`,
			act: func(v *promptView) {
				e := v.form.Input("value").Entry
				e.SetText("")
				test.Type(e, "Ada")
				test.Tap(v.buttons["OK"])
			}, want: map[string]any{"value": "Ada"}},
		{name: "select", kind: "select", payload: `{"fields":[{"key":"value","kind":"select","options":["a","b"]}]}`,
			act: func(v *promptView) {
				if !v.buttons["OK"].Disabled() {
					panic("OK enabled before a choice")
				}
				v.form.Input("value").Radio.SetSelected("b")
				test.Tap(v.buttons["OK"])
			}, want: map[string]any{"value": "b"}},
		{name: "multiselect", kind: "multiselect", payload: `{"fields":[{"key":"value","kind":"multiselect","options":["a","b","c"]}]}`,
			act: func(v *promptView) {
				v.form.Input("value").Group.SetSelected([]string{"a", "c"})
				test.Tap(v.buttons["OK"])
			}, want: map[string]any{"value": []string{"a", "c"}}},
		{name: "custom form", kind: "input", payload: `{"title":"Login","fields":[
			{"key":"user","label":"User","kind":"input","required":true},
			{"key":"remember","kind":"confirm"},
			{"key":"scopes","kind":"multiselect","options":["r","w"]}]}`,
			act: func(v *promptView) {
				if !v.buttons["OK"].Disabled() {
					panic("OK enabled with the required user empty")
				}
				test.Type(v.form.Input("user").Entry, "root")
				v.form.Input("remember").Check.SetChecked(true)
				v.form.Input("scopes").Group.SetSelected([]string{"w"})
				test.Tap(v.buttons["OK"])
			}, want: map[string]any{"user": "root", "remember": true, "scopes": []string{"w"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			f := newFakeCore(t, h.d)
			p := f.prompt(t, "hello-surfaces", tt.kind, tt.payload)
			ch, view := ask(t, h, p)
			h.ui(func() {
				if got := view.dlg; got == nil {
					t.Fatal("no dialog")
				}
				tt.act(view)
			})
			r := answer(t, ch)
			if r.cancelled || !reflect.DeepEqual(r.values, tt.want) {
				t.Fatalf("answer %#v cancelled=%v, want %#v", r.values, r.cancelled, tt.want)
			}
			// The core turns the values into the wire answer; they must fit.
			if _, err := p.Answer(r.values); err != nil {
				t.Fatalf("values do not fit the prompt: %v", err)
			}
			h.waitFor("dialog closed", func() bool { return h.d.wins.prompts.open[p] == nil && h.topOverlay() == nil })
		})
	}
}

func TestPromptTitleNamesThePlugin(t *testing.T) {
	h := newHarness(t)
	f := newFakeCore(t, h.d)
	p := f.prompt(t, "hello-surfaces", "confirm", `{"title":"Proceed?","fields":[{"key":"value","kind":"confirm"}]}`)
	ch, view := ask(t, h, p)
	h.ui(func() {
		found := false
		for _, o := range test.LaidOutObjects(h.topOverlay()) {
			if l, ok := o.(*widget.Label); ok && l.Text == "hello-surfaces asks" {
				found = true
			}
		}
		if !found {
			t.Error("the dialog is not titled with the plugin's name")
		}
		test.Tap(view.buttons["Cancel"])
	})
	if r := answer(t, ch); !r.cancelled || r.values != nil {
		t.Fatalf("Cancel answered %+v", r)
	}
}

func TestPromptCancelAndClose(t *testing.T) {
	h := newHarness(t)
	f := newFakeCore(t, h.d)
	p := f.prompt(t, "p", "input", `{"fields":[{"key":"value","kind":"input"}]}`)
	ch, view := ask(t, h, p)
	h.ui(func() { test.Tap(view.buttons["Cancel"]) })
	if r := answer(t, ch); !r.cancelled {
		t.Fatalf("Cancel answered %+v", r)
	}

	// Closing the dialog any other way is a cancel too.
	p2 := f.prompt(t, "p", "confirm", `{"fields":[{"key":"value","kind":"confirm"}]}`)
	ch2, view2 := ask(t, h, p2)
	h.ui(func() { view2.dlg.Hide() })
	if r := answer(t, ch2); !r.cancelled {
		t.Fatalf("closing answered %+v", r)
	}

	// The request's context ending closes the dialog.
	p3 := f.prompt(t, "p", "confirm", `{"fields":[{"key":"value","kind":"confirm"}]}`)
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan promptResult, 1)
	go func() {
		v, c := h.d.Prompt(ctx, p3)
		out <- promptResult{v, c}
	}()
	h.waitFor("third dialog", func() bool { return h.d.wins.prompts.open[p3] != nil })
	cancel()
	if r := answer(t, out); !r.cancelled {
		t.Fatalf("ctx end answered %+v", r)
	}
	h.waitFor("dialog gone", func() bool { return h.d.wins.prompts.open[p3] == nil && h.topOverlay() == nil })
}

func TestStalePromptClosesItself(t *testing.T) {
	h := newHarness(t)
	f := newFakeCore(t, h.d)
	p := f.prompt(t, "p", "confirm", `{"fields":[{"key":"value","kind":"confirm"}]}`)
	ch, _ := ask(t, h, p)
	f.store.Bind(surfaces.Binding{SessionID: fakeSession, Generation: fakeGen + 1}) // a reload
	if r := answer(t, ch); !r.cancelled {
		t.Fatalf("stale prompt answered %+v", r)
	}
	h.waitFor("stale dialog closed", func() bool { return h.d.wins.prompts.open[p] == nil && h.topOverlay() == nil })
}
