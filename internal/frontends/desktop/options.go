package desktop

import (
	"fyne.io/fyne/v2"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/core/chatpool"
)

// Options configure the desktop front end.
type Options struct {
	// App is the Fyne app (app.NewWithID in the binary, test.NewApp in
	// tests).
	App fyne.App
	// Layout is the data directory: plugin store, host log.
	Layout agent.Layout
	// Version is shown in Help → About.
	Version string
	// Icon is the window and About icon (optional).
	Icon fyne.Resource
	// Trace, when set, is told what the window is doing ("models 1",
	// "approval run_command", "prompt hello-surfaces", "turn done"…) from
	// any goroutine: end-to-end scripts wait on it instead of guessing.
	Trace func(event string)
	// Theme, when set (system, light, dark), is this run's theme, not saved
	// (CI screenshots of both variants).
	Theme string
	// QuietAnimations turns Fyne's widget animations off, the caret's
	// fade first: an idle window with the composer focused then costs
	// 1.5 % of a core instead of 8.9 % (quiet.go). Not for tests: Fyne's
	// test helpers expect their own app as the current one. Without the
	// fade nothing redraws the window every frame by chance: a change
	// must mark it (a widget's Refresh; fyne's Container.Add and Show do
	// not), as the composer's paste tile does.
	QuietAnimations bool
	// ConnectAtStart opens "Connect a model" once the model catalog is in
	// when no model but the echo one is there and the user has not said
	// Later (the app sets it; tests and window scripts leave it off).
	ConnectAtStart bool
	// OpenChat opens a chat's own core (the binary builds it with the
	// shared config): with it, each live chat keeps its core in a pool
	// (livechats.go) and several reply at once; without it the window has
	// one core and a switch loads the chat in it.
	OpenChat chatpool.Opener
}
