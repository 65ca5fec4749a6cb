package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/extensions/xdev"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/foundation/termsafe"
	"github.com/reasonix/reasonix-desktop/internal/foundation/textwidth"
	"github.com/reasonix/reasonix-desktop/internal/frontends/headless"
)

// pluginUsage is the plugin command's help in the language in use.
func pluginUsage() string {
	return i18n.T(`usage: reasonix-desktop plugin <subcommand> [flags]

subcommands:
  install [--yes] [--link] [--replace] [--name N] [--plugin NAME]... [--market URL] SOURCE
                        preview (and with --yes, install) the plugin at SOURCE:
                        a folder; a git repository (URL, git:HOST/OWNER/REPO[@REF],
                        a GitHub /tree/REF/PATH URL, OWNER/REPO[@REF], a bare
                        repository path), cloned into a staging folder; or a
                        market id (MARKET-ID or market:MARKET-ID): downloaded and
                        refused unless it matches the content hash the market's
                        reviewer pinned. A marketplace root (.claude-plugin/
                        marketplace.json) lists its plugins: pick with --plugin
                        NAME, repeated for several
  search [--market URL] [--kind K] [--json] [QUERY...]
                        search the market's index (every word must match; K is
                        plugin, skill, mcp or theme)
  info [--market URL] [--json] MARKET-ID
                        a market package: version, source, pinned content hash,
                        votes, installs, and whether it is installed here
  updates [--market URL] [--json]
                        the plugins installed from the market whose entry has a
                        new version (or new content); plugin update NAME takes one
  market [set URL | unset]
                        show or set the market URL (market.json in the data
                        directory; $REASONIX_DESKTOP_MARKET_URL overrides it)
  link [--yes] [--replace] [--name N] PATH
                        the same as install --link: run the plugin from PATH
  list [--json]         list installed plugins and xdev extensions (each
                        extension is started to read its declaration)
  show NAME             show a plugin's record, FULL TRUST block and
                        compatibility report
  remove [--yes] NAME   remove a plugin (a linked source folder is kept)
  update [--yes] NAME   preview (and with --yes, install) the plugin again from
                        its recorded source (a git source is cloned again at its
                        ref; a market package is its market entry's version)
  migrate NAME --to-v2  rewrite a legacy manifest (no apiVersion) to
                        reasonix.io/plugin/v2, keeping reasonix-plugin.json.bak
  enable NAME           enable a plugin
  disable NAME          disable a plugin
  doctor [--json] [NAME]
                        start the plugin (every plugin without NAME) alone,
                        handshake, print its declaration, provider catalog and
                        timings, shut it down: the report the desktop's Doctor
                        button shows (also: reasonix-desktop doctor)

Every subcommand takes --data-dir DIR (default $REASONIX_DESKTOP_HOME, else the
user config dir + /reasonix-desktop). Nothing is written without --yes
(install, remove).
`)
}

// errNotConfirmed marks a write the user has not confirmed with --yes.
var errNotConfirmed = errors.New("not confirmed")

// runPlugin runs `reasonix-desktop plugin ...`. Exit codes: 0 success, 1
// failure or unconfirmed write (install/remove without --yes), 2 usage error.
func runPlugin(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, pluginUsage())
		return 2
	}
	sub, rest := args[0], args[1:]
	var cmd func(context.Context, *pluginEnv, []string) error
	fs := flag.NewFlagSet("reasonix-desktop plugin "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	env := &pluginEnv{stdout: stdout, stderr: stderr}
	fs.StringVar(&env.dataDir, "data-dir", "", i18n.T("data directory"))
	switch sub {
	case "install", "link":
		fs.BoolVar(&env.yes, "yes", false, i18n.T("install without asking (the preview is the authorization)"))
		if sub == "install" {
			fs.BoolVar(&env.link, "link", false, i18n.T("record the folder in place instead of copying it"))
		} else {
			env.link = true
		}
		fs.BoolVar(&env.replace, "replace", false, i18n.T("replace an installed plugin of the same name"))
		fs.StringVar(&env.name, "name", "", i18n.T("expected plugin name (must equal the manifest name)"))
		if sub == "install" {
			fs.Var(&env.picks, "plugin", i18n.T("install this plugin of a marketplace root (repeat for several)"))
			fs.StringVar(&env.market, "market", "", i18n.T("the market to read a MARKET-ID from (default: the one set)"))
		}
		cmd = pluginInstall
	case "list":
		fs.BoolVar(&env.json, "json", false, i18n.T("print JSON"))
		cmd = pluginList
	case "search", "info", "updates":
		fs.BoolVar(&env.json, "json", false, i18n.T("print JSON"))
		fs.StringVar(&env.market, "market", "", i18n.T("the market's URL (default: the one set)"))
		switch sub {
		case "search":
			fs.StringVar(&env.kind, "kind", "", i18n.T("only packages of this kind (plugin, skill, mcp, theme)"))
			cmd = pluginSearch
		case "info":
			cmd = pluginInfo
		default:
			cmd = pluginUpdates
		}
	case "market":
		cmd = pluginMarket
	case "show":
		cmd = pluginShow
	case "remove":
		fs.BoolVar(&env.yes, "yes", false, i18n.T("really remove"))
		cmd = pluginRemove
	case "update":
		fs.BoolVar(&env.yes, "yes", false, i18n.T("install the update without asking (the preview is the authorization)"))
		cmd = pluginUpdate
	case "migrate":
		fs.BoolVar(&env.toV2, "to-v2", false, i18n.T("migrate to reasonix.io/plugin/v2 (required)"))
		cmd = pluginMigrate
	case "enable":
		cmd = func(ctx context.Context, e *pluginEnv, a []string) error { return pluginSetEnabled(e, a, true) }
	case "disable":
		cmd = func(ctx context.Context, e *pluginEnv, a []string) error { return pluginSetEnabled(e, a, false) }
	case "doctor":
		fs.BoolVar(&env.json, "json", false, i18n.T("print the report as JSON"))
		fs.StringVar(&env.workspace, "workspace", "", i18n.T("workspace root to hand the sidecar (default: the plugin folder)"))
		cmd = pluginDoctor
	case "help", "-h", "--help":
		fmt.Fprint(stdout, pluginUsage())
		return 0
	default:
		fmt.Fprintf(stderr, "reasonix-desktop plugin: %s\n\n%s", i18n.T("unknown subcommand %q", sub), pluginUsage())
		return 2
	}
	positional, err := parseInterspersed(fs, rest)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if err := ctx.Err(); err != nil {
		fmt.Fprintf(stderr, "reasonix-desktop plugin %s: %v\n", sub, err)
		return 1
	}
	if err := cmd(ctx, env, positional); err != nil {
		var ue usageError
		switch {
		case errors.As(err, &ue):
			fmt.Fprintf(stderr, "reasonix-desktop plugin %s: %s\n", sub, ue)
			fs.Usage()
			return 2
		case errors.Is(err, errNotConfirmed):
			return 1
		}
		fmt.Fprintf(stderr, "reasonix-desktop plugin %s: %s\n", sub, safe(err.Error()))
		return 1
	}
	return 0
}

type usageError string

func (e usageError) Error() string { return string(e) }

type pluginEnv struct {
	stdout, stderr           io.Writer
	dataDir                  string
	yes, link, replace, json bool
	name                     string
	toV2                     bool   // migrate: --to-v2
	picks                    names  // install: --plugin, the marketplace's plugins to install
	market, kind             string // the market's URL (--market), search: --kind
	workspace                string // doctor: the workspace root sent in the session
}

// open opens the package store of the data directory through the core's
// store commands (no plugin is started).
func (e *pluginEnv) open() (*agent.Plugins, error) {
	layout, err := agent.DataLayout(e.dataDir)
	if err != nil {
		return nil, err
	}
	return agent.OpenPlugins(layout)
}

// installed resolves the one NAME argument to its record in the store.
func (e *pluginEnv) installed(args []string) (*agent.Plugins, agent.PluginRecord, error) {
	name, err := oneArg(args, "NAME")
	if err != nil {
		return nil, agent.PluginRecord{}, err
	}
	store, err := e.open()
	if err != nil {
		return nil, agent.PluginRecord{}, err
	}
	r, err := store.Get(name)
	if err != nil {
		return nil, agent.PluginRecord{}, err
	}
	return store, r, nil
}

// parseInterspersed parses flags that may appear before or after the
// positional arguments ("install PATH --yes"); "--" ends flag parsing.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		consumed := args[:len(args)-len(rest)]
		if len(consumed) > 0 && consumed[len(consumed)-1] == "--" {
			return append(positional, rest...), nil
		}
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

func oneArg(args []string, what string) (string, error) {
	if len(args) != 1 {
		return "", usageError(i18n.T("want exactly one %s, got %d arguments", what, len(args)))
	}
	return args[0], nil
}

func pluginInstall(ctx context.Context, e *pluginEnv, args []string) error {
	src, err := oneArg(args, "PATH") // (a path, a URL or a market id; the word is kept for scripts)
	if err != nil {
		return err
	}
	store, err := e.open()
	if err != nil {
		return err
	}
	if id, ok := marketID(src); ok && len(e.picks) == 0 {
		return marketInstall(ctx, e, store, src, id)
	}
	if e.market != "" {
		return usageError(i18n.T("--market reads a MARKET-ID; %s is a source", src))
	}
	if len(e.picks) > 0 {
		return installPicks(ctx, e, store, src)
	}
	pv, err := store.PreviewInstallFrom(ctx, agent.InstallRequest{Source: src, Link: e.link, Replace: e.replace, Name: e.name})
	if err != nil {
		showMarketplace(e, err)
		return err
	}
	return confirmInstall(e, store, pv, "install")
}

// confirmInstall prints the preview and, with --yes, installs it.
func confirmInstall(e *pluginEnv, store *agent.Plugins, pv agent.InstallPreview, what string) error {
	fmt.Fprint(e.stdout, termsafe.String(pv.Text))
	if !e.yes {
		store.DiscardPreview(pv)
		again := i18n.T("Re-run with --yes to install.")
		if what == "update" {
			again = i18n.T("Re-run with --yes to update.")
		}
		fmt.Fprintf(e.stdout, "\n%s\n", again)
		return errNotConfirmed
	}
	rec, err := store.Install(pv)
	if err != nil {
		return err
	}
	done := i18n.T("Installed %s %s (%s).", rec.Name, safe(rec.Version), termsafe.String(rec.Root))
	if rec.Linked {
		done = i18n.T("Linked %s %s (%s).", rec.Name, safe(rec.Version), termsafe.String(rec.Root))
	}
	fmt.Fprintf(e.stdout, "\n%s\n", done)
	return nil
}

// pluginList prints the installed plugins, then the data directory's
// xdev v1 extensions, as the window's plugin manager lists both. The
// extensions are started just long enough to declare themselves (a
// failure is listed with its reason), then stopped.
func pluginList(ctx context.Context, e *pluginEnv, args []string) error {
	if len(args) != 0 {
		return usageError(i18n.T("list takes no arguments"))
	}
	store, err := e.open()
	if err != nil {
		return err
	}
	recs, err := store.List()
	if err != nil {
		return err
	}
	exts, err := e.extensions(ctx)
	if err != nil {
		return err
	}
	if e.json {
		return listJSONOut(e.stdout, recs, exts)
	}
	if len(recs) == 0 {
		fmt.Fprintln(e.stdout, i18n.T("No plugins installed."))
	} else {
		rows := [][]string{{i18n.T("NAME"), i18n.T("VERSION"), i18n.T("STATE"), i18n.T("ROOT")}}
		for _, r := range recs {
			rows = append(rows, []string{r.Name, safe(r.Version), state(r), termsafe.String(r.Root)})
		}
		if _, err := io.WriteString(e.stdout, headless.Columns(rows)); err != nil {
			return err
		}
	}
	if len(exts) == 0 {
		return nil
	}
	fmt.Fprintln(e.stdout)
	rows := [][]string{{i18n.T("XDEV EXTENSION"), i18n.T("STATE"), i18n.T("DECLARES"), i18n.T("PATH")}}
	for _, x := range exts {
		what := strings.Join(x.Capabilities, ", ")
		if x.Failure != "" {
			what = safe(firstLine(x.Failure))
		}
		rows = append(rows, []string{safe(x.Name), safe(x.State), what, termsafe.String(x.Path)})
	}
	_, err = io.WriteString(e.stdout, headless.Columns(rows))
	return err
}

// listedPlugin is a v2 plugin in `plugin list --json`: its record, kind
// "plugin".
type listedPlugin struct {
	Kind string `json:"kind"`
	agent.PluginRecord
}

// listedExtension is an xdev v1 extension in `plugin list --json`, kind
// "xdev": its name, executable, state (Active or Failed) and what it
// declared, or why it did not load.
type listedExtension struct {
	Kind         string   `json:"kind"`
	Name         string   `json:"name"`
	Root         string   `json:"root"`
	State        string   `json:"state"`
	Capabilities []string `json:"capabilities,omitempty"`
	Failure      string   `json:"failure,omitempty"`
}

// listJSONOut writes one array: the plugins' records (as before, now with
// "kind": "plugin"), then the xdev extensions ("kind": "xdev").
func listJSONOut(w io.Writer, recs []agent.PluginRecord, exts []agent.ExtensionStatus) error {
	out := make([]any, 0, len(recs)+len(exts))
	for _, r := range recs {
		out = append(out, listedPlugin{Kind: "plugin", PluginRecord: r})
	}
	for _, x := range exts {
		out = append(out, listedExtension{Kind: "xdev", Name: x.Name, Root: x.Path, State: x.State,
			Capabilities: x.Capabilities, Failure: redact.String(x.Failure)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// extensions loads the data directory's xdev extensions (and the hooks
// bus) to describe them, then stops them. Without any, nothing starts.
func (e *pluginEnv) extensions(ctx context.Context) ([]agent.ExtensionStatus, error) {
	layout, err := agent.DataLayout(e.dataDir)
	if err != nil {
		return nil, err
	}
	reportSettings(layout, e.stderr) // the hooks bus reads it
	m, err := xdev.Open(ctx, xdev.Config{Layout: layout, SettingsPath: layout.SettingsFile(), Steering: noSteering{}, Version: version})
	if err != nil {
		return nil, fmt.Errorf("xdev extensions: %w", err)
	}
	defer m.Close(context.WithoutCancel(ctx))
	return m.ExtensionStatus(), nil
}

// noSteering drops what an extension asks of a chat: `plugin list` runs
// none.
type noSteering struct{}

func (noSteering) Steer(string)    {}
func (noSteering) FollowUp(string) {}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

func state(r agent.PluginRecord) string {
	s := i18n.T("enabled")
	if !r.Enabled {
		s = i18n.T("disabled")
	}
	if r.Linked {
		s += ", " + i18n.T("linked")
	}
	if r.Status != "" {
		s += ", " + r.Status
	}
	return s
}

func pluginShow(_ context.Context, e *pluginEnv, args []string) error {
	store, r, err := e.installed(args)
	if err != nil {
		return err
	}
	w := e.stdout
	field := func(label, value string) { fmt.Fprintf(w, "%s %s\n", textwidth.Pad(label, 12), value) }
	field(i18n.T("Name:"), r.Name)
	field(i18n.T("Version:"), safe(r.Version))
	if r.Description != "" {
		field(i18n.T("Description:"), safe(r.Description))
	}
	field(i18n.T("State:"), state(r))
	field(i18n.T("Root:"), termsafe.String(r.Root))
	field(i18n.T("Source:"), termsafe.String(r.Source))
	if r.Commit != "" {
		field(i18n.T("Commit:"), safe(r.Commit))
	}
	if r.ManifestKind != "" {
		field(i18n.T("Format:"), safe(r.ManifestKind))
	}
	field(i18n.T("Installed:"), r.InstalledAt.Format("2006-01-02T15:04:05Z07:00"))
	field(i18n.T("Manifest:"), "sha256 "+r.ManifestSHA256+"\n")
	m, err := store.Manifest(r.Name)
	if err != nil {
		return err
	}
	fmt.Fprint(w, termsafe.String(m.Trust))
	if m.Changed != "" {
		fmt.Fprintln(w, i18n.T("Warning: the manifest changed since it was installed (sha256 %s)", m.Changed))
	}
	for _, n := range m.LegacyNotes {
		fmt.Fprintln(w, i18n.T("Note: %s", safe(n)))
	}
	// The compatibility report: the grade, and one line for each feature
	// that will not work as the author meant. Warnings holds the loader's
	// refusals, which the report repeats word for word (printed once, as
	// the "Warning:" lines they always were), and the older compatibility
	// warnings, which the report says in its own lines (not printed).
	inReport := map[string]bool{}
	for _, l := range m.Compat.Lines {
		inReport[l.String()] = true
	}
	shown := map[string]bool{}
	for _, n := range m.Warnings {
		if inReport[n] && !shown[n] {
			fmt.Fprintln(w, i18n.T("Warning: %s", safe(n)))
			shown[n] = true
		}
	}
	fmt.Fprintln(w, i18n.T("Compatibility: %s", safe(m.Compat.Summary())))
	for _, l := range m.Compat.Lines {
		if !shown[l.String()] {
			fmt.Fprintf(w, "  - %s\n", safe(l.String()))
		}
	}
	return nil
}

func pluginRemove(_ context.Context, e *pluginEnv, args []string) error {
	store, r, err := e.installed(args)
	if err != nil {
		return err
	}
	if !e.yes {
		if r.Linked {
			fmt.Fprintln(e.stdout, i18n.T("Would remove %s %s (linked; its folder %s is kept).", r.Name, safe(r.Version), termsafe.String(r.Root)))
		} else {
			fmt.Fprintln(e.stdout, i18n.T("Would remove %s %s and delete %s.", r.Name, safe(r.Version), termsafe.String(r.Root)))
		}
		fmt.Fprintln(e.stdout, i18n.T("Re-run with --yes to remove."))
		return errNotConfirmed
	}
	if _, err := store.Remove(r.Name); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, i18n.T("Removed %s.", r.Name))
	return nil
}

func pluginSetEnabled(e *pluginEnv, args []string, enabled bool) error {
	name, err := oneArg(args, "NAME")
	if err != nil {
		return err
	}
	store, err := e.open()
	if err != nil {
		return err
	}
	if err := store.SetEnabled(name, enabled); err != nil {
		return err
	}
	done := i18n.T("Disabled %s. It takes effect at the next reload.", name)
	if enabled {
		done = i18n.T("Enabled %s. It takes effect at the next reload.", name)
	}
	fmt.Fprintln(e.stdout, done)
	return nil
}

// safe is how a string from a plugin's files or process reaches the
// terminal: redacted, then with control sequences shown escaped.
func safe(s string) string { return termsafe.String(redact.String(s)) }
