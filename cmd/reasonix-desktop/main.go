// Command reasonix-desktop is the desktop host for Reasonix Extension
// Protocol v2 sidecars and xdev v1 extensions. This file only parses the
// subcommand and wires the front end to the core.
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	// Its init runs before Fyne's, which parses the locale (see envlocale).
	"github.com/reasonix/reasonix-desktop/internal/foundation/envlocale"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
)

// usage is the command's help in the language in use.
func usage() string {
	return i18n.T(`usage: reasonix-desktop [<command>] [flags]

commands:
  gui [--workspace DIR] [--demo]                           open the window (also: no command)
  chat --headless [--model ID] [--prompt TEXT]             chat on the terminal
  models [--json]                                          list plugin models
  plugin install|link|list|show|remove|enable|disable|doctor
                                                           manage v2 plugins
  doctor [--json] [NAME]                                   check every (or one) installed plugin
  settings check|reset|path                                check or reset settings.json
  provider presets|connect|balance|list|set-key|clear     connect a model (DeepSeek, OpenAI, Ollama…), API keys
  mcp add|list|remove|tools|call                           manage and try your MCP servers
  session list|search|export|import|pin|unpin              the saved chats: list, find, take out, bring in
  version                                                  print the version

Every command takes --data-dir DIR (default $REASONIX_DESKTOP_HOME, else the
user config dir + /reasonix-desktop).
`)
}

func main() {
	envlocale.Restore() // Fyne's init is done; plugins inherit the user's environment
	if len(os.Args) == 2 && os.Args[1] == proc.WatchdogCommand {
		// Hidden: the host re-executed as its own watchdog (see proc).
		proc.RunWatchdog()
		return
	}
	enableWatchdog()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	setLanguage(args)
	if len(args) == 0 {
		return runGUI(ctx, nil, stdout, stderr)
	}
	switch args[0] {
	case "gui":
		return runGUI(ctx, args[1:], stdout, stderr)
	case "plugin":
		return runPlugin(ctx, args[1:], stdout, stderr)
	case "doctor":
		return runPlugin(ctx, append([]string{"doctor"}, args[1:]...), stdout, stderr)
	case "chat":
		return runChat(ctx, args[1:], stdin, stdout, stderr)
	case "settings":
		return runSettings(ctx, args[1:], stdout, stderr)
	case "provider":
		return runProvider(ctx, args[1:], stdin, stdout, stderr)
	case "models":
		return runModels(ctx, args[1:], stdout, stderr)
	case "mcp":
		return runMCP(ctx, args[1:], stdin, stdout, stderr)
	case "session":
		return runSession(ctx, args[1:], stdin, stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, "reasonix-desktop", version)
		return 0
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage())
		return 0
	}
	fmt.Fprintf(stderr, "reasonix-desktop: %s\n\n%s", i18n.T("unknown command %q", args[0]), usage())
	return 2
}

// enableWatchdog arranges for every plugin process to die with the host,
// even when the host is SIGKILLed: the first plugin process started runs
// this binary again as the watchdog.
func enableWatchdog() {
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "reasonix-desktop: no watchdog (plugin processes rely on the parent-death signal):", err)
		return
	}
	// Its rare failures (it could not start, or died) go to stderr: they
	// happen before or outside any command's host.log.
	warn := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	proc.EnableWatchdog(self, []string{proc.WatchdogCommand}, nil, warn)
}

// version is set at link time for releases.
var version = "0.1.0-dev"
