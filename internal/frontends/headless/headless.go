// Package headless is the terminal front end of the agent core: it streams
// the reply to a writer (reasoning dimmed, tool calls shown), prints
// surface updates as lines, and answers approvals and plugin prompts on the
// terminal — or declines them when it is not interactive. Exec and Loop run
// what the user types: messages for the model and the commands the window
// offers as menus and buttons (/actions, /<plugin>:<action>, /ext:<name>,
// /forms, /form, /sessions, /open, /new; /help lists them), parsed and run
// by the core's command layer (agent.Core.Exec) and printed here. With JSON it prints one
// event per line for scripts, in the shapes docs/chat-events.schema.json
// documents (events.go).
//
// Everything it prints that came from a plugin, a model or a file goes
// through safe (redact, then termsafe): a terminal never receives a
// control sequence it did not write itself. The reply streams line by
// line, each line redacted with the one before it, so that a secret split
// over two chunks (or wrapped over two lines) is masked whole.
package headless

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/foundation/termsafe"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Options configure a Frontend.
type Options struct {
	Out, Err io.Writer
	// In answers prompts (and, in Loop, carries the messages and commands);
	// nil (or NonInteractive) declines every approval and cancels every
	// prompt.
	In             io.Reader
	NonInteractive bool
	JSON           bool
	// Color dims reasoning with ANSI escapes (for terminals).
	Color bool
}

// Frontend implements agent.Frontend on a terminal. Emit, Approve and
// Prompt may be called from any goroutine (the core's); Exec and Loop run
// on one goroutine at a time, the caller's.
type Frontend struct {
	opts  Options
	lines *lineReader // nil without input

	mu           sync.Mutex                 // one writer at a time
	midLine      bool                       // the reply text left the cursor mid-line
	reasoning    bool                       // the last text printed was reasoning
	shown        map[string]agent.ToolState // last state printed per tool call
	stream       streamRedactor             // the reply (or reasoning) being streamed
	shownSurface bool                       // a surface event was printed since the last clear (JSON)
	line         lineInFlight               // what Ctrl+C stops
	outputs      map[string]*outputTail     // a running call's output printed so far, per call
	diffed       map[string]bool            // calls whose diff was printed (in their approval)
	cost         turnCost                   // what the turn in flight has cost so far
}

// lineInFlight is the command line Loop is running, for Interrupt (which
// runs on a signal goroutine).
type lineInFlight struct {
	mu      sync.Mutex
	cancel  context.CancelFunc // nil between lines
	turn    bool               // the line is a turn of the model
	stopped bool               // Interrupt stopped that turn
}

// safe is the one way a string from a plugin, a model or a file reaches the
// terminal.
func safe(s string) string { return termsafe.String(redact.String(s)) }

// New makes a terminal front end. Close it when done: it may own a
// goroutine reading In.
func New(opts Options) *Frontend {
	f := &Frontend{opts: opts, shown: map[string]agent.ToolState{}, outputs: map[string]*outputTail{}, diffed: map[string]bool{}}
	if opts.In != nil {
		f.lines = newLineReader(opts.In)
	}
	return f
}

// answering reports whether questions are asked on the terminal (else
// approvals are declined and prompts cancelled).
func (f *Frontend) answering() bool { return f.lines != nil && !f.opts.NonInteractive }

// Close stops the goroutine reading In (once a read blocked in In returns:
// an os.File read is not interrupted).
func (f *Frontend) Close() {
	if f.lines != nil {
		f.lines.close()
	}
}

// Emit implements agent.Frontend.
func (f *Frontend) Emit(ev agent.Event) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if ev.Kind == agent.EventUsage {
		f.addUsage(ev)
	}
	if f.opts.JSON {
		if out, ok := f.coreEvent(ev); ok {
			f.writeJSON(out)
		}
		return
	}
	switch ev.Kind {
	case agent.EventText:
		if f.reasoning {
			f.endReasoning()
		}
		f.feed(ev.Text)
	case agent.EventReasoning:
		if !f.reasoning {
			f.newline()
			f.reasoning = true
			f.stream.reset()
			if f.opts.Color {
				fmt.Fprint(f.opts.Out, "\x1b[2m")
			} else {
				fmt.Fprint(f.opts.Out, i18n.T("thinking: "))
			}
			f.midLine = true
		}
		f.feed(ev.Text)
	case agent.EventToolCall:
		c := ev.Call
		if c.State == agent.ToolStreaming || f.shown[c.ID] == c.State {
			return // shown once complete, once per state
		}
		f.shown[c.ID] = c.State
		f.endReasoning()
		f.newline()
		f.toolCard(c)
	case agent.EventToolProgress:
		if p := ev.Call.Progress; p != nil {
			f.endReasoning()
			f.newline()
			f.progress(ev.Call, p)
		}
	case agent.EventTodo:
		f.endReasoning()
		f.newline()
		fmt.Fprint(f.opts.Out, todoText(ev.Todos))
	case agent.EventTurnDone:
		f.endReasoning()
		f.newline()
		f.stream.reset()
	case agent.EventTurnFailed:
		f.endReasoning()
		f.newline()
		fmt.Fprintln(f.opts.Err, i18n.T("error: %s", safe(ev.Error)))
	case agent.EventNotice:
		f.newline()
		fmt.Fprintf(f.opts.Err, "! %s\n", safe(ev.Text))
	case agent.EventSurface:
		if line := surfaceLine(ev.Surface); line != "" {
			f.newline()
			fmt.Fprintln(f.opts.Err, safe(line))
		}
	case agent.EventCompacted:
		f.newline()
		fmt.Fprintln(f.opts.Err, i18n.T("(earlier conversation compacted)"))
	}
}

// feed prints what of a streamed chunk may be shown now (see
// streamRedactor).
func (f *Frontend) feed(text string) {
	out := f.stream.feed(text)
	if out == "" {
		return
	}
	fmt.Fprint(f.opts.Out, out)
	f.midLine = f.reasoning || !strings.HasSuffix(out, "\n")
}

// flushPending prints the part of the line held back, before anything
// else is printed.
func (f *Frontend) flushPending() {
	if out := f.stream.flush(); out != "" {
		fmt.Fprint(f.opts.Out, out)
		f.midLine = true
	}
}

func (f *Frontend) endReasoning() {
	f.flushPending()
	if !f.reasoning {
		return
	}
	f.stream.reset()
	if f.opts.Color {
		fmt.Fprint(f.opts.Out, "\x1b[0m")
	}
	fmt.Fprintln(f.opts.Out)
	f.reasoning, f.midLine = false, false
}

func (f *Frontend) newline() {
	f.flushPending()
	if f.midLine {
		fmt.Fprintln(f.opts.Out)
		f.midLine = false
	}
}

// Approve implements agent.Frontend.
func (f *Frontend) Approve(ctx context.Context, req agent.ApprovalRequest) agent.Approval {
	ja := jsonApproval{CallID: req.CallID, Tool: redact.String(req.Tool), Arguments: redact.String(req.Arguments)}
	asked := ja
	asked.Covers, asked.OnceOnly, asked.Diff = redact.String(req.Covers), req.OnceOnly, req.Diff
	f.event(jsonEvent{Kind: KindApprovalRequest, SessionID: req.SessionID, Approval: &asked})
	a := f.approve(ctx, req)
	ja.Decision = string(a)
	f.event(jsonEvent{Kind: KindApproval, SessionID: req.SessionID, Approval: &ja})
	return a
}

func (f *Frontend) approve(ctx context.Context, req agent.ApprovalRequest) agent.Approval {
	// The diff is shown with the question (approving covers exactly it),
	// and with a refusal, so the user sees what was not written.
	diff := diffText(req.Diff, f.opts.Color)
	if diff != "" {
		f.mu.Lock()
		f.diffed[req.CallID] = true
		f.mu.Unlock()
	}
	if !f.answering() {
		f.say("! %s\n%s", i18n.T("%s needs approval; declined (not interactive)", safe(req.Tool)), diff)
		return agent.ApproveDeny
	}
	answer, ok := f.ask(ctx, approvalQuestion(req, diff))
	if !ok {
		return agent.ApproveDeny
	}
	switch strings.ToLower(strings.TrimSpace(answer)) {
	case "o", "once", "y", "yes":
		return agent.ApproveOnce
	case "s", "session":
		return agent.ApproveSession
	case "a", "always":
		return agent.ApproveAlways
	}
	return agent.ApproveDeny
}

// approvalQuestion asks about a call and says what each answer covers:
// a session or always answer covers what req.Covers names, and for a call
// no approval can cover (OnceOnly) it says why and offers once or no.
// diff (diffText's, may be empty) is printed between the call and the
// question.
func approvalQuestion(req agent.ApprovalRequest, diff string) string {
	q := i18n.T("Allow %s %s?", safe(req.Tool), safe(req.Arguments))
	if diff != "" {
		q += "\n" + strings.TrimSuffix(diff, "\n")
	}
	// The letters typed stay o, s, a and n in every language.
	all := i18n.T("[o]nce / [s]ession / [a]lways / [N]o: ")
	switch {
	case req.OnceOnly:
		return q + "\n  " + i18n.T("only once: %s", safe(req.Covers)) + "\n" + i18n.T("[o]nce / [N]o: ")
	case req.Covers != "":
		return q + "\n  " + i18n.T("session or always covers: %s", safe(req.Covers)) + "\n" + all
	}
	if diff != "" {
		return q + "\n" + all
	}
	return q + " " + all
}

// event prints a front-end event line in JSON mode (nothing otherwise).
func (f *Frontend) event(ev jsonEvent) {
	if !f.opts.JSON {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.writeJSON(ev)
}

// Prompt implements agent.Frontend: one question per field.
func (f *Frontend) Prompt(ctx context.Context, p *surfaces.Prompt) (map[string]any, bool) {
	jp := &jsonPrompt{Plugin: p.Plugin, SurfaceID: p.SurfaceID, Kind: p.Kind, Title: p.Title, Message: p.Message, Fields: p.Fields}
	f.event(jsonEvent{Kind: KindPrompt, SessionID: p.SessionID, Prompt: jp})
	values, cancelled := f.prompt(ctx, p)
	f.event(jsonEvent{Kind: KindPromptClosed, SessionID: p.SessionID, Prompt: &jsonPrompt{
		Plugin: p.Plugin, SurfaceID: p.SurfaceID, Kind: p.Kind, Cancelled: &cancelled}})
	return values, cancelled
}

func (f *Frontend) prompt(ctx context.Context, p *surfaces.Prompt) (map[string]any, bool) {
	title := p.Title
	if title == "" {
		title = string(p.Kind)
	}
	if !f.answering() {
		f.say("! %s\n", i18n.T("%s asks %q; cancelled (not interactive)", safe(p.Plugin), safe(title)))
		return nil, true
	}
	f.say("%s\n", i18n.T("%s asks: %s", safe(p.Plugin), safe(title)))
	if p.Message != "" {
		f.say("  %s\n", safe(p.Message))
	}
	values, ok := f.askFields(ctx, p.Fields, p.Simple)
	if !ok {
		return nil, true
	}
	return values, false
}

func (f *Frontend) say(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.newline()
	fmt.Fprintf(f.opts.Err, format, args...)
}

func surfaceLine(ch *surfaces.Change) string {
	if ch == nil || ch.Kind != surfaces.Published {
		return ""
	}
	s := ch.Surface
	p := s.Key.Plugin
	switch {
	case s.Status != nil:
		line := i18n.T("[%s] status: %s", p, s.Status.Label)
		if s.Status.Detail != "" {
			line += " — " + s.Status.Detail
		}
		if s.Status.Progress != nil {
			line += fmt.Sprintf(" (%d%%)", int(min(max(*s.Status.Progress, 0), 1)*100))
		}
		return line
	case s.Card != nil:
		line := i18n.T("[%s] card: %s", p, s.Card.Title)
		for _, kv := range s.Card.Fields {
			line += fmt.Sprintf("\n    %s: %s", kv.Key, kv.Value)
		}
		return line
	case s.Form != nil:
		if s.Submit != surfaces.SubmitIdle {
			return i18n.T("[%s] form: %s — %s", p, s.Form.Title, s.Submit)
		}
		return i18n.N("[%s] form: %s (%d field; /form %s to fill it)", "[%s] form: %s (%d fields; /form %s to fill it)", len(s.Form.Fields), p, s.Form.Title, len(s.Form.Fields), agent.FormKey(s.Key))
	case s.Notification != nil:
		line := fmt.Sprintf("[%s] %s: %s", p, strings.ToUpper(string(orInfo(s.Notification.Severity))), s.Notification.Title)
		if s.Notification.Body != "" {
			line += " — " + s.Notification.Body
		}
		return line
	}
	return ""
}

func orInfo(s protocol.Severity) protocol.Severity {
	if s == "" {
		return protocol.SeverityInfo
	}
	return s
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append(lines[:n], i18n.N("… (%d more line)", "… (%d more lines)", len(lines)-n, len(lines)-n))
	}
	return strings.Join(lines, "\n")
}

func indent(s string) string { return "    " + strings.ReplaceAll(s, "\n", "\n    ") }
