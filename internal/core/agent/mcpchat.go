package agent

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reasonix/reasonix-desktop/internal/extensions/gate"
	"github.com/reasonix/reasonix-desktop/internal/extensions/mcp"
	"github.com/reasonix/reasonix-desktop/internal/extensions/mcpauth"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// A chat's MCP servers belong to the core: it starts them with the chat,
// offers their tools through the one tool-call chain, their prompts as
// slash commands, asks their elicitations through the front end's prompt
// dialog and stops them with the chat. The front ends see them only
// through the methods below, as plain data.

// MCPConfig asks Open to run the chat's MCP servers: the user's (the data
// directory's mcp.json) and the enabled plugin packages' (Config.Packages
// when set).
type MCPConfig struct {
	// Handshake bounds each server's start (0: the mcp package's default).
	Handshake time.Duration
	// WaitStarted makes Open wait for the servers' starts, one Handshake
	// bound and never a server's retries, so the first turn has their
	// tools (the terminal); one not ready by then is a warning and joins a
	// later turn. The window never waits: a server that starts later joins
	// the next turn.
	WaitStarted bool
	// OpenBrowser shows the user a remote server's sign-in page (the
	// window's Sign in); nil: only saved sign-ins are used.
	OpenBrowser func(url string) error
	// Warn is told, in words, what did not load or start: a broken
	// servers file, a package's bad entry, a failed start when Open waits
	// for them, a server declined for asking too often. Unredacted: the
	// front end redacts where it shows it. Nil drops them (the log keeps
	// them).
	Warn func(string)
}

// chatMCP is the chat's running MCP servers and the user's choice of
// tools turned off (kept in the data directory).
type chatMCP struct {
	m        *mcp.Manager
	disabled mcp.DisabledStore
	mu       sync.Mutex // serialises the disabled file's read-modify-write

	// live is how the running set follows mcp.json (mcplive.go).
	live mcpLive
	// auth signs in to the remote servers (mcpsignin.go).
	auth *mcpauth.Auth
	// bound is one server's handshake bound (the terminal waits that long).
	bound time.Duration
}

// startMCP starts the chat's servers in the background (Open).
func (c *Core) startMCP(ctx context.Context, cfg MCPConfig) *chatMCP {
	warn := cfg.Warn
	if warn == nil {
		warn = func(string) {}
	}
	a := newMCPAuth(c.keys.store, MCPAuthOptions{OpenBrowser: cfg.OpenBrowser, Log: c.log})
	m := mcp.NewManager(mcp.Options{Log: c.log, Handshake: cfg.Handshake, Roots: []string{c.cfg.Workspace},
		Notice: warn, Elicit: elicitor{ask: c.fe.Prompt}, Sample: c.sample, OAuth: oauthFor(a)})
	cm := &chatMCP{m: m, auth: a, disabled: mcp.DisabledStore{Path: filepath.Join(c.cfg.Layout.Root, mcp.DisabledFileName)}}
	off, err := cm.disabled.Load()
	if err != nil {
		warn(err.Error())
	}
	m.SetDisabled(off)
	cm.live = mcpLive{file: mcpStore(c.cfg.Layout).Path, wait: cfg.WaitStarted, warn: warn,
		servers: func() []mcp.Server { return MCPServers(c.cfg.Layout, c.cfg.Packages, warn) }}
	cm.bound = cfg.Handshake
	if cm.bound <= 0 {
		cm.bound = mcp.HandshakeTimeout
	}
	m.Start(cm.live.first())
	if cfg.WaitStarted {
		cm.waitStarts(ctx, nil, warn)
	}
	return cm
}

// startSlack is what a start may take beyond its handshake bound before
// the terminal stops waiting for it: spawning the process and taking a
// start slot.
const startSlack = 2 * time.Second

// waitStarts is the terminal's wait for the named servers' starts (nil:
// all): one handshake bound, never a server's retries. A server that
// failed is a warning with its error; one still starting (its first
// attempt missed the bound and it is tried again, or it waits for a start
// slot) is a warning that it joins a later message. A hanging server so
// costs the chat one bound, as it costs a turn one timeout.
func (cm *chatMCP) waitStarts(ctx context.Context, names map[string]bool, warn func(string)) {
	wctx, cancel := context.WithTimeout(ctx, cm.bound+startSlack)
	defer cancel()
	if err := cm.m.WaitStarted(wctx); err != nil && ctx.Err() != nil {
		return // the chat or the turn was stopped: it says so itself
	}
	for _, st := range cm.m.Servers() {
		if names != nil && !names[st.Name] {
			continue
		}
		switch st.State {
		case mcp.StateFailed:
			warn(st.StartFailure())
		case mcp.StateStarting:
			warn(fmt.Sprintf("mcp server %s is not ready after %v: it keeps starting in the background and its tools join a later message", st.Name, cm.bound+startSlack))
		}
	}
}

// extensions is what the core offers as extension tools and commands: the
// ones Config.Extensions made (nil without) and the MCP servers' tools.
func (cm *chatMCP) extensions(ext Extensions) Extensions {
	if cm == nil {
		return ext
	}
	return gate.Join(ext, mcp.Set{M: cm.m})
}

// MCPServerInfo is one of the chat's MCP servers as a front end shows it.
type MCPServerInfo struct {
	Name      string
	Transport string // stdio, http or sse
	Source    string // where it was configured: the user's file or a package
	State     string // starting, ready, failed or stopped
	Err       string
	Stderr    []string // the last lines it wrote to stderr
	Tools     []MCPToolInfo
	// Enabled: it starts with the chat (auto_start is not false).
	Enabled bool
	// Spec is the user's entry, for the window's edit form; nil for a
	// plugin package's server, which the user does not edit.
	Spec *MCPServerSpec
}

// MCPToolInfo is one tool of a ready MCP server.
type MCPToolInfo struct {
	Name        string // mcp__<server>__<tool>
	Description string
	// ReadOnly and Destructive are the server's hints, its word; a
	// read-only hint skips approval only when HintsTrusted.
	ReadOnly, Destructive, HintsTrusted bool
	Enabled                             bool // offered to the model
}

// errNoMCP is returned by the MCP methods of a core opened without MCP.
var errNoMCP = errors.New("this chat runs no MCP servers")

// MCPServers lists the chat's MCP servers and their tools (nil when the
// core runs none). It never waits for a server to start.
func (c *Core) MCPServers() []MCPServerInfo {
	if c.mcp == nil {
		return nil
	}
	tools := map[string][]MCPToolInfo{}
	for _, t := range c.mcp.m.Tools() {
		tools[t.Server] = append(tools[t.Server], MCPToolInfo{Name: t.Name, Description: t.Description,
			ReadOnly: t.ReadOnly, Destructive: t.Destructive, HintsTrusted: t.HintsTrusted, Enabled: !t.Disabled})
	}
	var out []MCPServerInfo
	for _, st := range c.mcp.m.Servers() {
		info := MCPServerInfo{Name: st.Name, Transport: st.Transport, Source: st.Source,
			State: string(st.State), Err: st.Err, Stderr: st.Stderr, Tools: tools[st.Name], Enabled: true}
		if cfg, ok := c.mcp.configured(st.Name); ok {
			info.Enabled = cfg.Starts()
			if cfg.Source == "settings" {
				spec := specOf(cfg)
				info.Spec = &spec
			}
		}
		out = append(out, info)
	}
	return out
}

// SetMCPToolEnabled turns one MCP tool on or off for the model: kept in
// the data directory's mcp-disabled-tools.json, it reaches the model at its
// next turn.
func (c *Core) SetMCPToolEnabled(tool string, enabled bool) error {
	if c.mcp == nil {
		return errNoMCP
	}
	cm := c.mcp
	cm.mu.Lock()
	defer cm.mu.Unlock()
	off, err := cm.disabled.Load()
	if err != nil {
		return err
	}
	off[tool] = !enabled
	if err := cm.disabled.Save(off); err != nil {
		return err
	}
	cm.m.SetDisabled(off)
	return nil
}

// RestartMCPServer stops one MCP server and starts it again.
func (c *Core) RestartMCPServer(name string) error {
	if c.mcp == nil {
		return errNoMCP
	}
	return c.mcp.m.Restart(name)
}

// WatchMCP calls fn (on the servers' goroutines) whenever a server's
// state or tools change, until stop is called.
func (c *Core) WatchMCP(fn func()) (stop func()) {
	if c.mcp == nil {
		return func() {}
	}
	return c.mcp.m.Watch(fn)
}

// mcpPrompts offers the ready servers' prompts as slash commands:
// /mcp__<server>__<prompt> args, the expansion sent to the model as the
// user's message.
type mcpPrompts struct{ m *mcp.Manager }

func (p mcpPrompts) Commands() []CommandInfo {
	prompts := p.m.Prompts()
	out := make([]CommandInfo, 0, len(prompts))
	for _, pr := range prompts {
		desc := pr.Usage()
		if pr.Description != "" {
			desc += " — " + pr.Description
		}
		out = append(out, CommandInfo{Name: pr.Command, Description: desc, Send: true})
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

// commandSources offers the commands of several sources, in order; a name
// runs in the first source that lists it.
type commandSources []CommandSource

func (s commandSources) Commands() []CommandInfo {
	var out []CommandInfo
	for _, src := range s {
		out = append(out, src.Commands()...)
	}
	return out
}

func (s commandSources) Run(ctx context.Context, name, args string) (string, error) {
	for _, src := range s {
		for _, ci := range src.Commands() {
			if ci.Name == name {
				return src.Run(ctx, name, args)
			}
		}
	}
	return "", &UnknownCommandError{Name: name, Kind: "command"}
}

// elicitor answers a server's elicitation/create through the front end's
// prompt dialog, the one a plugin's host/ui/request uses, naming the
// server. A URL elicitation (open a page) is declined: the host opens no
// pages for a server.
type elicitor struct {
	ask func(ctx context.Context, p *surfaces.Prompt) (map[string]any, bool)
}

func (e elicitor) Elicit(ctx context.Context, server string, req *sdk.ElicitParams) (*sdk.ElicitResult, error) {
	if req == nil || (req.Mode != "" && req.Mode != "form") || req.URL != "" {
		return &sdk.ElicitResult{Action: "decline"}, nil
	}
	form, kinds, err := surfaces.ElicitationForm(req.Message, req.RequestedSchema)
	if err != nil {
		return nil, fmt.Errorf("mcp server %s: elicitation: %w", server, err)
	}
	p := surfaces.NewHostPrompt("MCP server "+server, protocol.RequestInput, form)
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
