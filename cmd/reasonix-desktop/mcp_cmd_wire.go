package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/extensions/mcp"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// How a chat's MCP manager is wired: its servers (agent.MCPServers: the
// user's and the enabled packages', merged by mcp.Merge), prompts offered
// as slash commands, elicitations asked through the front end's prompt
// dialogs.

// packageLoader reads the enabled packages' contributions (a test gives
// its own packages).
type packageLoader func() ([]agent.Package, []error)

// startChatMCP makes the chat's MCP manager and starts its servers in the
// background; elicitations go to ask (nil: declined).
func startChatMCP(layout agent.Layout, workspace string, load packageLoader, ask promptAsker, log *slog.Logger, stderr io.Writer) *mcp.Manager {
	warn := func(s string) { fmt.Fprintln(stderr, "warning:", safe(s)) }
	opts, err := mcpOptions()
	if err != nil {
		warn(err.Error())
	}
	opts.Roots, opts.Log, opts.Notice = []string{workspace}, log, warn
	if ask != nil {
		opts.Elicit = elicitor{ask: ask}
	}
	m := mcp.NewManager(opts)
	off, err := mcp.DisabledStore{Path: filepath.Join(layout.Root, mcp.DisabledFileName)}.Load()
	if err != nil {
		warn(err.Error())
	}
	m.SetDisabled(off)
	m.Start(agent.MCPServers(layout, load, warn))
	return m
}

// mcpPrompts offers the ready servers' prompts as slash commands
// (agent.CommandSource): /mcp__<server>__<prompt> args, the expansion
// sent to the model as the user's message.
type mcpPrompts struct{ m *mcp.Manager }

var _ agent.CommandSource = mcpPrompts{}

func (p mcpPrompts) Commands() []agent.CommandInfo {
	prompts := p.m.Prompts()
	out := make([]agent.CommandInfo, 0, len(prompts))
	for _, pr := range prompts {
		desc := pr.Usage()
		if pr.Description != "" {
			desc += " — " + pr.Description
		}
		out = append(out, agent.CommandInfo{Name: pr.Command, Description: desc, Send: true})
	}
	return out
}

func (p mcpPrompts) Run(ctx context.Context, name, args string) (string, error) {
	pr, ok := p.m.Prompt(name)
	if !ok {
		return "", fmt.Errorf("no MCP prompt %s (its server may have stopped)", name)
	}
	values, err := pr.ParseArgs(args)
	if err != nil {
		return "", err
	}
	return p.m.GetPrompt(ctx, pr, values)
}

// promptAsker is the front end's prompt dialog (agent.Frontend.Prompt).
type promptAsker func(ctx context.Context, p *surfaces.Prompt) (map[string]any, bool)

// elicitor answers a server's elicitation/create through the same prompt
// dialogs as a plugin's host/ui/request, naming the server. A URL
// elicitation (open a page) is declined: the host opens no pages for a
// server.
type elicitor struct{ ask promptAsker }

func (e elicitor) Elicit(ctx context.Context, server string, req *sdk.ElicitParams) (*sdk.ElicitResult, error) {
	if req == nil || (req.Mode != "" && req.Mode != "form") || req.URL != "" {
		return &sdk.ElicitResult{Action: "decline"}, nil
	}
	form, kinds, err := surfaces.ElicitationForm(req.Message, req.RequestedSchema)
	if err != nil {
		return nil, fmt.Errorf("mcp server %s: elicitation: %w", server, err)
	}
	kind := protocol.RequestInput
	p := surfaces.NewHostPrompt("MCP server "+server, kind, form)
	values, cancelled := e.ask(ctx, p)
	if cancelled {
		return &sdk.ElicitResult{Action: "cancel"}, nil
	}
	content, err := surfaces.ElicitationContent(values, kinds)
	if err != nil { // the form takes any text: what cannot be sent is not
		return &sdk.ElicitResult{Action: "cancel"}, nil
	}
	return &sdk.ElicitResult{Action: "accept", Content: content}, nil
}
