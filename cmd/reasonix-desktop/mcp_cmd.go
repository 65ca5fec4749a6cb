package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/termsafe"
	"github.com/reasonix/reasonix-desktop/internal/frontends/headless"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
)

// mcpUsage is the mcp command's help in the language in use.
func mcpUsage() string {
	return i18n.T(`usage: reasonix-desktop mcp <subcommand> [flags]

  add NAME [--env K=V]... -- COMMAND [ARG...]     add a stdio server
  add NAME --type http|sse --url URL [--header K=V]...
                                                  add a remote server
      --trust-hints                               let the server's read-only claims
                                                  (readOnlyHint) skip approval
  remove NAME                                     remove a server
  enable NAME | disable NAME                      start it with chats, or keep it
                                                  in mcp.json without starting it
  login NAME | logout NAME                        sign in to a remote server (the browser
                                                  opens) or forget its sign-in
  import [--dry-run] FILE                         add the servers of a Claude Desktop
                                                  claude_desktop_config.json or a
                                                  .mcp.json (a name you have is kept)
  list [--json]                                   start every server and show its state
  tools [NAME]                                    list the tools (mcp__<server>__<tool>)
  call TOOL [JSON]                                call a tool with JSON object arguments;
                                                  a server's questions are asked here

The servers are kept in mcp.json in the data dir, in the .mcp.json format
Claude Code and Reasonix read ({"mcpServers": {...}}). Flags: --data-dir DIR.
A chat that is open runs a server added or removed here from its next
message on. A server has 5 s to start; REASONIX_MCP_HANDSHAKE_TIMEOUT (e.g. 30s) changes it.
A sign-in opens $BROWSER if set, else the system's opener, and prints the page's address.
`)
}

// kv collects repeated K=V flags.
type kv map[string]string

func (m kv) String() string { return "" }
func (m kv) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" {
		return errors.New(i18n.T("%q is not K=V", v))
	}
	m[k] = val
	return nil
}

func runMCP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, mcpUsage())
		return 2
	}
	sub, rest := args[0], args[1:]
	fs := flag.NewFlagSet("reasonix-desktop mcp "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data-dir", "", i18n.T("data directory"))
	env, headers := kv{}, kv{}
	var typ, url string
	var asJSON, trust, dryRun bool
	switch sub {
	case "add":
		fs.Var(env, "env", i18n.T("K=V for a stdio server's environment (repeatable)"))
		fs.Var(headers, "header", i18n.T("K=V HTTP header of a remote server (repeatable)"))
		fs.StringVar(&typ, "type", "", i18n.T("stdio (default), http or sse"))
		fs.StringVar(&url, "url", "", i18n.T("a remote server's URL"))
		fs.BoolVar(&trust, "trust-hints", false, i18n.T("let the server's readOnlyHint skip approval (kept in mcp.json as trust_hints)"))
	case "list":
		fs.BoolVar(&asJSON, "json", false, i18n.T("print JSON"))
	case "import":
		fs.BoolVar(&dryRun, "dry-run", false, i18n.T("say what would be added, change nothing"))
	case "remove", "enable", "disable", "login", "logout", "tools", "call":
	case "help", "-h", "--help":
		fmt.Fprint(stdout, mcpUsage())
		return 0
	default:
		fmt.Fprintf(stderr, "reasonix-desktop mcp: %s\n\n%s", i18n.T("unknown subcommand %q", sub), mcpUsage())
		return 2
	}
	var command []string
	if i := indexOf(rest, "--"); i >= 0 {
		rest, command = rest[:i], rest[i+1:]
	}
	positional, err := parseInterspersed(fs, rest)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	layout, err := agent.DataLayout(*dataDir)
	if err != nil {
		fmt.Fprintf(stderr, "reasonix-desktop mcp %s: %s\n", sub, safe(err.Error()))
		return 1
	}
	switch sub {
	case "add":
		err = mcpAdd(layout, positional, command, typ, url, env, headers, trust)
	case "remove":
		err = withName(positional, func(name string) error { return agent.RemoveMCPServer(layout, name) })
	case "enable", "disable":
		err = withName(positional, func(name string) error { return agent.SetMCPServerEnabled(layout, name, sub == "enable") })
	case "import":
		err = mcpImport(layout, positional, dryRun, stdout)
	case "login":
		err = withName(positional, func(name string) error {
			if err := agent.SignInMCPServer(ctx, layout, name, agent.MCPAuthOptions{OpenBrowser: browserOn(stderr)}); err != nil {
				return err
			}
			fmt.Fprintln(stdout, i18n.T("signed in to %s", safe(name)))
			return nil
		})
	case "logout":
		err = withName(positional, func(name string) error { return agent.SignOutMCPServer(layout, name) })
	case "list":
		err = mcpList(ctx, layout, stdout, asJSON)
	case "tools":
		err = mcpTools(ctx, layout, positional, stdout)
	case "call":
		err = mcpCall(ctx, layout, positional, stdin, stdout, stderr)
	}
	if err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "reasonix-desktop mcp %s: %s\n\n%s", sub, ue, mcpUsage())
			return 2
		}
		fmt.Fprintf(stderr, "reasonix-desktop mcp %s: %s\n", sub, safe(err.Error()))
		return 1
	}
	return 0
}

func indexOf(args []string, s string) int {
	for i, a := range args {
		if a == s {
			return i
		}
	}
	return -1
}

func withName(args []string, f func(string) error) error {
	name, err := oneArg(args, "NAME")
	if err != nil {
		return err
	}
	return f(name)
}

func mcpAdd(layout agent.Layout, args, command []string, typ, url string, env, headers kv, trust bool) error {
	name, err := oneArg(args, "NAME")
	if err != nil {
		return err
	}
	return agent.AddMCPServer(layout, agent.MCPServerSpec{Name: name, Type: typ, URL: url, Command: command,
		Env: env, Headers: headers, TrustHints: trust})
}

func mcpImport(layout agent.Layout, args []string, dryRun bool, stdout io.Writer) error {
	file, err := oneArg(args, "FILE")
	if err != nil {
		return err
	}
	var imp agent.MCPImport
	if dryRun {
		imp, err = agent.PreviewMCPImport(layout, file)
	} else {
		imp, err = agent.ImportMCPServers(layout, file)
	}
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, safe(imp.Summary(!dryRun)))
	return nil
}

// start runs the user's servers and the plugin packages' for one command
// and waits for their starts (each bounded by the handshake timeout).
// prompt, if set, asks the servers' elicitations.
func start(ctx context.Context, layout agent.Layout, prompt func(context.Context, *surfaces.Prompt) (map[string]any, bool)) (*agent.MCPRun, error) {
	handshake, err := handshakeOverride()
	if err != nil {
		return nil, err
	}
	wd, _ := os.Getwd()
	// The user is at the terminal: a server that asks for a sign-in gets
	// it there and then, the page's address printed and the browser tried.
	return agent.StartMCPServers(ctx, layout, agent.MCPRunOptions{Workdir: wd, Handshake: handshake, Prompt: prompt,
		Auth: agent.MCPAuthOptions{OpenBrowser: browserOn(os.Stderr), OnDemand: true}})
}

// browserOn opens a sign-in page: its address is printed first (a machine
// without a desktop, or an opener that fails, still lets the user copy
// it), then the system's opener is tried.
func browserOn(w io.Writer) func(string) error {
	return func(u string) error {
		if p, err := url.Parse(u); err != nil || (p.Scheme != "https" && p.Scheme != "http") {
			return errors.New(i18n.T("the sign-in page %q is not an http(s) address", safe(u)))
		}
		// Shown whole (escapes made visible, not redacted): the user may
		// have to copy it, and it holds no secret (a PKCE challenge, a
		// one-time state).
		fmt.Fprintln(w, i18n.T("sign in at: %s", termsafe.String(u)))
		var cmd *exec.Cmd
		switch {
		case os.Getenv("BROWSER") != "": // the usual way to name one (xdg-open honours it too)
			cmd = exec.Command(os.Getenv("BROWSER"), u)
		case runtime.GOOS == "darwin":
			cmd = exec.Command("open", u)
		case runtime.GOOS == "windows":
			cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", u)
		default:
			cmd = exec.Command("xdg-open", u)
		}
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(w, i18n.T("(could not open a browser: %v; open the address above)", err))
			return nil // the printed address is the way in
		}
		go cmd.Wait() // reap the opener
		return nil
	}
}

// HandshakeEnv overrides the 5 s bound on a server's start (a slow
// machine, a server that installs itself with npx on first use).
const HandshakeEnv = "REASONIX_MCP_HANDSHAKE_TIMEOUT"

// handshakeOverride is HandshakeEnv's duration (0 when unset).
func handshakeOverride() (time.Duration, error) {
	v := os.Getenv(HandshakeEnv)
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, errors.New(i18n.T("%s=%q: want a duration such as 20s", HandshakeEnv, v))
	}
	return d, nil
}

// mcpConfig is how a chat runs its MCP servers: the handshake override,
// and what did not start told on stderr as a warning.
func mcpConfig(stderr io.Writer) (agent.MCPConfig, error) {
	cfg := agent.MCPConfig{Warn: func(s string) { fmt.Fprintln(stderr, i18n.T("warning: %s", safe(s))) },
		OpenBrowser: browserOn(stderr)} // the window's Sign in
	d, err := handshakeOverride()
	cfg.Handshake = d
	return cfg, err
}

func mcpList(ctx context.Context, layout agent.Layout, stdout io.Writer, asJSON bool) error {
	m, err := start(ctx, layout, nil)
	if err != nil {
		return err
	}
	defer m.Close()
	st := m.Servers()
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(st)
	}
	rows := [][]string{{i18n.T("NAME"), i18n.T("TRANSPORT"), i18n.T("STATE"), i18n.T("TOOLS"), i18n.T("ERROR")}}
	for _, s := range st {
		rows = append(rows, []string{safe(s.Name), s.Transport, s.State, strconv.Itoa(s.Tools), safe(s.Err)})
	}
	if _, err := io.WriteString(stdout, headless.Columns(rows)); err != nil {
		return err
	}
	for _, s := range st {
		for _, warning := range s.Warnings {
			fmt.Fprintln(stdout, i18n.T("warning: %s", safe(warning)))
		}
	}
	return nil
}

func mcpTools(ctx context.Context, layout agent.Layout, args []string, stdout io.Writer) error {
	if len(args) > 1 {
		return usageError(i18n.T("at most one NAME"))
	}
	m, err := start(ctx, layout, nil)
	if err != nil {
		return err
	}
	defer m.Close()
	for _, t := range m.Tools() {
		if len(args) == 1 && t.Server != args[0] {
			continue
		}
		mark := ""
		switch {
		case t.ReadOnly && t.HintsTrusted:
			mark = " (read-only: runs unasked, its server's hints are trusted)"
		case t.ReadOnly: // the server's word, shown; approval is still asked
			mark = " (says read-only; asked: its server's hints are not trusted)"
		case t.Destructive:
			mark = " (may change things)"
		}
		fmt.Fprintf(stdout, "%s%s\n    %s\n", safe(t.Name), mark, safe(firstLine(t.Description)))
	}
	for _, s := range m.Servers() {
		if s.Failed() && (len(args) == 0 || s.Name == args[0]) {
			fmt.Fprintln(stdout, i18n.T("%s: failed: %s", safe(s.Name), safe(s.Err)))
		}
	}
	return nil
}

func mcpCall(ctx context.Context, layout agent.Layout, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) < 1 || len(args) > 2 {
		return usageError(i18n.T("want TOOL [JSON]"))
	}
	var raw json.RawMessage
	if len(args) == 2 {
		raw = json.RawMessage(args[1])
		var obj map[string]any
		if err := json.Unmarshal(raw, &obj); err != nil {
			return usageError(i18n.T("the arguments must be a JSON object: %v", err))
		}
	}
	// A server's elicitation is asked on the terminal, one question per
	// field, as a chat's are (the headless front end's forms); with no
	// input to answer from it is cancelled.
	fe := headless.New(headless.Options{Out: stdout, Err: stderr, In: stdin})
	defer fe.Close()
	m, err := start(ctx, layout, fe.Prompt)
	if err != nil {
		return err
	}
	defer m.Close()
	text, isError, err := m.Call(ctx, args[0], raw, func(p agent.MCPProgress) {
		fmt.Fprintf(stderr, "progress %g/%g %s\n", p.Progress, p.Total, safe(p.Message))
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, safe(text))
	if isError {
		return errors.New(i18n.T("the tool reported an error"))
	}
	return nil
}
