//go:build !nogui

package main

import (
	"context"
	"flag"
	"fmt"
	"github.com/reasonix/reasonix-desktop/internal/core/chatpool"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	"fyne.io/fyne/v2/app"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// appID matches FyneApp.toml.
const appID = "io.reasonix.desktop"

// demoMessages are sent by --demo (with the first plugin model when none
// is chosen yet): a markdown reply and a read-only tool call.
var demoMessages = []string{
	"Hello! Replies are **markdown**: `code`, a [link](https://example.com) and a list:\n\n- plugins\n- models\n- surfaces",
	`call list_dir {"path":"."}`,
}

// runGUI is `reasonix-desktop` without arguments, or `reasonix-desktop gui`:
// the window. The core opens in a goroutine (plugins can take seconds to
// start) while the window is already up.
func runGUI(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("reasonix-desktop gui")
	fs.SetOutput(stderr)
	var cf coreFlags
	cf.register(fs)
	demo := fs.Bool("demo", false, i18n.T("pick the first plugin model if none is chosen and send two demo messages"))
	shot := fs.String("screenshot", "", i18n.T("write a PNG of the window to `PATH` (CI)"))
	shotAfter := fs.Duration("screenshot-after", 3*time.Second, i18n.T("when to take the --screenshot"))
	exitAfter := fs.Duration("exit-after", 0, i18n.T("quit cleanly after this long (CI); 0 runs until closed"))
	session := fs.String("session", "", i18n.T("open the saved session `ID` at start (default: the one open when the app last ran)"))
	// Hidden (checks under Xvfb, left out of the usage): send a message,
	// print the transcript's figures at exit.
	send := fs.String("send", "", i18n.T("send `TEXT` once the window is up"))
	stats := fs.Bool("stats", false, i18n.T("print the transcript's frame figures at exit"))
	trace := fs.Bool("trace", false, i18n.T("print what the window does, a line each (end-to-end scripts)"))
	themeFlag := fs.String("theme", "", i18n.T("this run's theme: system, light or dark (CI screenshots; not saved)"))
	hideFlags(fs, "send", "stats", "trace", "theme")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintln(stderr, "reasonix-desktop gui:", i18n.T("unexpected argument %q", fs.Arg(0)))
		return 2
	}
	layout, err := agent.DataLayout(cf.dataDir)
	if err != nil {
		fmt.Fprintln(stderr, "reasonix-desktop gui:", err)
		return 1
	}

	if err := layout.EnsureDirs(); err != nil {
		fmt.Fprintln(stderr, "reasonix-desktop gui:", err)
		return 1
	}
	if err := displayMissing(); err != nil {
		fmt.Fprintln(stderr, "reasonix-desktop gui:", err)
		return 1
	}

	a := app.NewWithID(appID)
	a.SetIcon(desktop.Icon)
	opts := desktop.Options{App: a, Layout: layout, Version: version, Icon: desktop.Icon, Theme: *themeFlag, QuietAnimations: true,
		// A first start with no model chosen offers "Connect a model" (once;
		// Later is remembered). The window follows the language itself.
		ConnectAtStart: userSettings(layout).DefaultModel == ""}
	if *trace {
		var mu sync.Mutex
		opts.Trace = func(event string) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintln(stdout, "trace:", event)
		}
	}
	ui := desktop.New(opts)
	ui.CheckSettings() // a broken settings.json shows over the chat; the core runs on the defaults

	opened := make(chan func(), 1) // the core's close func, nil when it did not open
	go func() {
		cf.onFrame = ui.OnFrame
		// The first core opens in the chat the window shows first, so the
		// launch starts the plugins once, for it.
		cf.resume = *session
		if cf.resume == "" {
			cf.resume = ui.LastSession()
		}
		core, openChat, closeCore, err := cf.openChats(ctx, ui, protocol.UIHostDesktop, stderr)
		if err != nil {
			fmt.Fprintln(stderr, "reasonix-desktop gui:", redact.String(err.Error()))
			ui.StartFailed(err)
			opened <- nil
			return
		}
		// Each chat the window opens gets a core of its own from the same
		// shared store (the live chats' pool), so switching restarts nothing
		// and several chats reply at once.
		ui.UseOpener(func(ctx context.Context, s chatpool.Spec) (*agent.Core, error) {
			return openChat(ctx, s.SessionID, s.Workspace)
		})
		ui.Attach(core)
		ui.SetMCP(mcpWindowSource{core: core})
		opened <- closeCore
		if *session != "" {
			if err := ui.OpenSession(ctx, *session); err != nil {
				fmt.Fprintln(stderr, "reasonix-desktop gui:", i18n.T("open session: %s", redact.String(err.Error())))
			}
		} else if err := ui.ReopenLast(ctx); err != nil {
			fmt.Fprintln(stderr, "reasonix-desktop gui:", i18n.T("reopen the last session: %s", redact.String(err.Error())))
		}
		// Opening the chat decoded its whole file once (20 MB and three
		// times that in garbage for 50,000 messages): give the freed pages
		// back now rather than over the next minutes, so a long chat does not
		// keep the launch's peak as the app's size.
		debug.FreeOSMemory()
		switch {
		case *demo:
			ui.RunDemo(demoMessages...)
		case *send != "":
			ui.RunDemo(*send)
		}
	}()
	ran := make(chan struct{}) // closed when a.Run returned
	quit := quitWatchdog(ui, ran, opened, stderr)
	stopWatch := context.AfterFunc(ctx, quit) // SIGINT / SIGTERM
	defer stopWatch()
	if *exitAfter > 0 {
		t := time.AfterFunc(*exitAfter, quit)
		defer t.Stop()
	}
	if *shot != "" {
		go func() {
			select {
			case <-time.After(*shotAfter):
			case <-ctx.Done():
				return
			}
			if err := screenshot(ctx, ui, *shot); err != nil {
				fmt.Fprintln(stderr, "reasonix-desktop gui: screenshot:", err)
				return
			}
			fmt.Fprintln(stdout, "screenshot written to", *shot)
		}()
	}

	a.Run()
	close(ran)
	if *stats {
		fmt.Fprintln(stdout, ui.Stats())
	}
	ui.Close()
	closeCore := <-opened
	if closeCore == nil {
		return 1
	}
	closeCore()
	return 0
}

// quitGrace is how long a quit asked by a signal or --exit-after waits for
// the window to close before the watchdog leaves without it.
const quitGrace = 10 * time.Second

// quitWatchdog returns the quit the signals and --exit-after ask for: it
// asks the window to quit and, if a.Run has not returned (ran closed)
// quitGrace later, closes the core (the plugins stop, the session is
// saved) and exits. Fyne 2.7 can deadlock while quitting: an input event
// queued as the main loop stops waits for that loop, which waits for the
// event queue (seen once under load in the end-to-end script: the app
// ignored SIGTERM for 14 minutes). opened is the core's close func, as the
// normal path reads it; whichever path takes it closes the core.
func quitWatchdog(ui *desktop.UI, ran <-chan struct{}, opened <-chan func(), stderr io.Writer) func() {
	var once sync.Once
	return func() {
		ui.Quit()
		once.Do(func() {
			go func() {
				select {
				case <-ran:
					return
				case <-time.After(quitGrace):
				}
				fmt.Fprintln(stderr, "reasonix-desktop gui:", i18n.T("the window did not close within %v of quitting; stopping the plugins and leaving without it", quitGrace))
				if closeCore := <-opened; closeCore != nil {
					closeCore()
				}
				os.Exit(0)
			}()
		})
	}
}

// screenshot writes the window's current rendering as a PNG.
func screenshot(ctx context.Context, ui *desktop.UI, path string) error {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	img := ui.Capture(cctx)
	if img == nil {
		return fmt.Errorf("the window did not render in time")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// hideFlags leaves flags for checks and scripts out of the usage text.
func hideFlags(fs *flag.FlagSet, names ...string) {
	hidden := map[string]bool{}
	for _, n := range names {
		hidden[n] = true
	}
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), i18n.T("Usage of %s:", fs.Name()))
		fs.VisitAll(func(f *flag.Flag) {
			if hidden[f.Name] {
				return
			}
			name, usage := flag.UnquoteUsage(f)
			fmt.Fprintf(fs.Output(), "  -%s %s\n    \t%s\n", f.Name, name, usage)
		})
	}
}
