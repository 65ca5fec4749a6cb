package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/packages/skill"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Skills: the packages' skills are indexed in the system prompt and run
// through run_skill / read_skill. A subagent skill (runas: subagent,
// context: fork, agent:) runs in a sub-turn: its own message list (the
// skill's body as system prompt, the task as the user's message), the
// turn's model, chain and tools, and only its final answer comes back as
// the tool's result. Skill text is plugin text: it goes to the model as a
// tool result or a system prompt, never runs, and is redacted wherever it
// is shown or logged.

// contribCache holds what the packages contribute as Markdown, read from
// the packages() slice it was built for: a reload replaces that slice,
// and the next reader reads the files again.
type contribCache struct {
	mu     sync.Mutex
	from   []plugin.Package
	loaded bool
	skills []skill.Skill
	cmds   []skill.Command
	agents []skill.Agent
}

// contributions are the packages' skills, commands (prompts included) and
// agents. Safe from any goroutine; the slices are shared, never modified.
func (c *Core) contributions() ([]skill.Skill, []skill.Command, []skill.Agent) {
	pkgs := c.packages()
	cc := &c.pkg.contrib
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.loaded && samePackages(cc.from, pkgs) {
		return cc.skills, cc.cmds, cc.agents
	}
	var errs, e []error
	cc.skills, e = skill.LoadSkills(roots(pkgs, func(p plugin.Package) []string { return p.Skills }))
	errs = append(errs, e...)
	// Prompts first, commands after: a command wins a name a prompt of
	// the same package also has.
	cmdRoots := append(roots(pkgs, func(p plugin.Package) []string { return p.Prompts }),
		roots(pkgs, func(p plugin.Package) []string { return p.Commands })...)
	cc.cmds, e = skill.LoadCommands(cmdRoots, reservedCommand)
	errs = append(errs, e...)
	cc.agents, e = skill.LoadAgents(roots(pkgs, func(p plugin.Package) []string { return p.Agents }))
	errs = append(errs, e...)
	for _, err := range errs {
		c.log.Warn("plugin package contribution not loaded", "err", redact.String(err.Error()))
		// A file refused for leaving its package is the user's business
		// (the package tried to reach something of theirs), and so is a
		// skill that must now be called <plugin>:<skill>.
		if errors.Is(err, plugin.ErrLeavesPackage) || errors.Is(err, skill.ErrNameClash) {
			c.notice(err.Error())
		}
	}
	cc.from, cc.loaded = pkgs, true
	return cc.skills, cc.cmds, cc.agents
}

// samePackages: the cache was built from this very slice (reloadPackages
// always makes a new one).
func samePackages(a, b []plugin.Package) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || &a[0] == &b[0]
}

func roots(pkgs []plugin.Package, pick func(plugin.Package) []string) []skill.Root {
	var out []skill.Root
	for _, p := range pkgs {
		for _, path := range pick(p) {
			out = append(out, skill.Root{Path: path, Plugin: p.Name, Package: p.Root})
		}
	}
	return out
}

func (c *Core) skills() []skill.Skill {
	s, _, _ := c.contributions()
	return s
}

// skillTools are run_skill and read_skill, offered when a package has a
// skill. They only return text (a subagent skill's own tool calls pass
// every gate one by one), so they run without asking.
func (c *Core) skillTools() []Tool {
	if len(c.skills()) == 0 {
		return nil
	}
	return []Tool{
		{Name: skill.RunSkillName, Description: skill.RunSkillDescription, Parameters: skill.RunSkillSchema, ReadOnly: true,
			Run: func(ctx context.Context, _ string, args json.RawMessage) (string, error) {
				return skill.RunSkill(ctx, c.skills(), args, c.runSubagent)
			}},
		{Name: skill.ReadSkillName, Description: skill.ReadSkillDescription, Parameters: skill.ReadSkillSchema, ReadOnly: true,
			Run: func(_ context.Context, _ string, args json.RawMessage) (string, error) {
				return skill.ReadSkill(c.skills(), args)
			}},
	}
}

// systemPrompt is what a turn starts system_prompt.build with: the chat's
// agent profile's prompt (else BaseSystemPrompt), then the skills index
// when the turn may call run_skill.
func (c *Core) systemPrompt() string {
	prompt := BaseSystemPrompt
	a, ok := c.currentAgent()
	if ok && a.Prompt != "" {
		prompt = a.Prompt
	}
	if idx := skill.IndexBlock(c.skills()); idx != "" && (!ok || a.Allows(skill.RunSkillName)) {
		prompt += "\n\n" + idx
	}
	return prompt
}

type turnKey struct{}
type subagentKey struct{}

// withTurn lets a tool running inside a turn (run_skill) reach it.
func withTurn(ctx context.Context, ts *turnState) context.Context {
	return context.WithValue(ctx, turnKey{}, ts)
}

// runSubagent runs a subagent skill's sub-turn and returns its final text.
// Its model steps go through provider.request / provider.response and its
// tool calls through the whole tool chain, like the turn's own; its text
// is not streamed to the chat (only the answer returns, as a tool result).
// A subagent cannot start another.
func (c *Core) runSubagent(ctx context.Context, sk skill.Skill, task string) (string, error) {
	ts, _ := ctx.Value(turnKey{}).(*turnState)
	if ts == nil {
		return "", errors.New("run_skill: a subagent skill runs only inside a turn")
	}
	if ctx.Value(subagentKey{}) != nil {
		return "", fmt.Errorf("run_skill: skill %q is a subagent, and a subagent cannot start another", sk.Name)
	}
	ctx = context.WithValue(ctx, subagentKey{}, true)
	allowed := map[string]bool{}
	var schemas []protocol.ProviderToolSchema
	for _, t := range c.toolset() {
		if t.Name == skill.RunSkillName || t.Name == skill.ReadSkillName || !sk.Allows(t.Name) {
			continue
		}
		allowed[t.Name] = true
		if ts.info.Tools {
			schemas = append(schemas, t.Schema())
		}
	}
	messages := []protocol.ProviderMessage{{Role: protocol.RoleSystem, Content: sk.Body}, {Role: protocol.RoleUser, Content: task}}
	for step := 0; step < c.cfg.MaxSteps; step++ {
		var pr protocol.ProviderRequestPayload
		if _, err := c.run(ctx, ts, protocol.HookProviderRequest, &protocol.ProviderRequestPayload{Request: protocol.ProviderRequest{
			Messages: messages, Tools: schemas}}, &pr); err != nil {
			return "", err
		}
		resp, err := c.stream(ctx, ts, pr.Request, func(Event) {})
		if err != nil {
			return "", err
		}
		var final protocol.ProviderResponsePayload
		if _, err := c.run(ctx, ts, protocol.HookProviderResponse, resp, &final); err != nil {
			return "", err
		}
		messages = append(messages, protocol.ProviderMessage{Role: protocol.RoleAssistant, Content: final.Text,
			ReasoningContent: final.Reasoning, ReasoningSignature: final.Signature, ToolCalls: final.Calls})
		if len(final.Calls) == 0 {
			return final.Text, nil
		}
		for _, call := range final.Calls {
			result, ran := fmt.Sprintf("error: tool %q is not available to skill %q", call.Name, sk.Name), call.Name
			if allowed[call.Name] {
				if result, ran, err = c.toolCall(ctx, ts, call); err != nil {
					return "", err
				}
			}
			messages = append(messages, protocol.ProviderMessage{Role: protocol.RoleTool, ToolCallID: call.ID, Name: ran, Content: result})
		}
	}
	return "", fmt.Errorf("run_skill: skill %q stopped after %d model steps without a final answer", sk.Name, c.cfg.MaxSteps)
}
