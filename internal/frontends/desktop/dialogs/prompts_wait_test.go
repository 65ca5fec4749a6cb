package dialogs

import (
	"context"
	"slices"
	"testing"

	"fyne.io/fyne/v2/test"
)

// waitingHost is a prompt host that is told when a prompt waits.
type waitingHost struct {
	*promptHost
	waiting []string
}

func (h *waitingHost) PromptWaiting(text string) { h.waiting = append(h.waiting, text) }

// A prompt that shows is announced to a host that takes it (the system
// notifies it while the app is not focused).
func TestPromptWaitingIsAnnounced(t *testing.T) {
	r := newPromptRig(t, context.Background())
	h := &waitingHost{promptHost: r.host}
	r.p = NewPrompts(context.Background(), r.win, r.b, h)
	ch := r.ask(context.Background(), r.prompt("hello-surfaces", "confirm", `{"title":"Proceed?","fields":[{"key":"value","kind":"confirm"}]}`))
	r.b.OnUI(func() {
		if !slices.Equal(h.waiting, []string{"hello-surfaces asks: Proceed?"}) {
			t.Errorf("announced %q", h.waiting)
		}
		test.Tap(button(t, r.win, "Cancel"))
	})
	answer(t, ch)
}
