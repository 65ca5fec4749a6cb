package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/secrets"
	"github.com/reasonix/reasonix-desktop/internal/foundation/termsafe"
	"github.com/reasonix/reasonix-desktop/internal/frontends/headless"
)

// connectBudget bounds listing a server's models (Test) and the local
// servers' probe: a server that does not answer in it is reported as such.
const connectBudget = 20 * time.Second

// printPresets is `provider presets`: the servers connect knows, the local
// ones that answer on this machine marked found.
func printPresets(ctx context.Context, w io.Writer) error {
	dctx, cancel := context.WithTimeout(ctx, connectBudget)
	found := map[string]agent.LocalServer{}
	for _, s := range agent.DetectLocal(dctx) {
		found[s.Preset] = s
	}
	cancel()
	rows := [][]string{{i18n.T("PRESET"), i18n.T("NAME"), i18n.T("ADDRESS"), i18n.T("KEY"), i18n.T("NOTE")}}
	for _, p := range agent.Presets() {
		key := i18n.T("needed")
		if !p.KeyNeeded {
			key = i18n.T("not needed")
		}
		base := p.BaseURL
		if base == "" {
			base = i18n.T("(give --base-url)")
		}
		var note []string
		if s, ok := found[p.ID]; ok {
			note = append(note, i18n.N("found here: %d model", "found here: %d models", len(s.Models), len(s.Models)))
		}
		if p.Balance {
			note = append(note, i18n.T("balance"))
		}
		if p.KeyURL != "" {
			note = append(note, i18n.T("keys: %s", p.KeyURL))
		}
		rows = append(rows, []string{p.ID, p.Name, base, key, strings.Join(note, i18n.T("; "))})
	}
	_, err := io.WriteString(w, headless.Columns(rows))
	return err
}

// connectRequest is what `provider connect` was given.
type connectRequest struct {
	preset  string
	baseURL string
	models  []string
}

// connect is `provider connect PRESET`: the key read from stdin (one line;
// empty for a server that needs none), the server asked for its models
// (the test: what failed is said in words), then the bundled
// OpenAI-compatible provider linked when absent and configured for it.
// Nothing is saved when the test fails.
func connect(ctx context.Context, layout agent.Layout, req connectRequest, stdin io.Reader, stdout, stderr io.Writer) error {
	p, ok := agent.PresetByID(req.preset)
	if !ok {
		var ids []string
		for _, p := range agent.Presets() {
			ids = append(ids, p.ID)
		}
		return errors.New(i18n.T("no preset %q; the presets: %s", req.preset, strings.Join(ids, ", ")))
	}
	base := strings.TrimSpace(req.baseURL)
	if base == "" {
		base = p.BaseURL
	}
	if base == "" {
		return errors.New(i18n.T("%s needs --base-url: the address of the OpenAI-compatible server", p.Name))
	}
	hidden := i18n.T("API key for %s (not shown as you type): ", p.Name)
	shown := i18n.T("API key for %s (one line; it shows as you type: pipe it in to avoid that): ", p.Name)
	if !p.KeyNeeded {
		hidden = i18n.T("API key for %s (none needed: press Enter): ", p.Name)
		shown = hidden
	}
	key, err := readSecret(ctx, stdin, stderr, hidden, shown)
	if err != nil {
		return fmt.Errorf("%s: %w", i18n.T("read the API key from stdin"), err)
	}
	if key == "" && p.KeyNeeded {
		if p.KeyURL != "" {
			return errors.New(i18n.T("%s needs an API key (get one at %s): pipe it on standard input, e.g. reasonix-desktop provider connect %s < key.txt", p.Name, p.KeyURL, p.ID))
		}
		return errors.New(i18n.T("%s needs an API key: pipe it on standard input, e.g. reasonix-desktop provider connect %s < key.txt", p.Name, p.ID))
	}

	fmt.Fprintln(stdout, i18n.T("Testing %s at %s …", p.Name, termsafe.String(base)))
	tctx, cancel := context.WithTimeout(ctx, connectBudget)
	listed, err := agent.TestConnection(tctx, base, key)
	cancel()
	if err != nil {
		return errors.New(i18n.T("the test failed, nothing was saved: %s", safe(err.Error())))
	}
	fmt.Fprintln(stdout, i18n.N("%d model found: %s", "%d models found: %s", len(listed), len(listed), safe(strings.Join(listed, ", "))))
	for _, m := range req.models {
		if !slices.Contains(listed, m) {
			fmt.Fprintln(stderr, i18n.T("warning: %s", i18n.T("the server did not list the model %q; it is saved as given", m)))
		}
	}

	done, err := agent.Connect(ctx, layout, p.ID, base, key, req.models)
	if err != nil {
		return err
	}
	if done.Linked {
		fmt.Fprintln(stdout, i18n.T("Linked the bundled %s plugin.", done.Plugin))
	}
	if key != "" {
		// Where the core saved it, in the language in use (done.Where is
		// the store's English): the same store, opened the same way.
		store := secrets.Open(secrets.Options{Dir: layout.Root, Mode: secrets.ModeFromEnv()})
		fmt.Fprintln(stdout, i18n.T("Connected %s: the key is %s.", p.Name, whereSaved(store)))
	} else {
		fmt.Fprintln(stdout, i18n.T("Connected %s (no key).", p.Name))
	}
	menu := done.Models
	if len(req.models) == 0 {
		// Read from the server at each start of the plugin: today's list.
		menu = listed
		fmt.Fprintln(stdout, i18n.T("The model menu lists the server's models, read at each start of %s:", done.Plugin))
	} else {
		fmt.Fprintln(stdout, i18n.T("The model menu lists:"))
	}
	provider := done.Provider
	if provider == "" {
		provider = "plugin/" + done.Plugin + "/openai"
	}
	for _, m := range menu {
		fmt.Fprintf(stdout, "  %s/%s\n", provider, safe(m))
	}
	if len(menu) > 0 {
		fmt.Fprintln(stdout, i18n.T("Chat with one: reasonix-desktop chat --headless --model %s/%s", provider, safe(menu[0])))
	}
	return nil
}

// printBalance is `provider balance [PLUGIN]`: the account's balance at the
// server PLUGIN (default the bundled OpenAI-compatible one) is set up for.
func printBalance(ctx context.Context, layout agent.Layout, plugin string, w io.Writer) error {
	bctx, cancel := context.WithTimeout(ctx, connectBudget)
	defer cancel()
	b, err := agent.Balance(bctx, layout, plugin)
	if err != nil {
		return err
	}
	if len(b.Balances) == 0 {
		fmt.Fprintln(w, i18n.T("The server reported no balance."))
	}
	for _, c := range b.Balances {
		fmt.Fprintln(w, i18n.T("Balance: %s (topped up %s, granted %s)",
			i18n.Money(c.Total, c.Currency), i18n.Money(c.ToppedUp, c.Currency), i18n.Money(c.Granted, c.Currency)))
	}
	if !b.Available {
		fmt.Fprintln(w, i18n.T("The account cannot make API calls now (insufficient balance)."))
	}
	return nil
}
