package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
)

// The one command layer: both front ends hand every line the user types to
// Exec. A command is parsed (cmdparse.go) and run here once, and its answer
// comes back as plain data; ErrNotCommand sends the line to the model.

// CommandKind says what a CommandResult carries.
type CommandKind string

// Command results.
const (
	CommandHelp     CommandKind = "help"           // Help
	CommandQuit     CommandKind = "quit"           // /quit, /exit: the front end ends the chat (the window may ignore it)
	CommandNewChat  CommandKind = "new_chat"       // SessionID: the new session, now current
	CommandSessions CommandKind = "sessions"       // Sessions, newest first; SessionID: the current one
	CommandOpened   CommandKind = "opened"         // SessionID: the session now current; Sessions: its summary
	CommandPlugins  CommandKind = "plugins"        // Plugins and Extensions (xdev), as the plugin manager shows them
	CommandActions  CommandKind = "actions"        // Actions and Commands (extension and package commands)
	CommandDoctor   CommandKind = "doctor"         // Doctor
	CommandForms    CommandKind = "forms"          // Forms: the published forms, by key
	CommandFormFill CommandKind = "form_fill"      // Form: no values were given; the front end asks them, then calls SubmitForm
	CommandFormSent CommandKind = "form_sent"      // Form: its values were submitted and the plugin accepted them
	CommandAction   CommandKind = "action"         // Action: a plugin UI action's outcome
	CommandRan      CommandKind = "command_output" // Output: an extension or package command's output
	CommandRetry    CommandKind = "retry"          // Text: the message the last (failed) turn sends again; the front end runs Retry
	CommandSend     CommandKind = "send"           // Text: a template the command expanded (a package command, an MCP prompt); the front end sends it to the model as the user's message
	CommandRewinds  CommandKind = "rewinds"        // Rewinds: each of your messages with what rewinding to it does
	CommandRewound  CommandKind = "rewound"        // Rewound: what a rewind did (Draft goes back to the composer)
)

// CommandResult is a command's answer, plain data. Kind says which fields
// are set; Text is always a short answer for people (plain text, redacted,
// not terminal-escaped) that a front end may show as it is.
type CommandResult struct {
	Kind       CommandKind
	Name       string // the command as resolved: "/new", "/hello-surfaces:refresh"
	Text       string
	SessionID  string
	Sessions   []Summary
	Plugins    []PluginInfo
	Extensions []ExtensionStatus
	Actions    []surfaces.Action
	Commands   []CommandInfo
	Doctor     *DoctorReport
	Forms      []surfaces.Surface
	Form       *surfaces.Surface
	Action     *ActionOutcome
	Output     *CommandOutput
	Help       []HelpEntry
	Rewinds    []RewindChoice
	Rewound    *RewindResult
}

// CommandInfo is a command offered by an extension or a package.
type CommandInfo struct {
	Name        string // "/ext:deploy"
	Description string // redacted
	// Send says Run's text is a message for the model (a package command's
	// or an MCP prompt's expansion), not output to show.
	Send bool
	// Kind says where the command comes from (CommandKind*); "" is an
	// extension's or a CommandSource's.
	Kind string
}

// Where a listed command comes from (CommandInfo.Kind).
const (
	CommandKindBuiltin   = "built-in"
	CommandKindAction    = "action"
	CommandKindExtension = "extension"
	CommandKindPackage   = "package"
)

// ActionOutcome is what a plugin UI action answered.
type ActionOutcome struct {
	Name     string // its public name, /<plugin>:<action>
	Plugin   string
	Accepted bool
	Message  string // redacted
}

// CommandOutput is an extension or package command's output, with the
// renderer it named when it named one its extension declared.
type CommandOutput struct {
	Text     string // redacted
	Rendered *Rendered
}

// HelpEntry is one line of /help.
type HelpEntry struct {
	Usage   string
	Summary string
}

// CommandSource offers commands from outside the core: the hook for plugin
// packages' commands. Exec calls Commands and Run from its caller's
// goroutine; Run may wait on a plugin and honours ctx.
type CommandSource interface {
	Commands() []CommandInfo
	Run(ctx context.Context, name, args string) (string, error)
}

// ErrUnknownCommand is matched (errors.Is) by an *UnknownCommandError.
var ErrUnknownCommand = errors.New("unknown command")

// UnknownCommandError is a command-shaped line nothing offers.
type UnknownCommandError struct {
	Name string
	Kind string // "action", "extension command" or "command"
}

func (e *UnknownCommandError) Error() string {
	switch e.Kind {
	case "action":
		return fmt.Sprintf("no action %s (/actions lists them)", e.Name)
	case "extension command":
		return fmt.Sprintf("no extension command %s (/actions lists them)", e.Name)
	}
	return fmt.Sprintf("unknown command %s (/help lists the commands; a message that starts with a path such as /usr/bin goes to the model as it is)", e.Name)
}

// Is makes it match ErrUnknownCommand.
func (e *UnknownCommandError) Is(target error) bool { return target == ErrUnknownCommand }

type builtin struct {
	usage, summary string
	run            func(c *Core, ctx context.Context, cl CommandLine) (CommandResult, error)
}

// builtins are the core's own commands, by name.
var builtins = map[string]builtin{}

// builtinOrder is /help's order.
var builtinOrder = []string{"/help", "/new", "/clear", "/sessions", "/open", "/retry", "/rewind", "/actions", "/skills", "/agent", "/plugins", "/doctor", "/forms", "/form", "/quit", "/exit"}

func init() {
	builtins["/help"] = builtin{"/help", "this list", (*Core).cmdHelp}
	builtins["/new"] = builtin{"/new, /clear", "start a new chat (the current one is saved)", (*Core).cmdNew}
	builtins["/clear"] = builtins["/new"]
	builtins["/sessions"] = builtin{"/sessions", "list saved sessions", (*Core).cmdSessions}
	builtins["/open"] = builtin{"/open <id>", "continue a saved session (an id prefix will do)", (*Core).cmdOpen}
	builtins["/retry"] = builtin{"/retry", "send the last message again when its turn failed", (*Core).cmdRetry}
	builtins["/actions"] = builtin{"/actions", "list plugin actions and extension commands", (*Core).cmdActions}
	builtins["/skills"] = builtin{"/skills", "list the packages' skills, each run as /<plugin>:<skill> [args]", (*Core).cmdSkills}
	builtins["/agent"] = builtin{"/agent [<name>|off]", "list the agent profiles, pick one for this chat, or none", (*Core).cmdAgent}
	builtins["/plugins"] = builtin{"/plugins", "list the plugins and xdev extensions and their states", (*Core).cmdPlugins}
	builtins["/doctor"] = builtin{"/doctor <plugin>", "check a plugin (the window's Doctor report)", (*Core).cmdDoctor}
	builtins["/forms"] = builtin{"/forms", "list the forms plugins published", (*Core).cmdForms}
	builtins["/form"] = builtin{"/form <form> [field=value ...]", "fill a form and submit it (without values, each field is asked)", (*Core).cmdForm}
	builtins["/quit"] = builtin{"/quit, /exit", "leave", func(*Core, context.Context, CommandLine) (CommandResult, error) {
		return CommandResult{Kind: CommandQuit, Text: "bye"}, nil
	}}
	builtins["/exit"] = builtins["/quit"]
}

// Exec runs one line the user typed, if it is a command: a built-in
// (/help lists them), /<plugin>:<action> [k=v ...] (the arguments reach
// the plugin), /ext:<command> [args] (xdev), or a package command. A
// message for the model returns ErrNotCommand and runs nothing; an unknown
// command returns an *UnknownCommandError naming it. Exec may wait on a
// plugin (an action, a form, a doctor); /new and /open take the busy token
// (NewSession, LoadSession) and are refused while a turn runs.
func (c *Core) Exec(ctx context.Context, line string) (CommandResult, error) {
	cl, err := ParseCommand(line)
	if err != nil {
		return CommandResult{}, err
	}
	if b, ok := builtins[cl.Name]; ok {
		res, err := b.run(c, ctx, cl)
		if res.Name == "" {
			res.Name = cl.Name
		}
		return res, err
	}
	if strings.HasPrefix(cl.Name, "/ext:") {
		return c.cmdExtension(ctx, cl)
	}
	for _, a := range c.Actions() {
		if strings.EqualFold(a.Name, cl.Name) {
			return c.cmdAction(ctx, a, cl)
		}
	}
	if pc, ok := c.packageCommand(cl.Name); ok {
		return execPackageCommand(pc, cl), nil
	}
	if sk, ok := c.skillCommand(cl.Name); ok {
		return execSkill(sk, cl)
	}
	if src := c.cfg.CommandSource; src != nil {
		for _, pc := range src.Commands() {
			if pc.Name == cl.Name {
				out, err := src.Run(ctx, cl.Name, cl.Args)
				if err != nil {
					return CommandResult{}, fmt.Errorf("%s: %w", cl.Name, err)
				}
				if pc.Send { // the user's own message, expanded: the model sees it unredacted as typed text would be
					return CommandResult{Kind: CommandSend, Name: cl.Name, Text: out}, nil
				}
				out = redact.String(out)
				return CommandResult{Kind: CommandRan, Name: cl.Name, Text: out, Output: &CommandOutput{Text: out}}, nil
			}
		}
	}
	kind := "command"
	if strings.Contains(cl.Name, ":") {
		kind = "action"
	}
	return CommandResult{}, &UnknownCommandError{Name: cl.Name, Kind: kind}
}

// Help lists the built-in commands.
func Help() []HelpEntry {
	var out []HelpEntry
	seen := map[string]bool{}
	for _, name := range builtinOrder {
		b := builtins[name]
		if seen[b.usage] {
			continue
		}
		seen[b.usage] = true
		out = append(out, HelpEntry{Usage: b.usage, Summary: b.summary})
	}
	return append(out,
		HelpEntry{Usage: "/<plugin>:<action> [k=v ...]", Summary: "run a plugin UI action (values may be quoted: k=\"a b\")"},
		HelpEntry{Usage: "/ext:<command> [args]", Summary: "run an xdev extension command"},
		HelpEntry{Usage: "/<plugin>:<command> [args]", Summary: "send a package's command or prompt, expanded, to the model (/actions lists them)"},
		HelpEntry{Usage: "/<plugin>:<skill> [args]", Summary: "run a package's skill with these arguments (/skills lists them)"})
}

// Completions lists what a user can type after "/", for a composer's
// completion: the built-ins, the plugin actions, the extension commands,
// the package commands and the skills (/<plugin>:<skill>), in that order,
// descriptions redacted. Safe from any goroutine; it never waits on a
// plugin.
func (c *Core) Completions() []CommandInfo {
	var out []CommandInfo
	for _, name := range builtinOrder {
		out = append(out, CommandInfo{Name: name, Description: builtins[name].summary, Kind: CommandKindBuiltin})
	}
	for _, a := range c.Actions() {
		out = append(out, CommandInfo{Name: a.Name, Description: redact.String(a.Label), Kind: CommandKindAction})
	}
	out = append(out, c.commandInfos()...)
	return append(out, c.skillCommandInfos()...)
}

func (c *Core) cmdHelp(context.Context, CommandLine) (CommandResult, error) {
	h := Help()
	var b strings.Builder
	b.WriteString("Commands (anything else is sent to the model):\n")
	for _, e := range h {
		fmt.Fprintf(&b, "  %-31s %s\n", e.Usage, e.Summary)
	}
	return CommandResult{Kind: CommandHelp, Help: h, Text: b.String()}, nil
}

func (c *Core) cmdNew(ctx context.Context, _ CommandLine) (CommandResult, error) {
	// As in the Reasonix host: the live session is saved, session.rotate
	// asks the session_policy owner, then session.end and session.start.
	if err := c.NewSession(ctx, ""); err != nil {
		return CommandResult{}, err
	}
	id := c.Session().ID
	return CommandResult{Kind: CommandNewChat, SessionID: id, Text: "new chat " + id}, nil
}

func (c *Core) cmdSessions(context.Context, CommandLine) (CommandResult, error) {
	list, cur := c.Sessions(), c.Session().ID
	text := fmt.Sprintf("%d saved sessions", len(list))
	if len(list) == 0 {
		text = "no saved sessions"
	}
	return CommandResult{Kind: CommandSessions, Sessions: list, SessionID: cur, Text: text}, nil
}

// cmdOpen loads a saved session by id or by a prefix only one id has.
func (c *Core) cmdOpen(ctx context.Context, cl CommandLine) (CommandResult, error) {
	id := cl.Args
	if id == "" {
		return CommandResult{}, errors.New("/open needs a session id (/sessions lists them)")
	}
	var hits []Summary
	for _, s := range c.Sessions() {
		if s.ID == id {
			hits = []Summary{s}
			break
		}
		if strings.HasPrefix(s.ID, id) {
			hits = append(hits, s)
		}
	}
	switch len(hits) {
	case 0:
		return CommandResult{}, fmt.Errorf("no saved session %q (/sessions lists them)", id)
	case 1:
	default:
		return CommandResult{}, fmt.Errorf("session prefix %q is ambiguous (%d sessions)", id, len(hits))
	}
	if err := c.LoadSession(ctx, hits[0].ID); err != nil {
		return CommandResult{}, fmt.Errorf("open %s: %w", hits[0].ID, err)
	}
	text := fmt.Sprintf("opened session %s %s (%d messages)", hits[0].ID, hits[0].Title, len(c.Session().Messages))
	if kept := c.KeptMessage(); kept != "" {
		text += "\n" + kept
	}
	return CommandResult{Kind: CommandOpened, SessionID: hits[0].ID, Sessions: hits, Text: text}, nil
}

// cmdRetry answers /retry: what Retry would send. The front end runs the
// turn (Retry), as it runs a message's.
func (c *Core) cmdRetry(context.Context, CommandLine) (CommandResult, error) {
	text, ok := c.RetryText()
	if !ok {
		return CommandResult{}, ErrNothingToRetry
	}
	return CommandResult{Kind: CommandRetry, Text: redact.String(text)}, nil
}

func (c *Core) cmdActions(context.Context, CommandLine) (CommandResult, error) {
	acts, cmds := c.Actions(), c.commandInfos()
	var b strings.Builder
	for _, a := range acts {
		fmt.Fprintf(&b, "%s  %s\n", a.Name, redact.String(a.Label))
	}
	for _, ci := range cmds {
		fmt.Fprintf(&b, "%s  %s\n", ci.Name, ci.Description)
	}
	if b.Len() == 0 {
		b.WriteString("no plugin actions, extension commands or package commands")
	}
	return CommandResult{Kind: CommandActions, Actions: acts, Commands: cmds, Text: strings.TrimSuffix(b.String(), "\n")}, nil
}

// commandInfos lists the extension and package commands.
func (c *Core) commandInfos() []CommandInfo {
	var out []CommandInfo
	for _, cmd := range c.Commands() {
		out = append(out, CommandInfo{Name: cmd.Name, Description: redact.String(cmd.Description), Kind: CommandKindExtension})
	}
	out = append(out, c.packageCommandInfos()...)
	if src := c.cfg.CommandSource; src != nil {
		out = append(out, src.Commands()...)
	}
	return out
}

func (c *Core) cmdPlugins(context.Context, CommandLine) (CommandResult, error) {
	ps, exts := c.Plugins(), c.ExtensionStatus()
	text := fmt.Sprintf("%d plugins, %d xdev extensions", len(ps), len(exts))
	return CommandResult{Kind: CommandPlugins, Plugins: ps, Extensions: exts, Text: text}, nil
}

// cmdDoctor answers /doctor <plugin> with the report the window's Doctor
// button shows (one rendering: DoctorReport.Text).
func (c *Core) cmdDoctor(ctx context.Context, cl CommandLine) (CommandResult, error) {
	if cl.Args == "" {
		return CommandResult{}, errors.New("/doctor needs a plugin (/plugins lists them)")
	}
	r, err := c.PluginDoctor(ctx, cl.Args)
	if err != nil {
		return CommandResult{}, fmt.Errorf("doctor %s: %w", cl.Args, err)
	}
	return CommandResult{Kind: CommandDoctor, Doctor: &r, Text: redact.String(r.Text())}, nil
}

func (c *Core) cmdAction(ctx context.Context, a surfaces.Action, cl CommandLine) (CommandResult, error) {
	args, err := ParseKeyValues(cl.Args)
	if err != nil {
		return CommandResult{}, fmt.Errorf("%s: %w", a.Name, err)
	}
	res, err := c.InvokeAction(ctx, a.Name, args)
	if err != nil {
		return CommandResult{}, err
	}
	out := &ActionOutcome{Name: a.Name, Plugin: a.Plugin, Accepted: res.Accepted, Message: redact.String(res.Message)}
	var text string
	switch {
	case !out.Accepted && out.Message != "":
		text = a.Name + ": not accepted: " + out.Message
	case !out.Accepted:
		text = a.Name + ": not accepted"
	case out.Message != "":
		text = a.Name + ": " + out.Message
	default:
		text = a.Name + ": done"
	}
	return CommandResult{Kind: CommandAction, Name: a.Name, Action: out, Text: text}, nil
}

func (c *Core) cmdExtension(ctx context.Context, cl CommandLine) (CommandResult, error) {
	for _, cmd := range c.Commands() {
		if cmd.Name != cl.Name {
			continue
		}
		out, err := cmd.Run(ctx, cl.Args)
		if err != nil {
			return CommandResult{}, fmt.Errorf("%s: %s", cl.Name, redact.String(err.Error()))
		}
		out = redact.String(out)
		res := CommandResult{Kind: CommandRan, Name: cl.Name, Text: out, Output: &CommandOutput{Text: out}}
		if r, ok := FindRenderer(c.ExtensionStatus(), cl.Name, out); ok {
			res.Output.Rendered = &r
		}
		return res, nil
	}
	return CommandResult{}, &UnknownCommandError{Name: cl.Name, Kind: "extension command"}
}
