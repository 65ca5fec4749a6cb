package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/extensions/mcp"
	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
)

// The user's MCP servers as the command line manages them: the servers
// file in the data directory, and a one-off run of every server (the
// user's and the enabled packages') to list, inspect or call them outside
// a chat.

// MCPServerSpec is a server the user adds: a command to run (stdio) or a
// remote URL (http, sse).
type MCPServerSpec struct {
	Name    string
	Type    string   // "" or stdio, http, sse
	URL     string   // a remote server's
	Command []string // a stdio server's program and arguments
	Env     map[string]string
	Headers map[string]string
	// TrustHints lets the server's readOnlyHint skip approval.
	TrustHints bool
	// Disabled keeps the server in the file without starting it
	// (auto_start false).
	Disabled bool
}

// specOf is a user's entry as the window edits it.
func specOf(s mcp.Server) MCPServerSpec {
	spec := MCPServerSpec{Name: s.Name, Type: s.Type, URL: s.URL, Env: s.Env, Headers: s.Headers,
		TrustHints: s.TrustHints, Disabled: !s.Starts()}
	if s.Command != "" {
		spec.Command = append([]string{s.Command}, s.Args...)
	}
	return spec
}

func mcpStore(layout Layout) mcp.Store {
	return mcp.Store{Path: filepath.Join(layout.Root, mcp.FileName)}
}

// AddMCPServer adds (or replaces) a server in the user's servers file,
// creating the data directory on a first use (the command line's `mcp add`
// may come before any chat made it). Replacing an entry keeps what the
// spec does not hold (its display name, description, tier).
func AddMCPServer(layout Layout, spec MCPServerSpec) error {
	if err := os.MkdirAll(layout.Root, 0o700); err != nil {
		return fmt.Errorf("mcp servers: the data directory: %w", err)
	}
	st := mcpStore(layout)
	old, err := st.Load()
	if err != nil {
		return err
	}
	s := mcp.Server{Name: spec.Name, Server: mcpspec.Server{Type: spec.Type, URL: spec.URL}, TrustHints: spec.TrustHints}
	for _, o := range old {
		if o.Name == spec.Name {
			s.Tier, s.DisplayName, s.Description = o.Tier, o.DisplayName, o.Description
		}
	}
	if spec.Disabled {
		off := false
		s.AutoStart = &off
	}
	if len(spec.Command) > 0 {
		s.Command, s.Args = spec.Command[0], spec.Command[1:]
	}
	if len(spec.Env) > 0 {
		s.Env = spec.Env
	}
	if len(spec.Headers) > 0 {
		s.Headers = spec.Headers
	}
	return st.Put(s)
}

// RemoveMCPServer removes a server from the user's servers file.
func RemoveMCPServer(layout Layout, name string) error { return mcpStore(layout).Remove(name) }

// MCPServerSpecs lists the user's own servers (mcp.json), by name, as
// AddMCPServer takes them: what the window's edit form starts from.
func MCPServerSpecs(layout Layout) ([]MCPServerSpec, error) {
	all, err := mcpStore(layout).Load()
	if err != nil {
		return nil, err
	}
	out := make([]MCPServerSpec, 0, len(all))
	for _, s := range all {
		out = append(out, specOf(s))
	}
	return out, nil
}

// SetMCPServerEnabled turns one of the user's servers on or off: an off
// server stays in mcp.json (auto_start false) and is not started.
func SetMCPServerEnabled(layout Layout, name string, enabled bool) error {
	specs, err := MCPServerSpecs(layout)
	if err != nil {
		return err
	}
	for _, spec := range specs {
		if spec.Name == name {
			spec.Disabled = !enabled
			return AddMCPServer(layout, spec)
		}
	}
	return fmt.Errorf("no mcp server %q in your servers file (a plugin's server is turned off with its plugin)", name)
}

// MCPRun is every MCP server started once, outside a chat. Its methods are
// safe for concurrent use; Close stops the servers.
type MCPRun struct{ m *mcp.Manager }

// ErrNoMCPServers is returned by StartMCPServers when there is none to run.
var ErrNoMCPServers = errors.New("no MCP servers (add one: reasonix-desktop mcp add NAME -- COMMAND ARGS)")

// MCPRunOptions is how StartMCPServers runs the servers.
type MCPRunOptions struct {
	// Workdir is the servers' root (the workspace).
	Workdir string
	// Handshake bounds each start (0: the mcp package's default).
	Handshake time.Duration
	// Prompt, if set, asks a server's elicitation (a form, one question
	// per field on the terminal), titled with the server; nil declines them.
	Prompt func(ctx context.Context, p *surfaces.Prompt) (map[string]any, bool)
	// Auth signs in to remote servers (the one-off commands set OnDemand:
	// the user is at the terminal to finish a sign-in a 401 asks for).
	Auth MCPAuthOptions
}

// StartMCPServers runs the user's servers and the enabled packages', and
// waits for their starts (each bounded by the handshake). A broken servers
// file is an error naming it; a package's broken entry only leaves that
// server out.
func StartMCPServers(ctx context.Context, layout Layout, opts MCPRunOptions) (*MCPRun, error) {
	if _, err := mcpStore(layout).Load(); err != nil {
		return nil, err
	}
	servers := MCPServers(layout, nil, func(string) {})
	if len(servers) == 0 {
		return nil, ErrNoMCPServers
	}
	mo := mcp.Options{Handshake: opts.Handshake, Roots: []string{opts.Workdir},
		OAuth: oauthFor(newMCPAuth(secretsOf(layout, opts.Auth.Log), opts.Auth))}
	if opts.Prompt != nil {
		mo.Elicit = elicitor{ask: opts.Prompt}
	}
	m := mcp.NewManager(mo)
	m.Start(servers)
	if err := m.WaitStarted(ctx); err != nil {
		m.Close()
		return nil, err
	}
	return &MCPRun{m: m}, nil
}

// Close stops every server.
func (r *MCPRun) Close() { r.m.Close() }

// MCPStatus is one server's state after its start (`mcp list --json`
// prints these: the field names are that output's).
type MCPStatus struct {
	Name, Transport, Source string
	State                   string
	Err                     string
	Tools                   int
	Stderr                  []string // the last lines the server wrote to stderr
	TrustHints              bool     `json:",omitempty"`
	Warnings                []string `json:",omitempty"` // what of its tool list was left out, and why
}

// Failed reports whether the server did not start.
func (s MCPStatus) Failed() bool { return s.State == string(mcp.StateFailed) }

// Servers lists every server's state.
func (r *MCPRun) Servers() []MCPStatus {
	var out []MCPStatus
	for _, st := range r.m.Servers() {
		out = append(out, MCPStatus{Name: st.Name, Transport: st.Transport, Source: st.Source, State: string(st.State),
			Err: st.Err, Tools: st.Tools, Stderr: st.Stderr, TrustHints: st.TrustHints, Warnings: st.Warnings})
	}
	return out
}

// MCPTool is one tool of a ready server.
type MCPTool struct {
	Name        string // mcp__<server>__<tool>
	Server      string
	Description string
	// ReadOnly and Destructive are the server's hints, its word; a
	// read-only hint skips approval only when HintsTrusted.
	ReadOnly, Destructive, HintsTrusted bool
}

// Tools lists the ready servers' tools.
func (r *MCPRun) Tools() []MCPTool {
	var out []MCPTool
	for _, t := range r.m.Tools() {
		out = append(out, MCPTool{Name: t.Name, Server: t.Server, Description: t.Description,
			ReadOnly: t.ReadOnly, Destructive: t.Destructive, HintsTrusted: t.HintsTrusted})
	}
	return out
}

// MCPProgress is a running call's progress as its server reports it.
type MCPProgress struct {
	Progress, Total float64
	Message         string
}

// Call calls a tool (mcp__<server>__<tool>) with JSON object arguments
// (nil: none). text is redacted; isError is the tool's own verdict.
func (r *MCPRun) Call(ctx context.Context, tool string, args json.RawMessage, progress func(MCPProgress)) (text string, isError bool, err error) {
	var report func(mcp.Progress)
	if progress != nil {
		report = func(p mcp.Progress) { progress(MCPProgress{Progress: p.Progress, Total: p.Total, Message: p.Message}) }
	}
	res, err := r.m.Call(ctx, tool, args, report)
	if err != nil {
		return "", false, err // the manager's error names the tool and its server
	}
	return res.Text, res.IsError, nil
}
