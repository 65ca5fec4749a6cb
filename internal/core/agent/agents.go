package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/packages/skill"
)

// Agent profiles: a package's agents/<name>.md is a system prompt and a
// tool allow-list. The user picks one per chat with /agent <name>; the
// session keeps the choice (Session.Agent) and every turn of that chat
// starts from the profile's prompt and offers only its tools.

// AgentInfo is an agent profile as listed.
type AgentInfo struct {
	Name        string
	Description string // redacted
	Plugin      string
	Tools       []string // empty: every tool
}

// Agents lists the packages' agent profiles, by name.
func (c *Core) Agents() []AgentInfo {
	_, _, ags := c.contributions()
	out := make([]AgentInfo, 0, len(ags))
	for _, a := range ags {
		out = append(out, AgentInfo{Name: a.Name, Description: redact.String(a.Description), Plugin: a.Plugin, Tools: a.Tools})
	}
	return out
}

// currentAgent is the chat's agent profile, when it names one a package
// still has (a removed package's profile is simply no longer applied).
func (c *Core) currentAgent() (skill.Agent, bool) {
	name := c.Session().Agent
	if name == "" {
		return skill.Agent{}, false
	}
	_, _, ags := c.contributions()
	for _, a := range ags {
		if a.Name == name {
			return a, true
		}
	}
	return skill.Agent{}, false
}

// forAgent keeps the tools the chat's agent profile allows.
func (c *Core) forAgent(tools []Tool) []Tool {
	a, ok := c.currentAgent()
	if !ok || len(a.Tools) == 0 {
		return tools
	}
	out := tools[:0:0]
	for _, t := range tools {
		if a.Allows(t.Name) {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		c.warnToolless(a)
	}
	return out
}

// warnToolless tells the user, once per profile, that an agent profile
// whose list names no tool this chat has runs with none: a list in
// another host's names this host does not know would otherwise leave the
// model silently unable to do anything.
func (c *Core) warnToolless(a skill.Agent) {
	key := "agent:" + a.Plugin + "/" + a.Name
	c.mu.Lock()
	if c.shadowWarned == nil {
		c.shadowWarned = map[string]bool{}
	}
	warned := c.shadowWarned[key]
	c.shadowWarned[key] = true
	c.mu.Unlock()
	if !warned {
		c.notice(fmt.Sprintf("agent %s (%s) lists no tool this chat has (%s): it runs without tools",
			a.Name, a.Plugin, strings.Join(a.Tools, ", ")))
	}
}

// cmdAgent answers /agent (list), /agent off and /agent <name>.
func (c *Core) cmdAgent(ctx context.Context, cl CommandLine) (CommandResult, error) {
	arg := strings.TrimSpace(cl.Args)
	result := func(text string) CommandResult {
		text = redact.String(text)
		return CommandResult{Kind: CommandRan, Text: text, Output: &CommandOutput{Text: text}}
	}
	switch arg {
	case "":
		ags := c.Agents()
		if len(ags) == 0 {
			return result("no agent profiles (plugin packages contribute them under agents/)"), nil
		}
		var b strings.Builder
		cur := c.Session().Agent
		for _, a := range ags {
			mark := " "
			if a.Name == cur {
				mark = "*"
			}
			tools := "all tools"
			if len(a.Tools) > 0 {
				tools = strings.Join(a.Tools, ", ")
			}
			fmt.Fprintf(&b, "%s %s  %s (%s; %s)\n", mark, a.Name, a.Description, a.Plugin, tools)
		}
		b.WriteString("/agent <name> picks one for this chat, /agent off goes back to none")
		return result(b.String()), nil
	case "off":
		if err := c.setAgent(ctx, ""); err != nil {
			return CommandResult{}, err
		}
		return result("agent profile off: this chat uses the default prompt and every tool"), nil
	}
	for _, a := range c.Agents() {
		if a.Name == arg {
			if err := c.setAgent(ctx, a.Name); err != nil {
				return CommandResult{}, err
			}
			return result(fmt.Sprintf("agent %s for this chat (%s)", a.Name, a.Plugin)), nil
		}
	}
	return CommandResult{}, fmt.Errorf("no agent profile %q (/agent lists them)", arg)
}

// setAgent records the chat's profile and saves the session (as a rename
// does), so a chat reopened later keeps it.
func (c *Core) setAgent(ctx context.Context, name string) error {
	c.mu.Lock()
	c.session.Agent = name
	c.mu.Unlock()
	if err := c.save(ctx); err != nil {
		return fmt.Errorf("agent profile: the session was not saved: %w", err)
	}
	return nil
}
