package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/foundation/textdiff"
	"github.com/reasonix/reasonix-desktop/internal/plugins/host"
	"github.com/reasonix/reasonix-desktop/internal/plugins/intercept"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// BaseSystemPrompt starts every system prompt; plugins may rewrite it at
// system_prompt.build.
const BaseSystemPrompt = "You are a coding assistant working in the user's workspace. " +
	"Use the tools to read and change files and to run commands."

// BlockedError is a turn stopped by a plugin's block.
type BlockedError struct {
	Point  protocol.HookPoint
	Plugin string
	Reason string
}

func (e *BlockedError) Error() string {
	return fmt.Sprintf("%s blocked by %s: %s", e.Point, e.Plugin, e.Reason)
}

// NotSavedError is a turn whose session could not be written: a
// session_policy owner blocked or failed session.save, or the disk did. The
// last good save, if any, is untouched.
type NotSavedError struct{ Err error }

func (e *NotSavedError) Error() string {
	return "the session was not saved: " + redact.String(e.Err.Error())
}

func (e *NotSavedError) Unwrap() error { return e.Err }

// turnState is what one turn works with.
type turnState struct {
	gen   *host.Generation
	chain *intercept.Chain
	model providers.ModelID
	info  providers.Model
	cl    *sidecar.Client
	// usage is the last model call's usage note, priced when the usage
	// arrived (cost.go); the turn saves it after the reply.
	usage *Note
	// cp checkpoints the reply as it streams (nil while a compaction's
	// summary streams: that is not the reply).
	cp *checkpointer
}

// run runs a point inside a turn: a block or a failure stops the turn.
func (c *Core) run(ctx context.Context, ts *turnState, point protocol.HookPoint, payload any, out any) (*intercept.Result, error) {
	res, err := ts.chain.Run(ctx, intercept.Call{Point: point, Payload: payload, ProviderRef: ts.model.Ref()})
	if err != nil {
		return nil, err
	}
	c.reportDegraded(res)
	if res.Verdict == intercept.Blocked {
		return res, &BlockedError{Point: point, Plugin: res.Plugin, Reason: res.Reason}
	}
	if out != nil {
		if err := res.Decode(out); err != nil {
			return nil, fmt.Errorf("%s: %w", point, err)
		}
	}
	ts.chain.Observe(intercept.Call{Point: point, Payload: res.Payload, ProviderRef: ts.model.Ref()})
	return res, nil
}

func (c *Core) prepare(ctx context.Context) (*turnState, error) {
	s := c.Session()
	if s.Model == "" {
		return nil, errors.New("no model selected: pick a plugin/... model first")
	}
	id, err := providers.ParseModelID(s.Model)
	if err != nil {
		return nil, err
	}
	gen := c.runtime.Current()
	ts := &turnState{gen: gen, chain: gen.Chain(), model: id}
	cl, ok := gen.Client(id.Plugin)
	if !ok {
		return nil, fmt.Errorf("model %s: plugin %s is not installed or not running", s.Model, id.Plugin)
	}
	if cl.State() != sidecar.StateActive {
		return nil, protocol.NewError(protocol.ReasonProviderInterrupted,
			fmt.Sprintf("model %s: plugin %s has stopped; no fallback to another model", s.Model, id.Plugin))
	}
	ts.cl = cl
	models, errs := c.catalog.Models(ctx, []providers.Client{cl})
	for _, m := range models {
		if m.ID == s.Model {
			ts.info = m
		}
	}
	if ts.info.ID == "" {
		if len(errs) > 0 { // the catalog failed (a timeout, say): that is the reason
			return nil, fmt.Errorf("model %s: %w", s.Model, errors.Join(errs...))
		}
		return nil, fmt.Errorf("model %s is not in %s's catalog", s.Model, id.Plugin)
	}
	return ts, nil
}

// turn runs one turn for run: its message through input.receive into the
// messages (unless run resumes one already there), then model steps and
// tool calls until a reply without calls.
func (c *Core) turn(ctx context.Context, run *turnRun) error {
	c.syncMCP(ctx) // a server added or removed since the last turn (mcplive.go)
	ts, err := c.prepare(ctx)
	if err != nil {
		return err
	}
	ts.cp = run.cp
	s := c.Session()
	if err := c.pkgTurnStart(ctx, run); err != nil {
		return err
	}
	if !run.resume {
		var in protocol.InputReceivePayload
		if _, err := c.run(ctx, ts, protocol.HookInputReceive, &protocol.InputReceivePayload{Text: run.text}, &in); err != nil {
			return err
		}
		c.recordInput(run, c.pkgWithContext(in.Text))
		run.cp.step(run)
		if !run.shown {
			c.fe.Emit(Event{Kind: EventUserMessage, SessionID: s.ID, Text: in.Text})
		}
	}

	ctx = withTurn(ctx, ts) // run_skill's subagent sub-turn runs on this turn's model and chain
	tools := c.toolset()
	if _, err := c.run(ctx, ts, protocol.HookAgentBeforeStart,
		&protocol.AgentBeforeStartPayload{Model: s.Model, ToolCount: len(tools), SessionID: s.ID}, nil); err != nil {
		return err
	}
	var sp protocol.SystemPromptPayload
	if _, err := c.run(ctx, ts, protocol.HookSystemPromptBuild,
		&protocol.SystemPromptPayload{Prompt: c.systemPrompt(), WorkspaceRoot: s.WorkspaceRoot}, &sp); err != nil {
		return err
	}

	for step := 0; step < c.cfg.MaxSteps; step++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		for _, steer := range c.takeSteered() {
			c.appendMessages(protocol.ProviderMessage{Role: protocol.RoleUser, Content: steer})
			c.fe.Emit(Event{Kind: EventUserMessage, SessionID: s.ID, Text: redact.String(steer)})
			run.cp.step(run)
		}
		if err := c.maybeCompact(ctx, ts, sp.Prompt); err != nil {
			return err
		}
		now := c.Session()
		history := requestImages(now.ForModel(), ts.info.Vision) // attachments.go: what fits the frame and the model
		messages := append([]protocol.ProviderMessage{{Role: protocol.RoleSystem, Content: sp.Prompt}}, history...)
		var cp protocol.ContextPreparePayload
		if _, err := c.run(ctx, ts, protocol.HookContextPrepare, &protocol.ContextPreparePayload{Messages: messages}, &cp); err != nil {
			return err
		}
		schemas := make([]protocol.ProviderToolSchema, 0, len(tools))
		if ts.info.Tools {
			for _, t := range tools {
				schemas = append(schemas, t.Schema())
			}
		}
		var pr protocol.ProviderRequestPayload
		if _, err := c.run(ctx, ts, protocol.HookProviderRequest, &protocol.ProviderRequestPayload{Request: protocol.ProviderRequest{
			Messages: cp.Messages, Tools: schemas, MaxTokens: 0}}, &pr); err != nil {
			return err
		}
		ts.usage = nil // a compaction's call above is not this reply's
		resp, err := c.stream(ctx, ts, pr.Request, c.fe.Emit)
		if err != nil {
			run.partial = resp
			return err
		}
		resp.Reasoning = c.pkgPostLLMCall(ctx, resp.Reasoning)
		var final protocol.ProviderResponsePayload
		if _, err := c.run(ctx, ts, protocol.HookProviderResponse, resp, &final); err != nil {
			return err
		}
		c.appendMessages(protocol.ProviderMessage{Role: protocol.RoleAssistant, Content: final.Text,
			ReasoningContent: final.Reasoning, ReasoningSignature: final.Signature, ToolCalls: final.Calls})
		if resp.Usage != nil && ts.usage != nil {
			c.addNote(*ts.usage)
		}
		run.cp.step(run)
		if len(final.Calls) == 0 {
			return nil
		}
		for _, call := range final.Calls {
			result, ran, err := c.toolCall(ctx, ts, call)
			if err != nil {
				return err
			}
			c.appendMessages(protocol.ProviderMessage{Role: protocol.RoleTool, ToolCallID: call.ID, Name: ran, Content: result})
			run.cp.step(run)
		}
	}
	return fmt.Errorf("the turn stopped after %d model steps without a final answer", c.cfg.MaxSteps)
}

func (c *Core) appendMessages(ms ...protocol.ProviderMessage) {
	c.mu.Lock()
	c.session.Messages = append(c.session.Messages, ms...)
	c.mu.Unlock()
}

// partialOf is what a stream that failed had delivered.
func partialOf(text, reasoning *strings.Builder) *protocol.ProviderResponsePayload {
	return &protocol.ProviderResponsePayload{Text: text.String(), Reasoning: reasoning.String()}
}

// stream runs one model call and assembles the response, forwarding deltas
// to emit. On failure it returns what had arrived (text and reasoning) with
// the error.
func (c *Core) stream(ctx context.Context, ts *turnState, req protocol.ProviderRequest, emit func(Event)) (*protocol.ProviderResponsePayload, error) {
	s := c.Session()
	st, err := c.hub.Open(ctx, ts.cl, ts.model, s.Effort, req)
	if err != nil {
		return nil, err
	}
	var text, reasoning strings.Builder
	resp := &protocol.ProviderResponsePayload{}
	calls := map[string]*protocol.ProviderToolCall{}
	var order []string
	for ev := range st.Events() {
		switch ev.Type {
		case protocol.ChunkText:
			text.WriteString(ev.Text)
			emit(Event{Kind: EventText, SessionID: s.ID, Text: ev.Text})
			ts.cp.streaming(&text, &reasoning)
		case protocol.ChunkReasoning:
			reasoning.WriteString(ev.Text)
			if ev.Signature != "" {
				resp.Signature = ev.Signature
			}
			emit(Event{Kind: EventReasoning, SessionID: s.ID, Text: ev.Text, Signature: ev.Signature})
			ts.cp.streaming(&text, &reasoning)
		case protocol.ChunkToolCallStart, protocol.ChunkToolCallArgsDelta, protocol.ChunkToolCall:
			tc := ev.ToolCall
			if tc == nil || tc.ID == "" {
				continue
			}
			cur, ok := calls[tc.ID]
			if !ok {
				cur = &protocol.ProviderToolCall{ID: tc.ID, Name: tc.Name}
				calls[tc.ID] = cur
				order = append(order, tc.ID)
			}
			switch ev.Type {
			case protocol.ChunkToolCallArgsDelta:
				cur.Arguments += tc.Arguments
			case protocol.ChunkToolCall:
				*cur = *tc
			}
			state := ToolStreaming
			if ev.Type == protocol.ChunkToolCall {
				state = ToolPending
			}
			emit(callEvent(s.ID, ToolCall{ID: cur.ID, Name: cur.Name, Arguments: cur.Arguments, State: state}))
		case protocol.ChunkUsage:
			resp.Usage = ev.Usage
			var cost *Cost
			if ev.Usage != nil {
				n := c.usageNote(*ev.Usage, ts, Now()) // the price of this moment
				ts.usage, cost = &n, n.Cost
			}
			emit(Event{Kind: EventUsage, SessionID: s.ID, Usage: ev.Usage, Cost: cost})
		case protocol.ChunkError:
			return partialOf(&text, &reasoning), ev.Err
		}
	}
	if err := st.Err(); err != nil {
		return partialOf(&text, &reasoning), err
	}
	resp.Text, resp.Reasoning = text.String(), reasoning.String()
	for _, id := range order {
		resp.Calls = append(resp.Calls, *calls[id])
	}
	return resp, nil
}

// emitCall shows a card's change; a card that ends other than done is
// also noted in the session, so a reopened chat shows it the same.
func (c *Core) emitCall(sessionID string, tc ToolCall) {
	c.noteCall(tc)
	c.fe.Emit(callEvent(sessionID, tc))
}

func callEvent(sessionID string, tc ToolCall) Event {
	tc.Arguments = redact.String(tc.Arguments)
	tc.Result = redact.String(tc.Result)
	return Event{Kind: EventToolCall, SessionID: sessionID, Call: &tc}
}

func (c *Core) tool(name string) (Tool, bool) {
	for _, t := range c.toolset() {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// toolset is the tools a turn offers: the built-ins (the chat's todo and
// job tools among them) and the skill tools,
// then the extension tools as they are now (an MCP server that finished
// starting after open joins here), less those the chat's agent profile
// leaves out. An extension tool never shadows another; each shadowing
// name is reported once.
func (c *Core) toolset() []Tool {
	out := append(append(append([]Tool(nil), c.tools...), c.kit().tools...), c.skillTools()...)
	if c.ext == nil {
		return c.forAgent(out)
	}
	seen := make(map[string]bool, len(out))
	for _, t := range out {
		seen[t.Name] = true
	}
	for _, t := range c.ext.Tools() {
		if seen[t.Name] {
			c.mu.Lock()
			warned := c.shadowWarned[t.Name]
			if c.shadowWarned == nil {
				c.shadowWarned = map[string]bool{}
			}
			c.shadowWarned[t.Name] = true
			c.mu.Unlock()
			if !warned {
				c.notice("extension tool " + t.Name + " would shadow another tool; ignored")
			}
			continue
		}
		seen[t.Name] = true
		out = append(out, t)
	}
	return c.forAgent(out)
}

// toolCall runs one call through tool.before → permission.decision → the
// tool → tool.after and returns what the model sees and the name of the
// tool that ran (a tool.before replacement may have renamed it). Blocks and
// denials are results, not turn failures; a failing required plugin fails
// the turn.
func (c *Core) toolCall(ctx context.Context, ts *turnState, call protocol.ProviderToolCall) (result, ran string, err error) {
	s := c.Session()
	card := ToolCall{ID: call.ID, Name: call.Name, Arguments: call.Arguments, State: ToolPending}
	c.emitCall(s.ID, card)
	args := json.RawMessage(call.Arguments)
	if len(strings.TrimSpace(call.Arguments)) == 0 {
		args = nil
	} else if !json.Valid(args) || strings.TrimSpace(call.Arguments)[0] != '{' {
		card.State, card.Result = ToolFailed, "the arguments are not a JSON object"
		c.emitCall(s.ID, card)
		return "error: the tool arguments are not a JSON object", card.Name, nil
	}
	p := &pipeCall{sessionID: s.ID, id: call.ID, name: call.Name, args: args}
	rewritten := false
	ref, err := runBefore(ctx, c.beforeStages(ts), p, func(from string) {
		// A plugin rewrote the call: every record must show what runs.
		c.log.Info("tool.before rewrote a tool call", "from", from, "to", p.name)
		rewritten = true
		card.Name, card.Arguments = p.name, string(p.args)
		c.emitCall(s.ID, card)
	})
	if rewritten {
		c.recordCall(call.ID, p.name, string(p.args))
	}
	if err != nil {
		return "", card.Name, err
	}
	if ref != nil {
		card.State, card.Reason = ToolBlocked, ref.reason
		c.emitCall(s.ID, card)
		return ref.result, card.Name, nil
	}
	args = p.args
	card.Arguments = string(p.args)

	tool, known := c.tool(p.name)
	if !known {
		card.State, card.Result = ToolFailed, "unknown tool"
		c.emitCall(s.ID, card)
		return fmt.Sprintf("error: there is no tool named %q", p.name), card.Name, nil
	}
	// A file-changing call is planned on its final arguments: a plan that
	// fails (not found, not unique, outside the workspace) asks nothing.
	edit, err := planCall(ctx, s.WorkspaceRoot, tool.Name, args)
	if err != nil {
		card.State, card.Result = ToolFailed, err.Error()
		c.emitCall(s.ID, card)
		return "error: " + err.Error(), card.Name, nil
	}
	if edit != nil {
		card.Diff = diffsOf(edit)
		c.emitCall(s.ID, card)
	}
	allowed, reason, err := c.permit(ctx, ts, tool, args, call.ID, card.Diff)
	if err != nil {
		return "", card.Name, err
	}
	if !allowed {
		card.State, card.Reason = ToolDenied, reason
		c.emitCall(s.ID, card)
		return "Denied: " + reason, card.Name, nil
	}

	card.State = ToolRunning
	c.emitCall(s.ID, card)
	out, runErr := c.runTool(ctx, s, card, tool, args, edit)
	isError := runErr != nil
	if isError {
		if out != "" {
			out += "\n"
		}
		out += "error: " + runErr.Error()
	}
	if ctx.Err() != nil {
		card.State, card.Result = ToolFailed, out
		c.emitCall(s.ID, card)
		return "", card.Name, ctx.Err()
	}
	p.name, p.args = tool.Name, args
	res := GateResult{Result: out, IsError: isError}
	if err := runAfter(ctx, c.afterStages(ts), p, &res); err != nil {
		return "", card.Name, err
	}
	card.State, card.Result = ToolDone, res.Result
	if res.IsError {
		card.State = ToolFailed
	}
	c.emitCall(s.ID, card)
	return res.Result, card.Name, nil
}

// permit decides whether a call may run: reads are allowed; writes and
// commands need a standing approval, a plugin's allow (audited when it
// overrides the host's deny), or the user's approval. A plugin's deny or
// block (a slot owner's included) refuses it.
func (c *Core) permit(ctx context.Context, ts *turnState, tool Tool, args json.RawMessage, callID string, diff []textdiff.File) (bool, string, error) {
	s := c.Session()
	// An AlwaysAsk tool (an MCP tool declaring destructiveHint) is asked
	// about every time: no standing approval covers it.
	hostAllows := tool.ReadOnly || !tool.AlwaysAsk && c.approved(tool.Name, s.WorkspaceRoot, args)
	decision := protocol.HostDeny
	if hostAllows {
		decision = protocol.HostAllow
	}
	res, err := ts.chain.Run(ctx, intercept.Call{Point: protocol.HookPermissionDecision, ProviderRef: ts.model.Ref(),
		Payload: &protocol.PermissionPayload{Name: tool.Name, Arguments: string(args), ReadOnly: tool.ReadOnly, HostDecision: decision}})
	if err != nil {
		return false, "", err
	}
	c.reportDegraded(res)
	ts.chain.Observe(intercept.Call{Point: protocol.HookPermissionDecision, Payload: res.Payload, ProviderRef: ts.model.Ref()})
	switch res.Verdict {
	case intercept.Allowed:
		if res.Audit != nil {
			c.mu.Lock()
			c.session.Audit = append(c.session.Audit, *res.Audit)
			c.mu.Unlock()
			c.notice(fmt.Sprintf("audit: %s allowed %s, which the host would have asked about", res.Plugin, tool.Name))
		}
		return true, "", nil
	case intercept.Denied:
		return false, fmt.Sprintf("%s: %s", res.Plugin, res.Reason), nil
	case intercept.Blocked:
		return false, fmt.Sprintf("%s: %s", res.Plugin, res.Reason), nil
	}
	// A replacement (hostDecision "allow" included) changed only what the
	// observers saw: as in the Reasonix host, only allow, deny and block
	// rule, and the host's own decision was taken before the chain ran.
	if hostAllows {
		return true, "", nil
	}
	if decided, allow, why := c.pkgPermission(ctx, tool.Name, args); decided {
		return allow, why, nil
	}
	covers, once := approvalCovers(tool, s.WorkspaceRoot, args)
	answer := c.fe.Approve(ctx, ApprovalRequest{SessionID: s.ID, CallID: callID, Tool: tool.Name, Arguments: redact.String(string(args)),
		Covers: redact.String(covers), OnceOnly: once, Diff: diff})
	if tool.AlwaysAsk && (answer == ApproveSession || answer == ApproveAlways) {
		c.notice(fmt.Sprintf("approved once: %s says it may destroy data, so it is asked about every time", tool.Name))
		answer = ApproveOnce
	}
	switch answer {
	case ApproveOnce:
		return true, "", nil
	case ApproveSession:
		c.approveForSession(tool.Name, s.WorkspaceRoot, args)
		return true, "", nil
	case ApproveAlways:
		r, ok := approvalRule(tool.Name, s.WorkspaceRoot, args)
		if !ok {
			c.notice("approved once: " + onceOnly(tool.Name, args))
		} else if err := c.settings.AddRule(r); err != nil {
			c.notice("could not save the approval: " + err.Error())
		}
		return true, "", nil
	}
	if ctx.Err() != nil {
		return false, "", ctx.Err()
	}
	return false, "the user declined", nil
}

// gateBefore asks every tool gate (hooks bus, then xdev extensions) about a
// call, letting each revise the arguments. It returns "<gate>: <reason>"
// when one denies; a gate that cannot answer denies (fail closed).
func (c *Core) gateBefore(ctx context.Context, call *GateCall) string {
	for _, g := range c.gates() {
		v, err := g.BeforeTool(ctx, *call)
		if err != nil {
			v = GateVerdict{Deny: true, Reason: fmt.Sprintf("could not decide: %v", err)}
		}
		if v.Deny {
			return g.Name() + ": " + redact.String(v.Reason)
		}
		if len(v.Arguments) > 0 {
			call.Arguments = v.Arguments
		}
	}
	return ""
}

// recordCall makes the session's record of a call (the assistant message
// that asked for it) say what actually ran.
func (c *Core) recordCall(id, name, arguments string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ms := c.session.Messages
	for i := len(ms) - 1; i >= 0; i-- {
		for j := range ms[i].ToolCalls {
			if ms[i].ToolCalls[j].ID == id {
				ms[i].ToolCalls[j].Name, ms[i].ToolCalls[j].Arguments = name, arguments
				return
			}
		}
	}
}

// argumentsOf turns a payload's argument text back into the raw object the
// tools and gates take (nil for none).
func argumentsOf(text string) json.RawMessage {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	return json.RawMessage(text)
}

func (c *Core) gates() []ToolGate {
	if c.ext == nil {
		return c.withPackageGate(nil)
	}
	return c.withPackageGate(c.ext.Gates())
}

// approved: a standing rule (scoped to a workspace and, for run_command,
// a command prefix; see Rule) or a "for this session" approval, scoped
// the same way.
func (c *Core) approved(tool, workspace string, args json.RawMessage) bool {
	if c.settings.Get().Allows(tool, workspace, args) {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.session.sessionAllows(tool, workspace, args)
}
