package desktop

import (
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

func TestStoppedPluginSurfacesAreGreyedUntilItRuns(t *testing.T) {
	h := newHarness(t)
	f := newFakeCore(t, h.d)
	h.waitFor("the core to load", func() bool { return h.d.status.Health().Text == "No plugins installed" })
	state := func(st string) {
		h.d.Emit(agent.Event{Kind: agent.EventPlugins, Plugins: []agent.PluginInfo{{Name: "alpha", State: st}}})
	}
	state(agent.PluginActive)
	f.publish(t, "alpha", "card", "c1", `{"title":"T","actions":[{"actionId":"go","label":"Go"}]}`)
	f.publish(t, "alpha", "form", "f1", `{"fields":[{"key":"name","kind":"input"}]}`)
	f.publish(t, "alpha", "status", "s1", `{"label":"ready","severity":"info"}`)
	h.waitFor("surfaces", func() bool {
		return h.d.surfaceView("alpha", "c1") != nil && h.d.surfaceView("alpha", "f1") != nil &&
			strings.Contains(h.d.status.Text(), "ready")
	})
	h.ui(func() {
		if h.d.surfaceView("alpha", "c1").actions["go"].Disabled() {
			t.Error("a running plugin's action is disabled")
		}
	})
	state(agent.PluginFailed) // it crashed
	stoppedBar := func(bar string) bool {
		return strings.Contains(bar, "alpha: plugin stopped") && !strings.Contains(bar, "ready ")
	}
	// The panel and the status bar each redraw on their own next frame:
	// both are waited for.
	h.waitFor("the grey, in the panel and the status bar", func() bool {
		v := h.d.surfaceView("alpha", "c1")
		return v != nil && v.actions["go"].Disabled() && h.d.panel.headers["alpha"].Text == "alpha — plugin stopped" &&
			stoppedBar(h.d.status.Text())
	})
	h.ui(func() {
		form := h.d.surfaceView("alpha", "f1")
		if !form.submit.Disabled() || form.state.Text != "plugin stopped" {
			t.Errorf("form: submit disabled %v, state %q", form.submit.Disabled(), form.state.Text)
		}
		test.Tap(h.d.surfaceView("alpha", "c1").actions["go"])
		if bar := h.d.status.Text(); !stoppedBar(bar) {
			t.Errorf("status bar says %q", bar)
		}
	})
	f.mu.Lock()
	invoked := len(f.invoked)
	f.mu.Unlock()
	if invoked != 0 {
		t.Errorf("a stopped plugin's action ran %d times", invoked)
	}
	state(agent.PluginActive) // restarted
	h.waitFor("the way back", func() bool {
		v := h.d.surfaceView("alpha", "c1")
		return !v.actions["go"].Disabled() && h.d.panel.headers["alpha"].Text == "alpha"
	})
}

// The real thing: hello-surfaces is killed, its card greys out with
// "plugin stopped"; Restart all brings its surfaces back enabled.
func TestCrashedPluginGreysOutAndRestartRepublishes(t *testing.T) {
	h := newHarness(t)
	h.install("hello-surfaces")
	c := h.openHello()
	cl, ok := c.Runtime().Current().Client("hello-surfaces")
	if !ok {
		t.Fatal("no hello-surfaces client")
	}
	p, err := os.FindProcess(cl.PID())
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Kill(); err != nil { // SIGKILL; TerminateProcess on Windows
		t.Fatal(err)
	}
	h.waitFor("the grey", func() bool {
		v := h.d.surfaceView("hello-surfaces", "hello-card")
		return v != nil && h.d.panel.headers["hello-surfaces"].Text == "hello-surfaces — plugin stopped" &&
			allDisabled(v) && strings.Contains(h.d.status.Text(), "plugin stopped")
	})
	h.ui(h.d.restartPlugins)
	h.waitFor("the way back", func() bool {
		v := h.d.surfaceView("hello-surfaces", "hello-card")
		return v != nil && h.d.panel.headers["hello-surfaces"].Text == "hello-surfaces" && !allDisabled(v)
	})
}

func allDisabled(v *surfaceView) bool {
	if len(v.actions) == 0 {
		return false
	}
	for _, b := range v.actions {
		if !b.Disabled() {
			return false
		}
	}
	return true
}
