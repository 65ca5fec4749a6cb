package testutil

import "go.uber.org/goleak"

// LeakOptions are the goroutines a leak check tolerates: ones that belong to
// the runtime or to a library for the life of the process, never ones this
// module starts per connection, plugin or turn.
func LeakOptions() []goleak.Option {
	return []goleak.Option{
		// Fyne's test driver and its animation and cache workers live for
		// the process once a test app exists.
		goleak.IgnoreTopFunction("fyne.io/fyne/v2/internal/async.(*UnboundedChan[...]).processing"),
		goleak.IgnoreAnyFunction("fyne.io/fyne/v2/internal/cache.init.0.func1"),
		goleak.IgnoreAnyFunction("fyne.io/fyne/v2/internal/animation.(*Runner).runAnimations"),
		goleak.IgnoreAnyFunction("fyne.io/fyne/v2/test.NewTempApp"),
		goleak.IgnoreAnyFunction("fyne.io/fyne/v2/internal/driver/common.(*Window).RunEventQueue"),
		// chroma's regexp engine keeps a coarse clock for match timeouts.
		goleak.IgnoreAnyFunction("github.com/dlclark/regexp2/v2.runClock"),
		// os/signal's loop, started by signal.Notify, runs until exit.
		goleak.IgnoreTopFunction("os/signal.signal_recv"),
	}
}
