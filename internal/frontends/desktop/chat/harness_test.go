package chat

import (
	"os"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/viewmodel"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// echoModel is the echo provider's model id (the tests' current model).
const echoModel = "plugin/echo-provider/echo/echo-1"

// testHost is the window around the chat: the clipboard is the test app's,
// links and resends are recorded.
type testHost struct {
	app    fyne.App
	mu     sync.Mutex
	links  []string
	resent []string
}

func (h *testHost) CopyText(s string) { h.app.Clipboard().SetContent(s) }

func (h *testHost) ConfirmLink(dest string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.links = append(h.links, dest)
}

func (h *testHost) Resend(text string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.resent = append(h.resent, text)
}

func (h *testHost) resends() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.resent...)
}

// testWindow holds a transcript the way the desktop does: in a window, on
// the bridge, following the view-model's busy state.
type testWindow struct {
	win        fyne.Window
	b          *uikit.Bridge
	state      *viewmodel.State
	transcript *Transcript
	host       *testHost
	app        fyne.App
	model      string // the model a failed turn names
}

// Emit feeds the transcript a core event the way the desktop's Emit does.
func (w *testWindow) Emit(ev agent.Event) {
	t := w.transcript
	switch ev.Kind {
	case agent.EventTurnStarted:
		t.BeginTurn()
		w.b.Post(func() { w.state.SetRunning(testChat) })
	case agent.EventUserMessage:
		t.AddUser(ev.Text)
	case agent.EventText:
		t.AppendDelta(ev.Text, false)
	case agent.EventReasoning:
		t.AppendDelta(ev.Text, true)
	case agent.EventToolCall, agent.EventToolProgress:
		t.ToolCall(*ev.Call)
	case agent.EventTodo:
		t.SetTodos(ev.Todos)
	case agent.EventUsage:
		t.SetUsage(*ev.Usage)
	case agent.EventTurnDone:
		t.EndMessage()
		w.b.Post(func() { w.state.SetRunning("") })
	case agent.EventTurnFailed:
		// As the desktop: a stop marks the reply, a failure adds its notice.
		if ev.End != nil && ev.End.Outcome == agent.TurnStopped {
			t.Stopped()
		} else {
			reason, model := ev.Error, w.model
			w.b.Post(func() { t.Failed(DescribeFailure(model, "", reason)) })
		}
		w.b.Post(func() { w.state.SetRunning("") })
	}
}

// testChat is the one chat on the test window's screen.
const testChat = "chat"

// harness is a transcript in a window on Fyne's test driver. The test
// goroutine acts as the UI goroutine inside h.ui (the bridge's lock).
type harness struct {
	t testing.TB
	d *testWindow
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	a := test.NewTempApp(t)
	w := &testWindow{b: uikit.NewBridge(), state: viewmodel.New(), host: &testHost{app: a}, app: a}
	w.state.SetSession(viewmodel.Open{ID: testChat})
	w.transcript = New(w.b, w.state, w.host)
	w.state.Subscribe(viewmodel.Busy, func(viewmodel.Change) { w.transcript.BusyChanged() })
	t.Cleanup(w.b.Stop)
	h := &harness{t: t, d: w}
	h.ui(func() {
		w.win = a.NewWindow("chat")
		w.win.SetContent(w.transcript.Object())
		w.win.Resize(fyne.NewSize(800, 760))
		w.win.Show()
	})
	return h
}

// ui runs fn as UI work.
func (h *harness) ui(fn func()) { h.d.b.OnUI(fn) }

// waitFor polls cond as UI work until it holds or 15 s pass.
func (h *harness) waitFor(what string, cond func() bool) {
	h.t.Helper()
	testutil.WaitUntil(h.t, what, func() (ok bool) {
		h.ui(func() { ok = cond() })
		return ok
	})
}

// topOverlay is the canvas's top overlay (an open popup menu).
func (h *harness) topOverlay() fyne.CanvasObject {
	return h.d.win.Canvas().Overlays().Top()
}
