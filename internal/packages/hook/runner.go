package hook

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/foundation/toolnames"
)

// Runner runs package hooks for the core. Run may be called from several
// goroutines at once; Notify is called on the goroutine that ran the event.
type Runner struct {
	notify func(string)
	log    *slog.Logger

	// Async hooks run under ctx, cancelled by Close, which waits for them.
	ctx    context.Context
	cancel context.CancelFunc
	async  sync.WaitGroup

	mu     sync.Mutex
	closed bool
	last   map[string]string   // per hook, the last message told (repeats are not told again)
	late   func(Event, string) // SetLateContext
}

// NewRunner makes a Runner. notify receives every non-pass outcome as one
// line (redacted, naming the plugin, event and command); nil drops them.
func NewRunner(notify func(string), log *slog.Logger) *Runner {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	r := &Runner{notify: notify, log: log}
	r.ctx, r.cancel = context.WithCancel(context.Background())
	return r
}

// Close kills the async hooks still running and waits for them. Run after
// Close runs no async hook.
func (r *Runner) Close() {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	r.cancel()
	r.async.Wait()
}

// Turn is one user turn's account of the plugins whose hook timed out: a
// plugin pays one timeout per turn, its later hooks in the turn are not
// run and take the timeout's verdict at once (a block at a gating event).
// Safe from any goroutine.
type Turn struct {
	mu      sync.Mutex
	tripped map[string]string // plugin → why
}

// NewTurn starts a turn's account.
func NewTurn() *Turn { return &Turn{tripped: map[string]string{}} }

func (t *Turn) trippedBy(plugin string) (string, bool) {
	if t == nil {
		return "", false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	why, ok := t.tripped[plugin]
	return why, ok
}

func (t *Turn) trip(plugin, why string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.tripped[plugin]; !ok {
		t.tripped[plugin] = why
	}
}

// Run runs the hooks of p.Event that match p.ToolName, in order, each with
// the payload on its stdin, and stops at the first block. turn may be nil
// (an event outside a turn). Async hooks are started in the background and
// count as passed.
func (r *Runner) Run(ctx context.Context, turn *Turn, hooks []Resolved, p Payload) Report {
	rep := Report{Event: p.Event}
	for _, h := range hooks {
		if h.Event != p.Event || !h.Matches(p.ToolName) {
			continue
		}
		stdin := stdinLine(p, h.PayloadFormat)
		if h.Async {
			r.runAsync(h, stdin)
			rep.Outcomes = append(rep.Outcomes, Outcome{Hook: h, Decision: Pass})
			continue
		}
		o, ran := r.runOne(ctx, turn, h, stdin)
		switch {
		case h.PayloadFormat == FormatBus:
			busVerdict(&o, ran, &rep, &p)
		case o.Decision == Pass && h.PayloadFormat == FormatClaude:
			claudeVerdict(&o, &rep, &p)
		}
		rep.Outcomes = append(rep.Outcomes, o)
		r.tell(o)
		if o.Decision == Pass && h.PayloadFormat == FormatClaude {
			r.tellSystemMessage(o)
		}
		if o.Decision == Block {
			rep.Blocked, rep.BlockedBy = true, &rep.Outcomes[len(rep.Outcomes)-1]
			break
		}
		if ctx.Err() != nil {
			break // stopped: the rest is not run
		}
	}
	return rep
}

// runOne runs one hook and gives its verdict by its exit, and what the run
// left as the hook wrote it (the Outcome's output is redacted).
func (r *Runner) runOne(ctx context.Context, turn *Turn, h Resolved, stdin []byte) (Outcome, spawned) {
	o := Outcome{Hook: h, ExitCode: -1}
	if why, ok := turn.trippedBy(h.Plugin); ok {
		o.Skipped, o.TimedOut, o.Decision = true, true, Warn
		if h.blocks() {
			o.Decision = Block
		}
		o.Stderr = "not run: " + why
		return o, spawned{code: -1, timedOut: true}
	}
	var s spawned
	if h.PayloadFormat == FormatClaude && h.ContextFile == "" {
		s = spawnClaude(ctx, h, stdin, r.background) // it may ask to go on in the background
	} else {
		s = spawn(ctx, h, stdin)
	}
	o.ExitCode, o.TimedOut, o.Truncated = s.code, s.timedOut, s.truncated
	o.Stdout, o.Stderr = redact.String(s.stdout), redact.String(s.stderr)
	switch {
	case s.err != nil:
		o.Decision, o.Err = Error, s.err
		if h.FailClosed {
			o.Decision = Block
		}
		if strings.TrimSpace(o.Stderr) == "" {
			o.Stderr = redact.String(s.err.Error())
		}
	case s.timedOut:
		o.Decision, o.Err = Warn, fmt.Errorf("timed out after %s (killed)", h.Timeout)
		if h.blocks() {
			o.Decision = Block
		}
		why := fmt.Sprintf("%s timed out after %s (killed)", h.Label(), h.Timeout)
		turn.trip(h.Plugin, why)
		if strings.TrimSpace(o.Stderr) == "" {
			o.Stderr = fmt.Sprintf("hook timed out after %s", h.Timeout)
		}
	case s.code == 0:
		o.Decision = Pass
	case s.code == 2 && h.blocks():
		o.Decision = Block
	default:
		o.Decision, o.Err = Warn, s.signal
		if h.FailClosed {
			o.Decision = Block
		}
	}
	return o, s
}

// claudeVerdict takes a Claude-format hook's JSON decision on exit 0: a
// deny at PreToolUse, PermissionRequest or UserPromptSubmit blocks, an
// allow at PermissionRequest answers the approval, and an updatedInput at
// PreToolUse becomes the call's arguments (in this host's names) for the
// hooks after it and for the call: Report.UpdatedArgs.
func claudeVerdict(o *Outcome, rep *Report, p *Payload) {
	e := o.Hook.Event
	if e != PreToolUse && e != PermissionRequest && e != UserPromptSubmit {
		return
	}
	out, err := ParseOutput(e, o.Stdout)
	switch {
	case err != nil:
	case out.Deny:
		o.Decision = Block
		if out.DenyReason != "" {
			o.Stdout = out.DenyReason
		}
	case out.Allow:
		rep.Allowed = true
	}
	if len(out.UpdatedInput) == 0 {
		return
	}
	args, err := toolnames.FromClaudeInput(p.ToolName, out.UpdatedInput, p.Cwd)
	if err != nil {
		// The call runs as it was: a hook's rewrite that cannot be read is
		// the hook's problem to report, not a reason to run something else.
		o.Decision = Warn
		o.Stderr = strings.TrimSpace(o.Stderr + "\nupdatedInput not applied: " + err.Error())
		return
	}
	p.ToolArgs, rep.UpdatedArgs = args, args
}

// runAsync starts h in the background; its outcome is only logged.
func (r *Runner) runAsync(h Resolved, stdin []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	r.async.Go(func() {
		o, _ := r.runOne(r.ctx, nil, h, stdin)
		if o.Decision != Pass {
			r.log.Warn("async hook", "outcome", FormatOutcome(o))
		}
	})
}

// RunBackground runs the hooks of p.Event as Run does, on a goroutine of
// its own, under the runner's context (Close kills them): for events the
// Reasonix host does not wait for (Notification).
func (r *Runner) RunBackground(hooks []Resolved, p Payload) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	r.async.Go(func() { r.Run(r.ctx, nil, hooks, p) })
}

// tell notifies a non-pass outcome, unless the hook said exactly that last
// time (a hook broken on this machine would say it before every tool
// call). A block is always told: it is how the user learns why.
func (r *Runner) tell(o Outcome) {
	if o.Decision == Pass || r.notify == nil || o.Skipped && o.Decision != Block {
		return // a skipped hook's plugin was already reported when it timed out
	}
	msg := FormatOutcome(o)
	key := o.Hook.Plugin + "\x00" + string(o.Hook.Event) + "\x00" + o.Hook.Command + "\x00" + o.Hook.ContextFile
	r.mu.Lock()
	if r.last == nil {
		r.last = map[string]string{}
	}
	prev, seen := r.last[key]
	r.last[key] = msg
	r.mu.Unlock()
	if o.Decision == Block || !seen || prev != msg {
		r.notify(msg)
	}
}

// tellSystemMessage shows the user a passing Claude-format hook's
// systemMessage, as Claude Code does (hookify's warnings are told so).
// Every time: a rule that warns on each edit should say so each time.
func (r *Runner) tellSystemMessage(o Outcome) {
	if r.notify == nil {
		return
	}
	if out, err := ParseOutput(o.Hook.Event, o.Stdout); err == nil && out.SystemMessage != "" {
		r.notify(o.Hook.Label() + ": " + out.SystemMessage)
	}
}

// FormatOutcome is one line for the user: the hook, its verdict and why
// (its stderr, else its stdout).
func FormatOutcome(o Outcome) string {
	detail := strings.TrimSpace(o.Stderr)
	if detail == "" {
		detail = strings.TrimSpace(o.Stdout)
	}
	if r := []rune(detail); len(r) > 2000 {
		detail = string(r[:2000]) + "…"
	}
	head := fmt.Sprintf("%s — %s", o.Hook.Label(), o.Decision)
	if o.Truncated {
		head += " (output truncated)"
	}
	if detail == "" {
		return head
	}
	return head + ": " + detail
}

// Contexts is the model context the passing hooks of rep gave
// (hookSpecificOutput.additionalContext; SessionStart's plain stdout), and
// a line for each whose JSON could not be read. At SessionStart every
// hook's context counts, as in the Reasonix host; at other events (a
// PostToolUse's guidance, a UserPromptSubmit's context) only a
// Claude-format hook's, as Claude Code gives the model, plain stdout at
// UserPromptSubmit included. Each is cut at ContextCap.
func (rep Report) Contexts() (contexts, problems []string) {
	for _, o := range rep.Outcomes {
		claude := o.Hook.PayloadFormat == FormatClaude
		if o.Decision != Pass || rep.Event != SessionStart && !claude {
			continue
		}
		out, err := ParseOutput(rep.Event, o.Stdout)
		if err != nil {
			problems = append(problems, o.Hook.Label()+" — warn: "+err.Error())
			continue
		}
		text := out.AdditionalContext
		if s := strings.TrimSpace(o.Stdout); text == "" && claude && rep.Event == UserPromptSubmit && !strings.HasPrefix(s, "{") {
			text = s
		}
		if text != "" {
			contexts = append(contexts, capContext(text))
		}
	}
	return contexts, problems
}

// ContextCap is how much of one hook's context reaches the model: Claude
// Code's own threshold, past which it keeps the output in a file and
// gives the model a preview.
const ContextCap = 50_000

func capContext(s string) string {
	if r := []rune(s); len(r) > ContextCap {
		return string(r[:ContextCap]) + fmt.Sprintf("\n… (%d more characters of hook output left out)", len(r)-ContextCap)
	}
	return s
}

// ContextBlock wraps SessionStart contexts the way the Reasonix host puts
// them before the user's next message ("" for none).
func ContextBlock(contexts []string) string { return EventContextBlock(SessionStart, contexts) }

// EventContextBlock wraps the contexts hooks of e gave, for the model ("" for
// none): before the user's message (SessionStart, UserPromptSubmit) or
// after a tool's result (PostToolUse).
func EventContextBlock(e Event, contexts []string) string {
	var parts []string
	for _, c := range contexts {
		if c = strings.TrimSpace(c); c != "" {
			parts = append(parts, c)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "<hook-context event=\"" + string(e) + "\">\n" + strings.Join(parts, "\n\n") + "\n</hook-context>"
}

// Stdouts joins the trimmed stdout of every hook of rep that ran, one per
// line (PreCompact's guidance: the Reasonix host takes it whatever the exit
// code).
func (rep Report) Stdouts() string {
	var parts []string
	for _, o := range rep.Outcomes {
		if s := strings.TrimSpace(o.Stdout); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n")
}
