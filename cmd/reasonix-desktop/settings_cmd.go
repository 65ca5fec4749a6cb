package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/extensions/settings"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

// settingsUsage is the settings command's help in the language in use.
func settingsUsage() string {
	return i18n.T(`usage: reasonix-desktop settings <subcommand> [--data-dir DIR]

subcommands:
  check   say whether settings.json is usable, and if not what is wrong
          (exit 1 when it is broken)
  reset   replace settings.json with the defaults, keeping the old file
          next to it as settings.json.broken-<time>
  path    print the path of settings.json
`)
}

// reportSettings prints, once, what is wrong with settings.json: a broken
// file is an error (the command goes on with the default settings, which
// approve nothing, so every write and command still asks), an unknown
// field or an empty file a warning.
func reportSettings(layout agent.Layout, stderr io.Writer) {
	p := settings.Check(layout.SettingsFile())
	if p == nil {
		return
	}
	if p.Broken {
		fmt.Fprintln(stderr, i18n.T("error: %s; to start again from the defaults: reasonix-desktop settings reset", safe(p.Error())))
		return
	}
	fmt.Fprintln(stderr, i18n.T("warning: %s", safe(p.Error())))
}

// runSettings is `reasonix-desktop settings`.
func runSettings(_ context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, settingsUsage())
		return 2
	}
	sub := args[0]
	fs := flag.NewFlagSet("reasonix-desktop settings "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data-dir", "", i18n.T("data directory"))
	switch sub {
	case "check", "reset", "path":
	case "help", "-h", "--help":
		fmt.Fprint(stdout, settingsUsage())
		return 0
	default:
		fmt.Fprintf(stderr, "reasonix-desktop settings: %s\n\n%s", i18n.T("unknown subcommand %q", sub), settingsUsage())
		return 2
	}
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "reasonix-desktop settings %s: %s\n", sub, i18n.T("unexpected argument %q", fs.Arg(0)))
		return 2
	}
	layout, err := agent.DataLayout(*dataDir)
	if err != nil {
		fmt.Fprintf(stderr, "reasonix-desktop settings %s: %s\n", sub, safe(err.Error()))
		return 1
	}
	path := layout.SettingsFile()
	switch sub {
	case "path":
		fmt.Fprintln(stdout, path)
	case "check":
		p := settings.Check(path)
		switch {
		case p == nil:
			fmt.Fprintln(stdout, i18n.T("%s: ok", path))
		case p.Broken:
			fmt.Fprintln(stderr, i18n.T("error: %s", safe(p.Error())))
			return 1
		default:
			fmt.Fprintln(stdout, i18n.T("warning: %s", safe(p.Error())))
		}
	case "reset":
		if err := layout.EnsureDirs(); err != nil {
			fmt.Fprintf(stderr, "reasonix-desktop settings reset: %s\n", safe(err.Error()))
			return 1
		}
		backup, err := settings.Reset(path, time.Now())
		if err != nil {
			fmt.Fprintf(stderr, "reasonix-desktop settings reset: %s\n", safe(err.Error()))
			return 1
		}
		if backup != "" {
			fmt.Fprintln(stdout, i18n.T("%s reset to the defaults; the old one is kept as %s", safe(path), safe(backup)))
		} else {
			fmt.Fprintln(stdout, i18n.T("%s written with the defaults", safe(path)))
		}
	}
	return 0
}
