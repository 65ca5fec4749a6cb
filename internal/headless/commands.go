package headless

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/reasonix/reasonix-desktop/internal/host/agent"
	"github.com/reasonix/reasonix-desktop/internal/redact"
	"github.com/reasonix/reasonix-desktop/internal/surfaces"
	"github.com/reasonix/reasonix-desktop/internal/termsafe"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Core is what the terminal front end needs of the agent core
// (*agent.Core satisfies it). Its methods are safe for concurrent use; the
// ones taking a context may wait on a plugin and are called only from the
// goroutine running Exec or Loop, never from Emit, Approve or Prompt
// (which the core calls from its own goroutines while such a call runs).
type Core interface {
	SendAll(ctx context.Context, text string) error
	Stop()
	Session() agent.Session
	Sessions() []agent.Summary
	NewSession(ctx context.Context, workspace string) error
	LoadSession(ctx context.Context, id string) error
	Actions() []surfaces.Action
	InvokeAction(ctx context.Context, name string, args map[string]string) (protocol.UIActionResult, error)
	SubmitForm(ctx context.Context, key surfaces.Key, values map[string]any) error
	Commands() []agent.Command
	RunCommand(ctx context.Context, line string) (string, error)
	ExtensionStatus() []agent.ExtensionStatus
	Plugins() []agent.PluginInfo
	PluginDoctor(ctx context.Context, name string) (agent.DoctorReport, error)
}

var _ Core = (*agent.Core)(nil)

// ErrQuit is returned by Exec for /quit and /exit.
var ErrQuit = errors.New("quit")

// ErrShown wraps an error the front end already printed (the caller only
// sets the exit status).
var ErrShown = errors.New("shown")

// looksLikeAction reports a first word of the shape /<plugin>:<action>
// (protocol's name rules; the action id in any case, as lookups are): such
// a line that names no action is an error, not a message to the model. A
// path like /tmp/a:1 is not one.
func looksLikeAction(name string) bool {
	plugin, id, ok := strings.Cut(strings.TrimPrefix(name, "/"), ":")
	return ok && protocol.ValidPluginName(plugin) && protocol.ValidActionID(strings.ToLower(id))
}

const help = `Commands (anything else is sent to the model):
  /actions                        list plugin actions and extension commands
  /<plugin>:<action> [k=v ...]    run a plugin UI action (arguments optional)
  /ext:<command> [args]           run an xdev extension command
  /forms                          list the forms plugins published
  /form <form> [field=value ...]  fill a form and submit it (asks each field
                                  unless values are given)
  /plugins                        list the plugins and their states
  /doctor <plugin>                check a plugin (the window's Doctor report)
  /sessions                       list saved sessions
  /open <id>                      continue a saved session (an id prefix will do)
  /new, /clear                    start a new session
  /help                           this list
  /quit                           leave (end of input does too)
`

// Exec runs one line typed on the terminal: a command, or a message for
// the model. What it prints it prints itself; an error it returns is
// wrapped in ErrShown once printed (turn failures are printed by the turn's
// events).
func (f *Frontend) Exec(ctx context.Context, core Core, line string) error {
	line = strings.TrimSpace(line)
	if line == "" {
		return nil
	}
	name, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	var err error
	switch {
	case !strings.HasPrefix(line, "/") || strings.Contains(line, "\n"):
		return f.send(ctx, core, line) // a command is one line
	case name == "/quit" || name == "/exit":
		return ErrQuit
	case name == "/help":
		if f.opts.JSON { // standard output is for events
			f.say("%s", help)
		} else {
			f.print("%s", help)
		}
		return nil
	case name == "/actions":
		f.listActions(core)
		return nil
	case name == "/sessions":
		f.listSessions(core)
		return nil
	case name == "/plugins":
		f.listPlugins(core)
		return nil
	case name == "/doctor":
		err = f.doctor(ctx, core, line, rest)
	case name == "/open":
		err = f.open(ctx, core, rest)
	case name == "/new" || name == "/clear":
		// As in the Reasonix host: the live session is saved, session.rotate
		// asks the session_policy owner, then session.end and session.start.
		err = core.NewSession(ctx, "")
	case name == "/forms":
		f.listForms()
		return nil
	case name == "/form":
		err = f.fillForm(ctx, core, rest)
	case strings.HasPrefix(name, "/ext:"):
		err = f.runCommand(ctx, core, line, name)
	default:
		if a, ok := lookupAction(core, name); ok {
			err = f.invoke(ctx, core, line, a, rest)
		} else if looksLikeAction(name) {
			err = fmt.Errorf("no action %s (/actions lists them)", name)
		} else {
			return f.send(ctx, core, line) // a message that starts with a slash
		}
	}
	if err != nil {
		f.fail(line, err)
		return fmt.Errorf("%w: %w", ErrShown, err)
	}
	return nil
}

// Loop reads lines from the input and runs each with Exec until the input
// ends, ctx is done or /quit. A failed command or turn does not end it;
// the first failure is returned at the end (so a script piping lines
// learns that one failed), nil when every line succeeded.
func (f *Frontend) Loop(ctx context.Context, core Core) error {
	if f.lines == nil {
		return errors.New("headless: no input to read commands from")
	}
	var failed error
	for {
		if !f.opts.JSON {
			f.say("> ")
		}
		line, ok := f.lines.nextInput(ctx)
		if !ok {
			if !f.opts.JSON {
				f.say("\n")
			}
			return failed
		}
		lctx, cancel := context.WithCancel(ctx)
		f.line.mu.Lock()
		f.line.cancel = cancel
		f.line.mu.Unlock()
		err := f.Exec(lctx, core, line)
		f.line.mu.Lock()
		f.line.cancel, f.line.turn = nil, false
		f.line.mu.Unlock()
		cancel()
		if errors.Is(err, ErrQuit) {
			return failed
		}
		if failed == nil {
			failed = err
		}
	}
}

// Interrupt is what Ctrl+C does in Loop, as Esc does in the window: a
// reply in flight is stopped (the turn ends "stopped" and the session is
// saved), a command waiting on the terminal (a form's next field, say) is
// abandoned. Between lines it does nothing and reports false: the caller
// then ends the chat. Safe to call from any goroutine, at any time.
func (f *Frontend) Interrupt(core Core) bool {
	f.line.mu.Lock()
	defer f.line.mu.Unlock()
	switch {
	case f.line.turn:
		// Stopping, not cancelling the line: a cancelled context would
		// also cancel the save that ends the turn.
		f.line.stopped = true
		core.Stop()
	case f.line.cancel != nil:
		f.line.cancel()
	default:
		return false
	}
	return true
}

func (f *Frontend) send(ctx context.Context, core Core, text string) error {
	f.line.mu.Lock()
	f.line.turn, f.line.stopped = true, false
	f.line.mu.Unlock()
	err := core.SendAll(ctx, text)
	f.line.mu.Lock()
	stopped := f.line.stopped
	f.line.turn, f.line.stopped = false, false
	f.line.mu.Unlock()
	if err != nil && stopped {
		return nil // the user's own stop is not a failed line
	}
	if err != nil {
		return fmt.Errorf("%w: %w", ErrShown, err) // the turn_failed event said why
	}
	return nil
}

// fail prints a command's failure.
func (f *Frontend) fail(line string, err error) {
	msg := redact.String(err.Error())
	if f.opts.JSON {
		f.event(jsonEvent{Kind: KindError, Command: redact.String(line), Error: msg})
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.newline()
	fmt.Fprintf(f.opts.Err, "error: %s\n", termsafe.String(msg))
}

// print writes a command's answer on the terminal (text mode).
func (f *Frontend) print(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.newline()
	fmt.Fprintf(f.opts.Out, format, args...)
}

func lookupAction(core Core, name string) (surfaces.Action, bool) {
	for _, a := range core.Actions() {
		if strings.EqualFold(a.Name, name) {
			return a, true
		}
	}
	return surfaces.Action{}, false
}

func (f *Frontend) listActions(core Core) {
	acts, cmds := core.Actions(), core.Commands()
	if f.opts.JSON {
		l := &jsonResult{Actions: []jsonAction{}, Commands: []jsonCommand{}}
		for _, a := range acts {
			l.Actions = append(l.Actions, jsonAction{Name: a.Name, Plugin: a.Plugin, ID: a.ID, Label: redact.String(a.Label)})
		}
		for _, c := range cmds {
			l.Commands = append(l.Commands, jsonCommand{Name: c.Name, Description: redact.String(c.Description)})
		}
		f.event(jsonEvent{Kind: KindActions, Command: "/actions", Result: l})
		return
	}
	var rows [][]string
	for _, a := range acts {
		rows = append(rows, []string{safe(a.Name), safe(a.Label)})
	}
	for _, c := range cmds {
		rows = append(rows, []string{safe(c.Name), safe(c.Description)})
	}
	if len(rows) == 0 {
		f.print("no plugin actions or extension commands\n")
		return
	}
	f.print("%s", columns(rows))
}

func (f *Frontend) invoke(ctx context.Context, core Core, line string, a surfaces.Action, rest string) error {
	args, err := keyValues(rest)
	if err != nil {
		return fmt.Errorf("%s: %w", a.Name, err)
	}
	res, err := core.InvokeAction(ctx, a.Name, args)
	if err != nil {
		return err
	}
	msg := redact.String(res.Message)
	if f.opts.JSON {
		f.event(jsonEvent{Kind: KindActionResult, Command: redact.String(line), Result: &jsonResult{
			Accepted: &res.Accepted, Message: msg, Plugin: a.Plugin}})
		return nil
	}
	switch {
	case !res.Accepted && msg != "":
		f.print("%s: not accepted: %s\n", safe(a.Name), termsafe.String(msg))
	case !res.Accepted:
		f.print("%s: not accepted\n", safe(a.Name))
	case msg != "":
		f.print("%s: %s\n", safe(a.Name), termsafe.String(msg))
	default:
		f.print("%s: done\n", safe(a.Name))
	}
	return nil
}

func (f *Frontend) runCommand(ctx context.Context, core Core, line, name string) error {
	known := false
	for _, c := range core.Commands() {
		known = known || c.Name == name
	}
	if !known {
		return fmt.Errorf("no extension command %s (/actions lists them)", name)
	}
	out, err := core.RunCommand(ctx, line)
	if err != nil {
		return err
	}
	out = redact.String(out)
	r, ok := agent.FindRenderer(core.ExtensionStatus(), name, out)
	if f.opts.JSON {
		res := &jsonResult{Output: out}
		if ok {
			res.Renderer = &jsonRenderer{Extension: r.Extension, Name: r.Ref.Name, Kind: r.Ref.Kind}
			res.Data = r.Data
		}
		f.event(jsonEvent{Kind: KindCommandOutput, Command: redact.String(line), Result: res})
		return nil
	}
	if ok {
		text, err := renderText(r)
		if err == nil {
			f.print("%s", termsafe.String(text))
			return nil
		}
		f.say("! %s could not draw its output (%s); the output as text:\n", safe(r.Ref.Name), safe(err.Error()))
	}
	if !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	f.print("%s", termsafe.String(out))
	return nil
}

func (f *Frontend) listSessions(core Core) {
	list, cur := core.Sessions(), core.Session().ID
	if f.opts.JSON {
		f.event(jsonEvent{Kind: KindSessions, Command: "/sessions", Result: &jsonResult{Sessions: sessionsOf(list, cur)}})
		return
	}
	if len(list) == 0 {
		f.print("no saved sessions\n")
		return
	}
	rows := [][]string{{"ID", "UPDATED", "MODEL", "TITLE"}}
	for _, s := range list {
		title := safe(s.Title)
		if s.ID == cur {
			title += " (current)"
		}
		rows = append(rows, []string{s.ID, s.Updated.Local().Format("2006-01-02 15:04"), safe(s.Model), title})
	}
	f.print("%s", columns(rows))
}

// open loads a saved session by id or by a prefix only one id has.
func (f *Frontend) open(ctx context.Context, core Core, id string) error {
	if id == "" {
		return errors.New("/open needs a session id (/sessions lists them)")
	}
	var hits []agent.Summary
	for _, s := range core.Sessions() {
		if s.ID == id {
			hits = []agent.Summary{s}
			break
		}
		if strings.HasPrefix(s.ID, id) {
			hits = append(hits, s)
		}
	}
	switch len(hits) {
	case 0:
		return fmt.Errorf("no saved session %q (/sessions lists them)", id)
	case 1:
	default:
		return fmt.Errorf("session prefix %q is ambiguous (%d sessions)", id, len(hits))
	}
	if err := core.LoadSession(ctx, hits[0].ID); err != nil {
		return fmt.Errorf("open %s: %w", hits[0].ID, err)
	}
	if !f.opts.JSON { // JSON: the core's session event says it
		f.print("opened session %s %s (%d messages)\n", hits[0].ID, safe(hits[0].Title), len(core.Session().Messages))
	}
	return nil
}

func (f *Frontend) listPlugins(core Core) {
	list := core.Plugins()
	if f.opts.JSON {
		out := plugins(list)
		if out == nil {
			out = []jsonPlugin{}
		}
		f.event(jsonEvent{Kind: string(agent.EventPlugins), Plugins: out})
		return
	}
	if len(list) == 0 {
		f.print("no plugins installed\n")
		return
	}
	rows := [][]string{{"PLUGIN", "VERSION", "STATE", "WHY"}}
	for _, p := range list {
		rows = append(rows, []string{safe(p.Name), safe(p.Version), p.State, safe(firstLines(p.Failure, 1))})
	}
	f.print("%s", columns(rows))
}

// columns aligns rows of terminal-safe cells (tabs and newlines in a cell
// become spaces).
func columns(rows [][]string) string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	flat := strings.NewReplacer("\t", " ", "\n", " ")
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = flat.Replace(c)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
	return b.String()
}

// doctor answers /doctor <plugin> with the report the window's Doctor
// button shows (one rendering: agent.DoctorReport.Text).
func (f *Frontend) doctor(ctx context.Context, core Core, line, name string) error {
	if name == "" {
		return errors.New("/doctor needs a plugin (/plugins lists them)")
	}
	r, err := core.PluginDoctor(ctx, name)
	if err != nil {
		return fmt.Errorf("doctor %s: %w", name, err)
	}
	text := redact.String(r.Text())
	if f.opts.JSON {
		ok := r.OK()
		problems := make([]string, 0, len(r.Problems))
		for _, p := range r.Problems {
			problems = append(problems, redact.String(p))
		}
		f.event(jsonEvent{Kind: KindDoctor, Command: redact.String(line), Result: &jsonResult{
			Plugin: name, OK: &ok, Problems: problems, Output: text}})
		return nil
	}
	f.print("%s", termsafe.String(text))
	return nil
}
