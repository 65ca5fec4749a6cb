package desktop

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/panels"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
)

const secret = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"

func TestPluginManagerShowsDiagnosticsRedacted(t *testing.T) {
	h := newHarness(t)
	newFakeCore(t, h.d)
	h.waitFor("the core to load", func() bool { return h.d.status.Health().Text == "No plugins installed" })
	ps := []agent.PluginInfo{
		{Name: "good", Version: "1.0", State: agent.PluginActive, Generation: 2, Intercepts: []string{"tool.before"},
			Replaces: []string{"permission"}, Providers: []string{"plugin/good/x"}, Actions: []string{"go"}},
		{Name: "bad", Version: "0.1", State: agent.PluginFailed, Generation: 2, Failure: "exit status 1",
			StderrTail:  "boom: token=" + secret + "\n",
			StartReport: (&sidecar.StartError{Plugin: "bad", Stage: sidecar.StageSpawn, Command: "/nope/bad", Err: fmt.Errorf("no such file")}).Report()},
	}
	h.d.Emit(agent.Event{Kind: agent.EventPlugins, Plugins: ps})
	h.waitFor("health", func() bool { return h.d.status.Health().Text == "Plugins: 1 active · 1 failed" })
	h.ui(func() {
		test.Tap(h.d.status.Health()) // opens the manager
		w := h.windowNamed("Plugins")
		if w == nil {
			t.Fatal("the plugin manager did not open")
		}
		text := shownText(w)
		for _, want := range []string{"good 1.0", "Active · generation 2", "tool.before", "permission", "plugin/good/x", "go"} {
			if !strings.Contains(text, want) {
				t.Errorf("details lack %q:\n%s", want, text)
			}
		}
		for _, o := range test.LaidOutObjects(w.Content()) {
			if l, ok := o.(*widget.List); ok {
				l.Select(1)
			}
		}
		text = shownText(w)
		for _, want := range []string{"Failed", "exit status 1", "stage:      spawn", "/nope/bad", "boom: token="} {
			if !strings.Contains(text, want) {
				t.Errorf("details lack %q:\n%s", want, text)
			}
		}
		if strings.Contains(text, secret) {
			t.Errorf("stderr tail not redacted:\n%s", text)
		}
		if findButton(w.Content(), "Disable") == nil {
			t.Error("a failed plugin offers no Disable")
		}
	})
}

func TestPluginsMenuListsActions(t *testing.T) {
	h := newHarness(t)
	h.install("hello-surfaces")
	h.openCore()
	h.waitFor("the plugin submenu", func() bool {
		for _, m := range h.d.win.MainMenu().Items {
			if m.Label != "Plugins" {
				continue
			}
			for _, it := range m.Items {
				if it.Label == "hello-surfaces" && it.ChildMenu != nil {
					var labels []string
					for _, a := range it.ChildMenu.Items {
						labels = append(labels, a.Label)
					}
					return strings.Contains(strings.Join(labels, "|"), "Refresh the card  (/hello-surfaces:refresh)")
				}
			}
		}
		return false
	})
}

func TestApprovalDeniedWhenTheTurnEnds(t *testing.T) {
	h := newHarness(t)
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan agent.Approval, 1)
	go func() {
		got <- h.d.Approve(ctx, agent.ApprovalRequest{CallID: "c1", Tool: "write_file", Arguments: `{"path":"x"}`})
	}()
	h.waitFor("approval buttons", func() bool {
		return h.transcriptButton("Approve once") != nil && strings.Contains(h.renderedTranscript(), `{"path":"x"}`)
	})
	cancel()
	if a := <-got; a != agent.ApproveDeny {
		t.Fatalf("approval %q after the turn ended", a)
	}
	h.waitFor("buttons gone", func() bool { return h.transcriptButton("Approve once") == nil })
}

func TestNotificationsWindowAndToastsExpire(t *testing.T) {
	h := newHarness(t)
	f := newFakeCore(t, h.d)
	for i := range 6 {
		f.publish(t, "alpha", "notification", fmt.Sprint("n", i), fmt.Sprintf(`{"title":"note %d"}`, i))
	}
	h.waitFor("capped toasts", func() bool { return h.d.notes.ToastCount() == panels.MaxToasts })
	h.ui(h.d.notes.Show)
	h.waitFor("the list", func() bool { e := h.d.notes.Entries(); return len(e) == 6 && e[0].Title == "note 5" })
}

func TestStopButtonStopsTheTurn(t *testing.T) {
	h := newHarness(t)
	h.install("echo-provider")
	c := h.openCore()
	if err := c.SetModel(context.Background(), echoModel, ""); err != nil {
		t.Fatal(err)
	}
	h.waitFor("composer ready", func() bool { return !h.d.composer.sendBtn.Disabled() })
	// A tool call that waits for approval keeps the turn running.
	h.send(`call run_command {"command":"echo slow"}`)
	h.waitFor("the approval to wait", func() bool {
		return h.transcriptButton("Approve once") != nil && h.d.state.Busy() && !h.d.composer.stopBtn.Disabled()
	})
	h.ui(func() { test.Tap(h.d.composer.stopBtn) })
	h.waitFor("the turn to stop", func() bool {
		return !h.d.state.Busy() && strings.Contains(h.renderedTranscript(), "Stopped")
	})
	h.ui(func() {
		if r := h.renderedTranscript(); strings.Contains(r, "failed") {
			t.Errorf("a stop reads like a failure:\n%s", r)
		}
	})
}
