package desktop

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/forms"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/markdown"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
)

// labelsOf collects the texts a user reads in a subtree.
func labelsOf(h *harness, v *surfaceView) string {
	var b strings.Builder
	for _, o := range test.LaidOutObjects(v.obj) {
		switch w := o.(type) {
		case *widget.Label:
			b.WriteString(w.Text + "\n")
		case *widget.RichText:
			b.WriteString(markdown.PlainText(w.Segments) + "\n")
		case *widget.Button:
			b.WriteString("[" + w.Text + "]\n")
		case *forms.Button: // the form's Submit, with its focus ring
			b.WriteString("[" + w.Text + "]\n")
		case *widget.Check:
			b.WriteString("☐ " + w.Text + "\n")
		case *widget.RadioGroup:
			b.WriteString("(" + strings.Join(w.Options, "|") + ")\n")
		case *widget.CheckGroup:
			b.WriteString("{" + strings.Join(w.Options, "|") + "}\n")
		}
	}
	return b.String()
}

func TestEachSurfaceKindRenders(t *testing.T) {
	h := newHarness(t)
	f := newFakeCore(t, h.d)
	f.publish(t, "alpha", "status", "st", `{"label":"Indexing","detail":"file 3 of 9","severity":"warn","progress":0.3}`)
	f.publish(t, "alpha", "card", "c1", `{"title":"Build","markdown":"**green** build","text":"plain words",
		"fields":[{"key":"branch","value":"main"},{"key":"tests","value":"412"}],"progress":0.5,
		"actions":[{"actionId":"rerun","label":"Re-run"}]}`)
	f.publish(t, "alpha", "form", "f1", `{"title":"Deploy","message":"Where to?","fields":[
		{"key":"target","label":"Target","kind":"select","options":["staging","prod"],"default":"staging","required":true},
		{"key":"note","label":"Note","kind":"input","default":"hello"},
		{"key":"regions","label":"Regions","kind":"multiselect","options":["eu","us"],"default":["eu"]},
		{"key":"sure","label":"I am sure","kind":"confirm","default":true}]}`)
	f.publish(t, "beta", "notification", "n1", `{"title":"Backup done","body":"3 GiB","severity":"info"}`)

	h.waitFor("card and form", func() bool {
		return h.d.surfaceView("alpha", "c1") != nil && h.d.surfaceView("alpha", "f1") != nil
	})
	h.ui(func() {
		card := labelsOf(h, h.d.surfaceView("alpha", "c1"))
		for _, want := range []string{"Build", "green build", "plain words", "branch", "main", "tests", "412", "[Re-run]"} {
			if !strings.Contains(card, want) {
				t.Errorf("card lacks %q:\n%s", want, card)
			}
		}
		form := labelsOf(h, h.d.surfaceView("alpha", "f1"))
		for _, want := range []string{"Deploy", "Where to?", "Target *", "(staging|prod)", "Note", "Regions", "{eu|us}", "☐ I am sure", "[Submit]"} {
			if !strings.Contains(form, want) {
				t.Errorf("form lacks %q:\n%s", want, form)
			}
		}
		fv := h.d.surfaceView("alpha", "f1").form
		if got := fv.Input("target").Radio.Selected; got != "staging" {
			t.Errorf("select default %q", got)
		}
		if got := fv.Input("note").Entry.Text; got != "hello" {
			t.Errorf("input default %q", got)
		}
		if got := fv.Input("regions").Group.Selected; !reflect.DeepEqual(got, []string{"eu"}) {
			t.Errorf("multiselect default %v", got)
		}
		if !fv.Input("sure").Check.Checked {
			t.Error("confirm default not checked")
		}
	})
	h.waitFor("status bar", func() bool { return strings.Contains(h.d.status.Text(), "Indexing | file 3 of 9") })
	h.waitFor("notification toast", func() bool { return h.d.notes.ToastCount() == 1 })
	if got := h.d.notes.Entries(); len(got) != 1 || got[0].Title != "Backup done" || got[0].Body != "3 GiB" || got[0].Plugin != "beta" {
		t.Fatalf("notifications %+v", got)
	}
	h.waitFor("system notification", func() bool { return h.d.notes.Sent() == 1 })
}

func TestCardActionAndTypedFormSubmit(t *testing.T) {
	h := newHarness(t)
	f := newFakeCore(t, h.d)
	f.publish(t, "alpha", "card", "c1", `{"title":"T","actions":[{"actionId":"rerun","label":"Re-run"}]}`)
	f.publish(t, "alpha", "form", "f1", `{"fields":[
		{"key":"name","label":"Name","kind":"input","required":true},
		{"key":"color","kind":"select","options":["red","green"]},
		{"key":"tags","kind":"multiselect","options":["go","ui"]},
		{"key":"agree","kind":"confirm"}]}`)
	h.waitFor("surfaces", func() bool { return h.d.surfaceView("alpha", "c1") != nil && h.d.surfaceView("alpha", "f1") != nil })
	h.ui(func() { test.Tap(h.d.surfaceView("alpha", "c1").actions["rerun"]) })
	h.waitFor("action invoked", func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		return len(f.invoked) == 1 && f.invoked[0] == "/alpha:rerun"
	})

	var v *surfaceView
	h.ui(func() {
		v = h.d.surfaceView("alpha", "f1")
		if !v.submit.Disabled() {
			t.Error("Submit enabled with the required Name empty")
		}
		test.Type(v.form.Input("name").Entry, "Ada")
		v.form.Input("color").Radio.SetSelected("green")
		v.form.Input("tags").Group.SetSelected([]string{"ui"})
		v.form.Input("agree").Check.SetChecked(true)
		if v.submit.Disabled() {
			t.Fatal("Submit still disabled with the form filled")
		}
		test.Tap(v.submit)
	})
	h.waitFor("sent state", func() bool {
		v := h.d.surfaceView("alpha", "f1")
		return v.surf.Submit == surfaces.SubmitSent && v.state.Text == "Sent" && v.submit.Disabled()
	})
	f.mu.Lock()
	defer f.mu.Unlock()
	want := map[string]any{"name": "Ada", "color": "green", "tags": []string{"ui"}, "agree": true}
	if len(f.submits) != 1 || !reflect.DeepEqual(f.submits[0], want) {
		t.Fatalf("submitted %#v, want %#v", f.submits, want)
	}
}

// TestStatusBarEndsOnLastPublish: 1,000 rapid publishes of one status end
// with the bar showing the last one.
func TestStatusBarEndsOnLastPublish(t *testing.T) {
	h := newHarness(t)
	f := newFakeCore(t, h.d)
	for i := 1; i <= 1000; i++ {
		f.publish(t, "alpha", "status", "progress", fmt.Sprintf(`{"label":"Indexing","detail":"file %d of 1000","progress":%g}`, i, float64(i)/1000))
	}
	h.waitFor("last status", func() bool { return h.d.status.Text() == "Indexing | file 1000 of 1000" })
	if n := h.d.status.Syncs(); n >= 1000 {
		t.Errorf("the bar re-rendered %d times for 1,000 publishes: not coalesced", n)
	}
}

// Enter in a field of a panel form submits it, as in a dialog's form (it
// did nothing).
func TestEnterInAPanelFormSubmits(t *testing.T) {
	h := newHarness(t)
	f := newFakeCore(t, h.d)
	f.publish(t, "alpha", "form", "f1", `{"fields":[{"key":"name","label":"Name","kind":"input","required":true}]}`)
	h.waitFor("the form", func() bool { return h.d.surfaceView("alpha", "f1") != nil })
	h.ui(func() {
		e := h.d.surfaceView("alpha", "f1").form.Input("name").Entry
		e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // empty and required: nothing sent
		test.Type(e, "Ada")
		e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	})
	h.waitFor("sent", func() bool { return h.d.surfaceView("alpha", "f1").surf.Submit == surfaces.SubmitSent })
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.submits) != 1 || f.submits[0]["name"] != "Ada" {
		t.Errorf("submits %v, want one with name Ada", f.submits)
	}
}
