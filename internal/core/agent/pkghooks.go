package agent

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/reasonix/reasonix-desktop/internal/packages/hook"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Plugin packages' hooks (internal/packages/hook) in the one chain: after the
// settings hooks bus, before xdev and the v2 interceptors. Tool events run
// as a tool gate placed right after the hooks bus; the others are fired by
// the turn, the session switches and Close at the points the Reasonix host
// fires them.

// pkgHookState is the core's state for package hooks (mu guards all but
// runner's own).
type pkgHookState struct {
	once   sync.Once
	runner *hook.Runner

	mu   sync.Mutex
	turn *hook.Turn // the running turn's timeout account
	// started is the session whose SessionStart fired; source is what the
	// next one says ("startup", "clear", "resume").
	started, source string
	contexts        []string // SessionStart contexts for the next message
	prompt          []string // the UserPromptSubmit contexts of this message
	// late are the contexts of hooks that went on in the background and
	// answered since, by event, for the next message.
	late map[hook.Event][]string
}

func (c *Core) hookRunner() *hook.Runner {
	c.pkg.hooks.once.Do(func() {
		r := hook.NewRunner(c.notice, c.log)
		r.SetLateContext(func(e hook.Event, text string) {
			c.pkg.hooks.mu.Lock()
			defer c.pkg.hooks.mu.Unlock()
			if c.pkg.hooks.late == nil {
				c.pkg.hooks.late = map[hook.Event][]string{}
			}
			c.pkg.hooks.late[e] = append(c.pkg.hooks.late[e], text)
		})
		c.pkg.hooks.runner = r
	})
	return c.pkg.hooks.runner
}

// pkgHookList is the package hooks as they are now, resolved for the
// session in ws. A contextFile is opened inside its package when the hook
// runs (hook.readContext): one that became a link out of it is refused
// there and told through the runner's notify, like any hook that fails.
func (c *Core) pkgHookList(ws string) []hook.Resolved {
	return hook.Resolve(c.packages(), hook.Env{Home: c.cfg.Layout.Root, Workspace: ws})
}

// hasPkgHooks reports whether a package has a hook for one of events.
func (c *Core) hasPkgHooks(events ...hook.Event) bool {
	for _, p := range c.packages() {
		for _, e := range events {
			if len(p.Hooks[string(e)]) > 0 {
				return true
			}
		}
	}
	return false
}

// firePkg runs the package hooks of p.Event for the current session; in a
// turn they share its timeout account.
func (c *Core) firePkg(ctx context.Context, p hook.Payload) hook.Report {
	if !c.hasPkgHooks(p.Event) {
		return hook.Report{Event: p.Event}
	}
	c.mu.Lock()
	p.SessionID, p.Cwd = c.session.ID, c.session.WorkspaceRoot
	c.mu.Unlock()
	c.pkg.hooks.mu.Lock()
	turn := c.pkg.hooks.turn
	c.pkg.hooks.mu.Unlock()
	return c.hookRunner().Run(ctx, turn, c.pkgHookList(p.Cwd), p)
}

// pkgTurnStart opens the turn's timeout account, fires SessionStart once
// per session (lazily, at its first turn, as the Reasonix host does) and
// UserPromptSubmit for a new message. A block fails the turn before
// input.receive; the user's text is kept as the failed turn's input.
func (c *Core) pkgTurnStart(ctx context.Context, run *turnRun) error {
	c.pkg.hooks.mu.Lock()
	c.pkg.hooks.turn = hook.NewTurn()
	c.pkg.hooks.mu.Unlock()
	c.pkgSessionStart(ctx)
	if run.resume {
		return nil
	}
	turnNo := 1
	for _, m := range c.Session().Messages {
		if m.Role == protocol.RoleUser {
			turnNo++
		}
	}
	rep := c.firePkg(ctx, hook.Payload{Event: hook.UserPromptSubmit, Prompt: run.text, Turn: turnNo})
	if rep.Blocked {
		return &BlockedError{Point: protocol.HookInputReceive, Plugin: rep.BlockedBy.Hook.Plugin, Reason: hook.FormatOutcome(*rep.BlockedBy)}
	}
	// What a Claude-format hook adds for this prompt goes with it, as
	// Claude Code adds it.
	contexts, problems := rep.Contexts()
	for _, p := range problems {
		c.notice(p)
	}
	c.pkg.hooks.mu.Lock()
	c.pkg.hooks.prompt = contexts
	c.pkg.hooks.mu.Unlock()
	return nil
}

// pkgSessionStart fires SessionStart if it has not fired for the current
// session; what the hooks give the model waits for the next message.
func (c *Core) pkgSessionStart(ctx context.Context) {
	c.mu.Lock()
	id := c.session.ID
	c.mu.Unlock()
	c.pkg.hooks.mu.Lock()
	if c.pkg.hooks.started == id {
		c.pkg.hooks.mu.Unlock()
		return
	}
	c.pkg.hooks.started = id
	source := c.pkg.hooks.source
	c.pkg.hooks.mu.Unlock()
	if source == "" {
		source = "startup"
	}
	rep := c.firePkg(ctx, hook.Payload{Event: hook.SessionStart, Source: source})
	contexts, problems := rep.Contexts()
	for _, p := range problems {
		c.notice(p)
	}
	c.pkg.hooks.mu.Lock()
	c.pkg.hooks.contexts = append(c.pkg.hooks.contexts, contexts...)
	c.pkg.hooks.mu.Unlock()
}

// pkgWithContext puts the waiting SessionStart context before the user's
// message, as the Reasonix host does, then what hooks that went on in the
// background gave since (by event, in the host's order of events), then
// this message's UserPromptSubmit context, and forgets them.
func (c *Core) pkgWithContext(text string) string {
	c.pkg.hooks.mu.Lock()
	contexts, prompt, late := c.pkg.hooks.contexts, c.pkg.hooks.prompt, c.pkg.hooks.late
	c.pkg.hooks.contexts, c.pkg.hooks.prompt, c.pkg.hooks.late = nil, nil, nil
	c.pkg.hooks.mu.Unlock()
	blocks := []string{hook.ContextBlock(contexts)}
	for _, e := range hook.Events {
		blocks = append(blocks, hook.EventContextBlock(e, late[e]))
	}
	blocks = append(blocks, hook.EventContextBlock(hook.UserPromptSubmit, prompt), text)
	return strings.Join(slices.DeleteFunc(blocks, func(b string) bool { return b == "" }), "\n\n")
}

// pkgSessionSwitched records that another session is current: its
// SessionStart fires at its first turn, saying "resume" for a saved session
// (session.load) and "clear" for a new chat.
func (c *Core) pkgSessionSwitched(start protocol.HookPoint) {
	source := "clear"
	if start == protocol.HookSessionLoad {
		source = "resume"
	}
	c.pkg.hooks.mu.Lock()
	c.pkg.hooks.source, c.pkg.hooks.contexts, c.pkg.hooks.late = source, nil, nil
	c.pkg.hooks.mu.Unlock()
}

// pkgSessionEnd fires SessionEnd for the session that is current.
func (c *Core) pkgSessionEnd(ctx context.Context, reason string) {
	c.firePkg(context.WithoutCancel(ctx), hook.Payload{Event: hook.SessionEnd, Reason: reason})
}

// pkgStop fires Stop after a turn that completed, StopFailure after one
// that did not (and the Reasonix-format Stop hooks too, which always saw
// both); stopped says the user stopped it.
func (c *Core) pkgStop(ctx context.Context, err error, stopped bool) {
	if !c.hasPkgHooks(hook.Stop, hook.StopFailure) {
		return
	}
	ctx = context.WithoutCancel(ctx) // a stopped turn still tells its hooks
	last := ""
	ms := c.Session().Messages
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Role == protocol.RoleAssistant && ms[i].Content != "" {
			last = ms[i].Content
			break
		}
	}
	if err == nil {
		c.firePkg(ctx, hook.Payload{Event: hook.Stop, LastAssistant: last})
		return
	}
	p := hook.Payload{Event: hook.StopFailure, LastAssistant: last, Error: err.Error(),
		IsInterrupt: stopped || errors.Is(err, context.Canceled)}
	c.firePkg(ctx, p)
	p.Event = hook.Stop
	c.fireNative(ctx, p)
}

// fireNative runs the Reasonix-format hooks of p.Event only.
func (c *Core) fireNative(ctx context.Context, p hook.Payload) {
	c.mu.Lock()
	p.SessionID, p.Cwd = c.session.ID, c.session.WorkspaceRoot
	c.mu.Unlock()
	var native []hook.Resolved
	for _, h := range c.pkgHookList(p.Cwd) {
		if h.PayloadFormat != hook.FormatClaude {
			native = append(native, h)
		}
	}
	c.pkg.hooks.mu.Lock()
	turn := c.pkg.hooks.turn
	c.pkg.hooks.mu.Unlock()
	c.hookRunner().Run(ctx, turn, native, p)
}

// pkgPostLLMCall lets PostLLMCall hooks replace a model call's reasoning:
// the first passing hook's stdout, if any, is the reasoning kept.
func (c *Core) pkgPostLLMCall(ctx context.Context, reasoning string) string {
	if !c.hasPkgHooks(hook.PostLLMCall) {
		return reasoning
	}
	rep := c.firePkg(ctx, hook.Payload{Event: hook.PostLLMCall, Reasoning: reasoning})
	for _, o := range rep.Outcomes {
		if s := strings.TrimSpace(o.Stdout); o.Decision == hook.Pass && s != "" {
			return s
		}
	}
	return reasoning
}

// pkgPreCompact adds what PreCompact hooks print to the summary guidance.
func (c *Core) pkgPreCompact(ctx context.Context, guidance string) string {
	if !c.hasPkgHooks(hook.PreCompact) {
		return guidance
	}
	if extra := c.firePkg(ctx, hook.Payload{Event: hook.PreCompact, Trigger: "auto"}).Stdouts(); extra != "" {
		return guidance + "\n\n" + extra
	}
	return guidance
}

// pkgPermission fires PermissionRequest before the user is asked about a
// call, and Notification in the background. decided says a Claude-format
// hook answered for the user: allow, or deny with reason.
func (c *Core) pkgPermission(ctx context.Context, tool string, args json.RawMessage) (decided, allow bool, reason string) {
	if c.hasPkgHooks(hook.Notification) {
		c.mu.Lock()
		p := hook.Payload{Event: hook.Notification, SessionID: c.session.ID, Cwd: c.session.WorkspaceRoot,
			Message: "approval needed: " + tool, NotificationType: "permission_prompt"}
		c.mu.Unlock()
		c.hookRunner().RunBackground(c.pkgHookList(p.Cwd), p)
	}
	if !c.hasPkgHooks(hook.PermissionRequest) {
		return false, false, ""
	}
	rep := c.firePkg(ctx, hook.Payload{Event: hook.PermissionRequest, ToolName: tool, ToolArgs: args})
	switch {
	case rep.Blocked:
		return true, false, hook.FormatOutcome(*rep.BlockedBy)
	case rep.Allowed:
		return true, true, ""
	}
	return false, false, ""
}

// pkgHooksClose ends the async hooks still running.
func (c *Core) pkgHooksClose() { c.hookRunner().Close() }

// withPackageGate puts the package hooks' tool gate after the settings
// hooks bus (the first gate, when there is one) and before xdev.
func (c *Core) withPackageGate(gates []ToolGate) []ToolGate {
	if !c.hasPkgHooks(hook.PreToolUse, hook.PostToolUse, hook.PostToolUseFailure) {
		return gates
	}
	at := 0
	if len(gates) > 0 && gates[0].Name() == "hooks" {
		at = 1
	}
	return append(gates[:at:at], append([]ToolGate{pkgGate{c}}, gates[at:]...)...)
}

// pkgGate runs PreToolUse before a call and PostToolUse or
// PostToolUseFailure after it.
type pkgGate struct{ c *Core }

func (pkgGate) Name() string { return "plugin hook" }

// BeforeTool implements ToolGate: a block denies the call, naming the hook
// and its reason; a hook that rewrote the arguments gives the call them.
func (g pkgGate) BeforeTool(ctx context.Context, call GateCall) (GateVerdict, error) {
	rep := g.c.firePkg(ctx, hook.Payload{Event: hook.PreToolUse, ToolName: call.Tool, ToolArgs: call.Arguments})
	if err := ctx.Err(); err != nil {
		return GateVerdict{}, err
	}
	if rep.Blocked {
		return GateVerdict{Deny: true, Reason: hook.FormatOutcome(*rep.BlockedBy)}, nil
	}
	// A Claude-format hook's updatedInput (in our argument names) is what
	// runs: the gates after this one, the plan and its diff see it.
	return GateVerdict{Arguments: rep.UpdatedArgs}, nil
}

// AfterTool implements ToolGate: the hooks observe the result (they cannot
// change it); what a Claude-format hook gives the model about it
// (additionalContext: security-guidance's warnings on an edit) follows the
// result, as Claude Code gives it to the model with the result.
func (g pkgGate) AfterTool(ctx context.Context, call GateCall, res GateResult) (GateResult, error) {
	p := hook.Payload{Event: hook.PostToolUse, ToolName: call.Tool, ToolArgs: call.Arguments, ToolResult: res.Result}
	var rep hook.Report
	if !res.IsError {
		rep = g.c.firePkg(ctx, p)
	} else {
		p.Event, p.Error = hook.PostToolUseFailure, res.Result
		rep = g.c.firePkg(ctx, p)
		p.Event = hook.PostToolUse // Reasonix-format PostToolUse hooks always saw failures too
		g.c.fireNative(ctx, p)
	}
	contexts, problems := rep.Contexts()
	for _, pr := range problems {
		g.c.notice(pr)
	}
	if block := hook.EventContextBlock(rep.Event, contexts); block != "" {
		res.Result = strings.TrimRight(res.Result, "\n") + "\n\n" + block
	}
	return res, nil
}
