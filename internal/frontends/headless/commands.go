package headless

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/foundation/termsafe"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
)

// Core is what the terminal front end needs of the agent core
// (*agent.Core satisfies it). Its methods are safe for concurrent use; the
// ones taking a context may wait on a plugin and are called only from the
// goroutine running Exec or Loop, never from Emit, Approve or Prompt
// (which the core calls from its own goroutines while such a call runs).
type Core interface {
	// Exec parses and runs a slash command (the one command layer both
	// front ends share); agent.ErrNotCommand means the line is a message.
	Exec(ctx context.Context, line string) (agent.CommandResult, error)
	SendAll(ctx context.Context, text string) error
	// Retry re-runs the last turn, which failed, with its message.
	Retry(ctx context.Context) error
	Stop()
	SubmitForm(ctx context.Context, key surfaces.Key, values map[string]any) error
}

var _ Core = (*agent.Core)(nil)

// ErrQuit is returned by Exec for /quit and /exit.
var ErrQuit = errors.New("quit")

// ErrShown wraps an error the front end already printed (the caller only
// sets the exit status).
var ErrShown = errors.New("shown")

// Exec runs one line typed on the terminal: a command (parsed and run by
// the core's command layer, shown here), or a message for the model. What
// it prints it prints itself; an error it returns is wrapped in ErrShown
// once printed (turn failures are printed by the turn's events).
func (f *Frontend) Exec(ctx context.Context, core Core, line string) error {
	line = strings.TrimSpace(line)
	if line == "" {
		return nil
	}
	res, err := core.Exec(ctx, line)
	if errors.Is(err, agent.ErrNotCommand) {
		return f.send(ctx, core, line)
	}
	if err == nil && res.Kind != agent.CommandFormFill {
		f.answered()
	}
	if err == nil {
		err = f.show(ctx, core, line, res)
	}
	if errors.Is(err, ErrShown) { // a turn's failure (/retry): its events said why
		return err
	}
	if err != nil {
		f.answered()
		f.fail(line, err)
		return fmt.Errorf("%w: %w", ErrShown, err)
	}
	if res.Kind == agent.CommandQuit {
		return ErrQuit
	}
	return nil
}

// show prints a command's answer.
func (f *Frontend) show(ctx context.Context, core Core, line string, res agent.CommandResult) error {
	switch res.Kind {
	case agent.CommandHelp:
		if f.opts.JSON { // standard output is for events
			f.say("%s", res.Text)
		} else {
			f.print("%s", res.Text)
		}
	case agent.CommandActions:
		f.listActions(line, res)
	case agent.CommandSessions:
		f.listSessions(res)
	case agent.CommandOpened:
		if !f.opts.JSON { // JSON: the core's session event says it
			f.print("%s\n", safe(res.Text))
		}
	case agent.CommandPlugins:
		f.listPlugins(res)
	case agent.CommandDoctor:
		f.doctor(line, res)
	case agent.CommandForms:
		f.listForms(res.Forms)
	case agent.CommandFormFill:
		return f.fillForm(ctx, core, line, *res.Form)
	case agent.CommandFormSent:
		f.formSent(line, *res.Form)
	case agent.CommandAction:
		f.actionDone(line, res.Action)
	case agent.CommandRan:
		f.commandOutput(line, res)
	case agent.CommandSend:
		return f.send(ctx, core, res.Text)
	case agent.CommandRewinds:
		f.listRewinds(line, res)
	case agent.CommandRewound:
		f.rewound(line, res)
	case agent.CommandRetry:
		if !f.opts.JSON { // JSON: the turn's events say it
			f.say("%s\n", i18n.T("retrying: %s", safe(firstLines(res.Text, 1))))
		}
		return f.turn(core, func() error { return core.Retry(ctx) })
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

// answered marks the line's command done but for printing its answer: a
// Ctrl+C that comes once the answer shows is at the prompt (it ends the
// chat), not one abandoning the command.
func (f *Frontend) answered() {
	f.line.mu.Lock()
	f.line.cancel = nil
	f.line.mu.Unlock()
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
	return f.turn(core, func() error { return core.SendAll(ctx, text) })
}

// turn runs a turn (a message, a retry) so that Ctrl+C stops it, then says
// what it cost (core: the chat's total when it is a ChatCoster).
func (f *Frontend) turn(core any, run func() error) error {
	f.line.mu.Lock()
	f.line.turn, f.line.stopped = true, false
	f.line.mu.Unlock()
	err := run()
	f.sayCost(core)
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

// listActions prints a listing of actions and commands: /actions, and
// /skills (a package's skills as commands); the JSON event names the
// command that asked for it.
func (f *Frontend) listActions(line string, res agent.CommandResult) {
	acts, cmds := res.Actions, res.Commands
	if f.opts.JSON {
		l := &jsonResult{Actions: []jsonAction{}, Commands: []jsonCommand{}}
		for _, a := range acts {
			l.Actions = append(l.Actions, jsonAction{Name: a.Name, Plugin: a.Plugin, ID: a.ID, Label: redact.String(a.Label)})
		}
		for _, c := range cmds {
			l.Commands = append(l.Commands, jsonCommand{Name: c.Name, Description: redact.String(c.Description)})
		}
		f.event(jsonEvent{Kind: KindActions, Command: redact.String(strings.TrimSpace(line)), Result: l})
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
		f.print("%s\n", i18n.T("no plugin actions, extension commands or package commands"))
		return
	}
	f.print("%s", Columns(rows))
}

func (f *Frontend) actionDone(line string, a *agent.ActionOutcome) {
	msg := redact.String(a.Message)
	if f.opts.JSON {
		f.event(jsonEvent{Kind: KindActionResult, Command: redact.String(line), Result: &jsonResult{
			Accepted: &a.Accepted, Message: msg, Plugin: a.Plugin}})
		return
	}
	switch {
	case !a.Accepted && msg != "":
		f.print("%s\n", i18n.T("%s: not accepted: %s", safe(a.Name), termsafe.String(msg)))
	case !a.Accepted:
		f.print("%s\n", i18n.T("%s: not accepted", safe(a.Name)))
	case msg != "":
		f.print("%s: %s\n", safe(a.Name), termsafe.String(msg))
	default:
		f.print("%s\n", i18n.T("%s: done", safe(a.Name)))
	}
}

func (f *Frontend) commandOutput(line string, res agent.CommandResult) {
	out, r := redact.String(res.Output.Text), res.Output.Rendered
	if f.opts.JSON {
		jr := &jsonResult{Output: out}
		if r != nil {
			jr.Renderer = &jsonRenderer{Extension: r.Extension, Name: r.Ref.Name, Kind: r.Ref.Kind}
			jr.Data = r.Data
		}
		f.event(jsonEvent{Kind: KindCommandOutput, Command: redact.String(line), Result: jr})
		return
	}
	if r != nil {
		text, err := renderText(*r)
		if err == nil {
			f.print("%s", termsafe.String(text))
			return
		}
		f.say("! %s\n", i18n.T("%s could not draw its output (%s); the output as text:", safe(r.Ref.Name), safe(err.Error())))
	}
	if !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	f.print("%s", termsafe.String(out))
}

func (f *Frontend) listSessions(res agent.CommandResult) {
	list, cur := res.Sessions, res.SessionID
	if f.opts.JSON {
		f.event(jsonEvent{Kind: KindSessions, Command: "/sessions", Result: &jsonResult{Sessions: sessionsOf(list, cur)}})
		return
	}
	if len(list) == 0 {
		f.print("%s\n", i18n.T("no saved sessions"))
		return
	}
	// The history's order and its key, as the window's sidebar shows it:
	// pinned chats first, then by their last message.
	rows := [][]string{{i18n.T("ID"), i18n.T("LAST MESSAGE"), i18n.T("MODEL"), i18n.T("TITLE")}}
	for _, s := range list {
		title := safe(s.Title)
		if s.Pinned {
			title = i18n.T("[pinned] %s", title)
		}
		if s.ID == cur {
			title = i18n.T("%s (current)", title)
		}
		rows = append(rows, []string{s.ID, s.LastMessageAt.Local().Format("2006-01-02 15:04"), safe(s.Model), title})
	}
	f.print("%s", Columns(rows))
}

// listPlugins answers /plugins: the v2 plugins, then the xdev extensions
// (as the window's plugin manager lists both).
func (f *Frontend) listPlugins(res agent.CommandResult) {
	list := res.Plugins
	if f.opts.JSON {
		out := plugins(list)
		if out == nil {
			out = []jsonPlugin{}
		}
		f.event(jsonEvent{Kind: string(agent.EventPlugins), Plugins: out})
		return
	}
	if len(list) == 0 && len(res.Extensions) == 0 {
		f.print("%s\n", i18n.T("no plugins installed"))
		return
	}
	rows := [][]string{{i18n.T("PLUGIN"), i18n.T("VERSION"), i18n.T("STATE"), i18n.T("WHY")}}
	for _, p := range list {
		rows = append(rows, []string{safe(p.Name), safe(p.Version), p.State, safe(firstLines(p.Failure, 1))})
	}
	for _, x := range res.Extensions {
		rows = append(rows, []string{safe(x.Name), "xdev v1", safe(x.State), safe(firstLines(x.Failure, 1))})
	}
	f.print("%s", Columns(rows))
}

// doctor prints /doctor <plugin>: the report the window's Doctor button
// shows (one rendering: agent.DoctorReport.Text).
func (f *Frontend) doctor(line string, res agent.CommandResult) {
	r, text := res.Doctor, res.Text
	if f.opts.JSON {
		ok := r.OK()
		problems := make([]string, 0, len(r.Problems))
		for _, p := range r.Problems {
			problems = append(problems, redact.String(p))
		}
		f.event(jsonEvent{Kind: KindDoctor, Command: redact.String(line), Result: &jsonResult{
			Plugin: r.Plugin.Name, OK: &ok, Problems: problems, Output: text}})
		return
	}
	f.print("%s", termsafe.String(text))
}
