package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/core/pricing"
	"github.com/reasonix/reasonix-desktop/internal/extensions/xdev"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/foundation/termsafe"
	"github.com/reasonix/reasonix-desktop/internal/frontends/headless"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// shutdownBudget bounds stopping every plugin when a command ends.
const shutdownBudget = 10 * time.Second

// coreFlags are the flags every command that starts plugins takes.
type coreFlags struct {
	dataDir, workspace string
	// onFrame taps sidecar frames (the desktop's protocol inspector).
	onFrame func(plugin string, f ndjson.FrameInfo)
	// resume is the chat the first core opens in (the window's last one);
	// "" or a chat that no longer loads: a new chat.
	resume string
}

func (f *coreFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.dataDir, "data-dir", "", i18n.T("data directory"))
	fs.StringVar(&f.workspace, "workspace", "", i18n.T("workspace root (default: the current directory)"))
}

// open starts the agent core for a front end.
func (f *coreFlags) open(ctx context.Context, fe agent.Frontend, ui protocol.UIHost, stderr io.Writer) (*agent.Core, func(), error) {
	core, _, closeAll, err := f.openChats(ctx, fe, ui, stderr)
	return core, closeAll, err
}

// chatOpener opens a further chat's core (see openChats).
type chatOpener func(ctx context.Context, sessionID, workspace string) (*agent.Core, error)

// openChats starts the first chat's core and returns the opener of the
// others: each live chat of the window has a core of its own (its own
// plugin generation, xdev extensions and MCP client sessions: an MCP
// server's roots and elicitations belong to one client, and a chat's
// workspace is its root), over one session store, settings file and key
// store. closeAll closes the first core and the host log; the window
// closes the cores it opened.
func (f *coreFlags) openChats(ctx context.Context, fe agent.Frontend, ui protocol.UIHost, stderr io.Writer) (*agent.Core, chatOpener, func(), error) {
	layout, err := agent.DataLayout(f.dataDir)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := layout.EnsureDirs(); err != nil {
		return nil, nil, nil, err
	}
	workspace := f.workspace
	if workspace == "" {
		if workspace, err = os.Getwd(); err != nil {
			return nil, nil, nil, err
		}
	}
	if workspace, err = filepath.Abs(workspace); err != nil {
		return nil, nil, nil, err
	}
	reportSettings(layout, stderr)
	linkBundledProvider(layout, stderr)
	for _, w := range agent.WorkspaceWarnings(workspace) {
		fmt.Fprintln(stderr, i18n.T("warning: %s", termsafe.String(redact.String(w))))
	}
	logger, closeLog := openHostLog(layout)
	mcpCfg, err := mcpConfig(stderr)
	if err != nil {
		fmt.Fprintln(stderr, i18n.T("warning: %s", safe(err.Error())))
	}
	// A terminal chat waits for the servers' starts (each bounded by the
	// handshake timeout) so its first turn has them; the window never waits.
	mcpCfg.WaitStarted = ui == protocol.UIHostHeadless
	shared, err := agent.OpenShared(agent.Config{Layout: layout, Logger: logger})
	if err != nil {
		closeLog()
		return nil, nil, nil, err
	}
	open := func(ctx context.Context, sessionID, ws string) (*agent.Core, *xdev.Manager, error) {
		if ws == "" {
			ws = workspace
		}
		var ext *xdev.Manager
		mcp := mcpCfg
		core, err := agent.Open(ctx, agent.Config{Layout: layout, Workspace: ws, UIHost: ui, Frontend: fe, Logger: logger,
			OnFrame: f.onFrame, MCP: &mcp, Shared: shared, Resume: sessionID,
			Extensions: func(ctx context.Context, s agent.Steering) (agent.Extensions, error) {
				m, err := xdev.Open(ctx, xdev.Config{Layout: layout, SettingsPath: layout.SettingsFile(), Steering: s, Logger: logger, Version: version})
				ext = m
				return m, err
			}})
		return core, ext, err
	}
	core, ext, err := open(ctx, f.resume, workspace)
	if errors.Is(err, agent.ErrCannotResume) {
		core, ext, err = open(ctx, "", workspace)
	}
	if err != nil {
		closeLog()
		return nil, nil, nil, err
	}
	if ext != nil { // xdev extensions and hooks that did not load never block the session
		for _, f := range ext.Failures() {
			fmt.Fprintln(stderr, i18n.T("warning: %s", termsafe.String(redact.String(f.String()))))
		}
	}
	opener := func(ctx context.Context, sessionID, ws string) (*agent.Core, error) {
		c, _, err := open(ctx, sessionID, ws)
		return c, err
	}
	return core, opener, func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownBudget)
		core.Close(sctx)
		cancel()
		closeLog()
	}, nil
}

// linkBundledProvider installs the OpenAI-compatible provider by default:
// at the first start of a data directory the core links the copy shipped
// next to the binary (it offers no model and contacts nothing until
// `provider connect` or Settings configures it). Once per data directory:
// a user who removed it does not get it back. A build that ships none says
// nothing.
func linkBundledProvider(layout agent.Layout, stderr io.Writer) {
	linked, err := agent.LinkBundledProvider(layout)
	switch {
	case errors.Is(err, agent.ErrNotBundled):
	case err != nil:
		fmt.Fprintln(stderr, i18n.T("warning: %s", safe(err.Error())))
	case linked:
		fmt.Fprintln(stderr, i18n.T("Linked the bundled %s plugin: connect a model with `reasonix-desktop provider connect deepseek` (provider presets lists the others) or in Settings.", agent.OpenAIProvider))
	}
}

// openHostLog opens logs/host.log: slog JSON, every attribute redacted.
func openHostLog(layout agent.Layout) (*slog.Logger, func()) {
	level := slog.LevelInfo
	if strings.EqualFold(os.Getenv("REASONIX_LOG"), "debug") {
		level = slog.LevelDebug
	}
	f, err := os.OpenFile(layout.HostLog(), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return slog.New(slog.DiscardHandler), func() {}
	}
	h := slog.NewJSONHandler(f, &slog.HandlerOptions{Level: level, ReplaceAttr: redact.ReplaceAttr})
	return slog.New(h), func() { f.Close() }
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// runChat is `reasonix-desktop chat`: one message or command (--prompt,
// or all of standard input), or with --repl (the default when standard
// input is a terminal and there is no --prompt) one per line until the
// input ends or /quit. Lines starting with a slash are the headless
// front end's commands (/help lists them).
func runChat(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("reasonix-desktop chat")
	fs.SetOutput(stderr)
	var cf coreFlags
	cf.register(fs)
	headlessMode := fs.Bool("headless", false, i18n.T("chat on the terminal instead of opening the window"))
	model := fs.String("model", "", i18n.T("model id plugin/<plugin>/<provider>/<model> (default: the last one used)"))
	effort := fs.String("effort", "", i18n.T("reasoning effort, when the model has efforts"))
	prompt := fs.String("prompt", "", i18n.T("the message or command (default: read standard input)"))
	session := fs.String("session", "", i18n.T("continue a saved session"))
	nonInteractive := fs.Bool("non-interactive", false, i18n.T("decline approvals and cancel plugin prompts instead of asking"))
	jsonOut := fs.Bool("json", false, i18n.T("print one JSON event per line (docs/chat-events.schema.json)"))
	repl := fs.Bool("repl", false, i18n.T("read one message or command per line from standard input (default on a terminal)"))
	var attach attachFlag
	fs.Var(&attach, "attach", i18n.T("attach a file to the message: an image (png, jpeg, gif, webp; for a vision model) or a text file (repeatable)"))
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if !*headlessMode {
		fmt.Fprintln(stderr, "reasonix-desktop chat:", i18n.T("the window front end is started without `chat`; use --headless for the terminal"))
		return 2
	}
	if *prompt != "" && *repl {
		fmt.Fprintln(stderr, "reasonix-desktop chat:", i18n.T("--prompt and --repl exclude each other"))
		return 2
	}
	if len(attach) > 0 && *repl {
		fmt.Fprintln(stderr, "reasonix-desktop chat:", i18n.T("--attach goes with one message (--prompt or standard input), not --repl"))
		return 2
	}
	if f, ok := stdin.(*os.File); ok && *prompt == "" && isTerminal(f) && len(attach) == 0 {
		*repl = true
	}
	text := *prompt
	interactiveIn := stdin
	if text == "" && !*repl {
		b, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintln(stderr, "reasonix-desktop chat:", i18n.T("read stdin: %v", err))
			return 1
		}
		text = strings.TrimSpace(string(b))
		interactiveIn = nil // stdin was the message: nothing left to answer prompts with
		if text == "" && len(attach) == 0 {
			fmt.Fprintln(stderr, "reasonix-desktop chat:", i18n.T("empty message (use --prompt, --repl or standard input)"))
			return 2
		}
	}
	color := false
	if f, ok := stdout.(*os.File); ok && !*jsonOut {
		color = isTerminal(f)
	}
	fe := headless.New(headless.Options{Out: stdout, Err: stderr, In: interactiveIn,
		NonInteractive: *nonInteractive, JSON: *jsonOut, Color: color})
	defer fe.Close()
	core, closeCore, err := cf.open(ctx, fe, protocol.UIHostHeadless, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "reasonix-desktop chat:", termsafe.String(redact.String(err.Error())))
		return 1
	}
	defer closeCore()
	if *session != "" {
		if err := core.LoadSession(ctx, *session); err != nil {
			fmt.Fprintln(stderr, "reasonix-desktop chat:", termsafe.String(redact.String(err.Error())))
			return 1
		}
		if kept := core.KeptMessage(); kept != "" && !*jsonOut {
			fmt.Fprintln(stderr, termsafe.String(kept))
		}
	}
	if *model != "" {
		if err := core.SetModel(ctx, *model, *effort); err != nil {
			fmt.Fprintln(stderr, "reasonix-desktop chat:", termsafe.String(redact.String(err.Error())))
			return 2
		}
	}
	if *repl {
		if !*jsonOut {
			fmt.Fprintln(stderr, "reasonix-desktop chat:", i18n.T("type a message, or /help for commands"))
		}
		lctx, stop := interruptible(ctx, fe, core)
		err = fe.Loop(lctx, core)
		stop()
	} else if len(attach) > 0 {
		err = fe.SendAttached(ctx, core, text, attach.attachments())
	} else {
		err = fe.Exec(ctx, core, text)
	}
	if !*jsonOut {
		fmt.Fprintln(stderr, i18n.T("session %s", core.Session().ID))
	}
	if err != nil && !errors.Is(err, headless.ErrQuit) {
		return 1 // the front end printed the reason
	}
	return 0
}

// attachFlag is --attach, repeatable: the files' paths in order.
type attachFlag []string

func (a *attachFlag) String() string { return strings.Join(*a, ",") }

func (a *attachFlag) Set(path string) error {
	*a = append(*a, path)
	return nil
}

func (a attachFlag) attachments() []agent.Attachment {
	out := make([]agent.Attachment, len(a))
	for i, p := range a {
		out[i] = agent.Attachment{Path: p}
	}
	return out
}

// interruptible takes Ctrl+C over from main for the line loop: it stops the
// reply in flight (or abandons the command waiting on the terminal), as Esc
// does in the window, and only at the prompt ends the chat. The context it
// returns ends then, or with ctx (SIGTERM still ends everything at once);
// stop releases the signal.
func interruptible(ctx context.Context, fe *headless.Frontend, core headless.Core) (_ context.Context, stop func()) {
	ctx, quit := context.WithCancel(ctx)
	signal.Reset(os.Interrupt) // main's context no longer ends on it
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	go func() {
		defer signal.Stop(sig)
		for {
			select {
			case <-sig:
				if !fe.Interrupt(core) {
					quit()
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	return ctx, quit
}

// listPrice is the published price of model now (input on a cache miss /
// output per million tokens, the cache-hit input after it) from the core's
// price lists, or "-" when no list names it.
func listPrice(model string) string {
	now := agent.Now()
	curs := pricing.Currencies(model, now)
	if len(curs) == 0 {
		return "-"
	}
	r, offPeak, ok := pricing.Lookup(model, now, curs[0])
	if !ok {
		return "-"
	}
	s := i18n.T("%g/%g %s, cache hit %g", r.CacheMiss, r.Output, curs[0], r.CacheHit)
	if offPeak {
		s += " " + i18n.T("(off-peak now)")
	}
	return s
}

// runModels is `reasonix-desktop models`.
func runModels(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("reasonix-desktop models")
	fs.SetOutput(stderr)
	var cf coreFlags
	cf.register(fs)
	jsonOut := fs.Bool("json", false, i18n.T("print JSON"))
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fe := headless.New(headless.Options{Out: io.Discard, Err: stderr, NonInteractive: true})
	core, closeCore, err := cf.open(ctx, fe, protocol.UIHostHeadless, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "reasonix-desktop models:", termsafe.String(redact.String(err.Error())))
		return 1
	}
	defer closeCore()
	models, errs := core.Models(ctx)
	for _, e := range errs {
		fmt.Fprintln(stderr, i18n.T("warning: %s", termsafe.String(redact.String(e.Error()))))
	}
	if *jsonOut {
		if models == nil {
			models = []providers.Model{}
		}
		b, _ := json.MarshalIndent(models, "", "  ")
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	rows := [][]string{{i18n.T("MODEL"), i18n.T("NAME"), i18n.T("CONTEXT"), i18n.T("PRICE (in/out per M)"), i18n.T("FEATURES")}}
	for _, m := range models {
		var feats []string
		for _, f := range []struct {
			on   bool
			name string
		}{{m.Tools, i18n.T("tools")}, {m.Reasoning, i18n.T("reasoning")}, {m.Vision, i18n.T("vision")}} {
			if f.on {
				feats = append(feats, f.name)
			}
		}
		if len(m.Efforts) > 0 {
			feats = append(feats, i18n.T("efforts %s", strings.Join(m.Efforts, "/")))
		}
		price := listPrice(m.ID)
		if m.InputPerMillion > 0 || m.OutputPerMillion > 0 {
			price = fmt.Sprintf("%g/%g %s", m.InputPerMillion, m.OutputPerMillion, m.PricingCurrency)
		}
		window := "-" // the provider did not say
		if m.ContextWindow > 0 {
			window = strconv.FormatInt(m.ContextWindow, 10)
		}
		rows = append(rows, []string{termsafe.String(m.ID), termsafe.String(m.DisplayName), window, price, termsafe.String(strings.Join(feats, ", "))})
	}
	fmt.Fprint(stdout, headless.Columns(rows))
	if len(models) == 0 && len(errs) == 0 {
		fmt.Fprintln(stderr, i18n.T("no plugin models: install a provider plugin (e.g. examples/echo-provider)"))
	}
	return 0
}
