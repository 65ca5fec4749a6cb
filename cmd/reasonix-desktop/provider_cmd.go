package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/secrets"
	"github.com/reasonix/reasonix-desktop/internal/foundation/textwidth"
)

// providerUsage is the provider command's help in the language in use.
func providerUsage() string {
	return i18n.T(`usage: reasonix-desktop provider <subcommand> [--data-dir DIR]

subcommands:
  presets                   the model servers connect knows (DeepSeek first), the
                            local ones found running on this machine marked
  connect PRESET [--base-url URL] [--model M]...
                            connect a model in one step: the API key is read from
                            stdin (one line; empty for a local server), the server
                            is asked for its models (what failed is said in words),
                            then the bundled OpenAI-compatible provider plugin is
                            linked when absent and set up for it. Without --model
                            the model menu lists every model the server has
  balance [PLUGIN]          the account's balance at the server PLUGIN (default
                            openai-provider) is set up for, where the server
                            reports one (DeepSeek)
  list                      the provider plugins, the variables each reads and
                            whether a value is saved (values of secrets are never shown)
  set-key PLUGIN VARIABLE   save the value read from stdin (one line; never an
                            argument, which other users and shell history can see)
  clear PLUGIN VARIABLE     forget the saved value

Values are saved in the system keyring, or where none answers in
credentials.json (mode 0600) in the data directory; $REASONIX_CREDENTIALS_STORE
(auto|keyring|file) chooses. The plugin gets them in its environment at its
next start.
`)
}

// maxValueBytes bounds a value read from stdin.
const maxValueBytes = 64 << 10

// runProvider is `reasonix-desktop provider`.
func runProvider(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, providerUsage())
		return 2
	}
	sub := args[0]
	want := map[string]int{"list": 0, "set-key": 2, "clear": 2, "presets": 0, "connect": 1, "balance": -1}
	n, ok := want[sub]
	switch {
	case sub == "help" || sub == "-h" || sub == "--help":
		fmt.Fprint(stdout, providerUsage())
		return 0
	case !ok:
		fmt.Fprintf(stderr, "reasonix-desktop provider: %s\n\n%s", i18n.T("unknown subcommand %q", sub), providerUsage())
		return 2
	}
	fs := flag.NewFlagSet("reasonix-desktop provider "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data-dir", "", i18n.T("data directory"))
	var req connectRequest
	var models names
	if sub == "connect" {
		fs.StringVar(&req.baseURL, "base-url", "", i18n.T("the server's address (default: the preset's)"))
		fs.Var(&models, "model", i18n.T("offer only this model (repeat for several; default: every model the server lists)"))
	}
	pos, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return 2
	}
	if len(pos) != n && !(n < 0 && len(pos) <= 1) {
		fmt.Fprintf(stderr, "reasonix-desktop provider %s: %s\n\n%s", sub, i18n.T("want %d arguments, got %d", max(n, 1), len(pos)), providerUsage())
		return 2
	}
	layout, err := agent.DataLayout(*dataDir)
	if err == nil {
		err = layout.EnsureDirs()
	}
	if err != nil {
		fmt.Fprintf(stderr, "reasonix-desktop provider %s: %s\n", sub, safe(err.Error()))
		return 1
	}
	store := secrets.Open(secrets.Options{Dir: layout.Root, Mode: secrets.ModeFromEnv()})
	keys := agent.OpenProviderKeys(layout, store, nil)
	fail := func(err error) int {
		fmt.Fprintf(stderr, "reasonix-desktop provider %s: %s\n", sub, safe(err.Error()))
		return 1
	}
	switch sub {
	case "presets":
		if err := printPresets(ctx, stdout); err != nil {
			return fail(err)
		}
	case "connect":
		req.preset, req.models = pos[0], models
		if err := connect(ctx, layout, req, stdin, stdout, stderr); err != nil {
			return fail(err)
		}
	case "balance":
		plugin := agent.OpenAIProvider
		if len(pos) == 1 {
			plugin = pos[0]
		}
		if err := printBalance(ctx, layout, plugin, stdout); err != nil {
			return fail(err)
		}
	case "list":
		list, err := keys.List()
		if err != nil {
			return fail(err)
		}
		printProviders(stdout, list, whereSaved(store))
	case "set-key":
		plugin, name := pos[0], pos[1]
		value, err := readSecret(ctx, stdin, stderr, i18n.T("Value of %s for %s (one line, not shown as you type): ", name, plugin),
			i18n.T("Value of %s for %s (one line; it shows as you type: pipe it in to avoid that): ", name, plugin))
		if err != nil {
			return fail(fmt.Errorf("%s: %w", i18n.T("read the value of %s from stdin", name), err))
		}
		if value == "" {
			return fail(errors.New(i18n.T("stdin held no value for %s (to forget a saved one: reasonix-desktop provider clear %s %s)", name, plugin, name)))
		}
		if err := keys.Save(plugin, map[string]string{name: value}); err != nil {
			return fail(err)
		}
		fmt.Fprintln(stdout, i18n.T("%s for %s: %s; the plugin gets it at its next start", name, plugin, whereSaved(store)))
	case "clear":
		plugin, name := pos[0], pos[1]
		if err := keys.Save(plugin, map[string]string{name: ""}); err != nil {
			return fail(err)
		}
		fmt.Fprintln(stdout, i18n.T("%s for %s: forgotten", name, plugin))
	}
	return 0
}

// whereSaved says where the store keeps values, in the language in use
// (the store's own Where is English).
func whereSaved(store *secrets.Store) string {
	if store.InKeyring() {
		return i18n.T("saved in the system keyring")
	}
	return i18n.T("saved in a private file (%s, readable only by you)", store.File())
}

// readSecret reads a secret's line from stdin. On a terminal it asks
// first, with the echo off where it can be (hidden is then the prompt, else
// shown, which says the value shows), and gives the echo back before the
// process ends, Ctrl+C at the prompt included; piped, it just reads.
func readSecret(ctx context.Context, stdin io.Reader, stderr io.Writer, hidden, shown string) (string, error) {
	f, ok := stdin.(*os.File)
	if !ok || !isTerminal(f) {
		return readValue(stdin)
	}
	restore, off := hideInput(f)
	if !off {
		fmt.Fprint(stderr, shown)
		return readValue(stdin)
	}
	fmt.Fprint(stderr, hidden)
	stop := context.AfterFunc(ctx, func() {
		restore()
		fmt.Fprintln(stderr)
		os.Exit(130) // nothing was saved yet; the read would block on
	})
	v, err := readValue(stdin)
	stop()
	restore()
	fmt.Fprintln(stderr) // the Enter typed was not echoed
	return v, err
}

// readValue reads one line: surrounding blanks and the line end go.
func readValue(r io.Reader) (string, error) {
	line, err := bufio.NewReaderSize(io.LimitReader(r, maxValueBytes+1), 4096).ReadString('\n')
	if err != nil && err != io.EOF {
		return "", err
	}
	if len(line) > maxValueBytes {
		return "", errors.New(i18n.T("longer than %d bytes", maxValueBytes))
	}
	return strings.TrimSpace(line), nil
}

func printProviders(w io.Writer, list []agent.ProviderSetup, where string) {
	if len(list) == 0 {
		fmt.Fprintln(w, i18n.T("no provider plugins installed"))
		return
	}
	fmt.Fprintln(w, i18n.T("values are %s", where))
	for _, p := range list {
		state := ""
		if !p.Enabled {
			state = " " + i18n.T("(disabled)")
		}
		fmt.Fprintf(w, "\n%s %s%s\n", safe(p.Plugin), safe(p.Version), state)
		if len(p.Vars) == 0 {
			fmt.Fprintln(w, "  "+i18n.T("declares no variables (runtime.env keys with empty values)"))
		}
		for _, v := range p.Vars {
			var s string
			switch {
			case v.Saved && v.Secret:
				s = i18n.T("saved (secret, not shown)")
			case v.Saved:
				s = i18n.T("saved: %s", safe(v.Value))
			case v.Inherited:
				s = i18n.T("not saved; the app's environment sets it")
			default:
				s = i18n.T("not set")
			}
			fmt.Fprintf(w, "  %s %s\n", textwidth.Pad(v.Name, 24), s)
		}
	}
}
