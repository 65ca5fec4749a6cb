package desktop

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/desktop/markdown"
	"github.com/reasonix/reasonix-desktop/internal/host/agent"
	"github.com/reasonix/reasonix-desktop/internal/testutil"
)

// findButton finds the button labelled text under o (a dialog's popup).
func findButton(o fyne.CanvasObject, text string) *widget.Button {
	if b, ok := o.(*widget.Button); ok && b.Text == text {
		return b
	}
	var kids []fyne.CanvasObject
	switch x := o.(type) {
	case *fyne.Container:
		kids = x.Objects
	case fyne.Widget:
		kids = test.WidgetRenderer(x).Objects()
	}
	for _, k := range kids {
		if b := findButton(k, text); b != nil {
			return b
		}
	}
	return nil
}

// windowNamed is the open window titled title, or nil.
func (h *harness) windowNamed(title string) fyne.Window {
	for _, w := range h.d.opts.App.Driver().AllWindows() {
		if w.Title() == title {
			return w
		}
	}
	return nil
}

// shownText is the text of every label and rich text laid out in w.
func shownText(w fyne.Window) string {
	var b strings.Builder
	for _, o := range test.LaidOutObjects(w.Content()) {
		switch x := o.(type) {
		case *widget.Label:
			b.WriteString(x.Text + "\n")
		case *widget.RichText:
			if x.Visible() {
				b.WriteString(markdown.PlainText(x.Segments) + "\n")
			}
		case transcriptText:
			if x.Visible() {
				b.WriteString(markdown.PlainText(x.RichTextWidget().Segments) + "\n")
			}
		}
	}
	return b.String()
}

func (h *harness) pluginState(name string) string {
	for _, p := range h.d.state.Plugins() {
		if p.Name == name {
			return p.State
		}
	}
	return ""
}

// The plugin manager drives a real core with real plugins: the FULL TRUST
// block, the doctor, disable and enable, install through the preview,
// restart and remove all go through the core's API and land in the store.
func TestPluginManagerThroughTheCore(t *testing.T) {
	h := newHarness(t)
	h.install("echo-provider")
	h.openCore()
	h.waitFor("echo-provider active", func() bool { return h.pluginState("echo-provider") == agent.PluginActive })
	var w fyne.Window
	button := func(text string) *widget.Button {
		t.Helper()
		b := findButton(w.Content(), text)
		if b == nil {
			t.Fatalf("no %q button in the manager", text)
		}
		return b
	}
	h.ui(func() {
		h.d.showPluginManager()
		w = h.windowNamed("Plugins")
	})
	h.waitFor("the FULL TRUST block", func() bool { return strings.Contains(shownText(w), "FULL TRUST") })
	h.ui(func() {
		text := shownText(w)
		for _, want := range []string{"echo-provider", "command:", "runs outside any sandbox"} {
			if !strings.Contains(text, want) {
				t.Errorf("details lack %q:\n%s", want, text)
			}
		}
		test.Tap(button("Doctor"))
	})
	var doctor string
	h.waitFor("the doctor", func() bool {
		if dw := h.windowNamed("Doctor: echo-provider"); dw != nil {
			doctor = shownText(dw)
		}
		return doctor != ""
	})
	for _, want := range []string{"running:     Active in generation 1", "handshake:   ok", "plugin/echo-provider/echo/echo-1", "doctor: all checks passed"} {
		if !strings.Contains(doctor, want) {
			t.Errorf("doctor lacks %q:\n%s", want, doctor)
		}
	}
	store, err := agent.OpenPlugins(h.layout)
	if err != nil {
		t.Fatal(err)
	}
	enabled := func() bool {
		r, err := store.Get("echo-provider")
		if err != nil {
			t.Fatal(err)
		}
		return r.Enabled
	}

	h.ui(func() { test.Tap(button("Disable")) })
	h.waitFor("disabled", func() bool { return h.pluginState("echo-provider") == agent.PluginDisabled })
	if enabled() {
		t.Error("Disable did not reach the store")
	}
	h.ui(func() {
		if !button("Restart").Disabled() {
			t.Error("Restart is enabled for a disabled plugin")
		}
		test.Tap(button("Enable"))
	})
	h.waitFor("enabled", func() bool { return h.pluginState("echo-provider") == agent.PluginActive })
	if !enabled() {
		t.Error("Enable did not reach the store")
	}

	// Install: the form, the FULL TRUST preview, its Install button.
	src := testutil.ExamplePlugin(t, "policy-guard")
	h.ui(func() {
		test.Tap(button("Install…"))
		path := w.Canvas().Focused() // the dialog focuses its path field
		if path == nil {
			t.Fatal("Install… focused nothing")
		}
		test.Type(path, src)
		test.Tap(findButton(w.Canvas().Overlays().Top(), "Preview…"))
	})
	var install *widget.Button
	h.waitFor("the FULL TRUST preview", func() bool {
		top := w.Canvas().Overlays().Top()
		install = nil
		if top != nil {
			install = findButton(top, "Install")
		}
		return install != nil
	})
	if _, err := store.Get("policy-guard"); err == nil {
		t.Fatal("the preview installed the plugin")
	}
	h.ui(func() { test.Tap(install) })
	h.waitFor("policy-guard active", func() bool { return h.pluginState("policy-guard") == agent.PluginActive })
	rec, err := store.Get("policy-guard")
	if err != nil || rec.Linked || rec.Root == src {
		t.Fatalf("installed %+v, %v: want a copy", rec, err)
	}

	gen := func() int64 {
		for _, p := range h.d.state.Plugins() {
			return p.Generation
		}
		return 0
	}
	var before int64
	h.ui(func() {
		before = gen()
		i := slices.IndexFunc(h.d.state.Plugins(), func(p agent.PluginInfo) bool { return p.Name == "policy-guard" })
		for _, o := range test.LaidOutObjects(w.Content()) {
			if l, ok := o.(*widget.List); ok {
				l.Select(i)
			}
		}
		test.Tap(button("Restart"))
	})
	h.waitFor("a new generation", func() bool { return gen() > before })

	h.ui(func() {
		test.Tap(button("Remove"))
		yes := findButton(w.Canvas().Overlays().Top(), "Remove policy-guard")
		if yes == nil {
			t.Fatal("Remove asked nothing")
		}
		test.Tap(yes)
	})
	h.waitFor("policy-guard removed", func() bool { return h.pluginState("policy-guard") == "" && len(h.d.state.Plugins()) == 1 })
	if _, err := store.Get("policy-guard"); err == nil {
		t.Error("Remove did not reach the store")
	}
}
