//go:build !nogui

package main

import (
	"context"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
)

// mcpWindowSource is a chat's MCP servers, as the core offers them, in the
// shape the window's servers dialog reads and changes them
// (desktop.MCPSource).
type mcpWindowSource struct{ core *agent.Core }

var (
	_ desktop.MCPSource = mcpWindowSource{}
	_ dialogs.MCPEditor = mcpWindowSource{}
	_ dialogs.MCPSignIn = mcpWindowSource{}
)

func (s mcpWindowSource) Servers() []desktop.MCPServer {
	var out []desktop.MCPServer
	for _, st := range s.core.MCPServers() {
		var tools []desktop.MCPTool
		for _, t := range st.Tools {
			tools = append(tools, desktop.MCPTool{Name: t.Name, Description: t.Description,
				ReadOnly: t.ReadOnly, Destructive: t.Destructive, HintsTrusted: t.HintsTrusted, Enabled: t.Enabled})
		}
		srv := desktop.MCPServer{Name: st.Name, Transport: st.Transport, Source: st.Source,
			State: st.State, Err: st.Err, Stderr: st.Stderr, Tools: tools, Enabled: st.Enabled}
		if st.Spec != nil {
			e := entryOf(*st.Spec)
			srv.Entry = &e
		}
		out = append(out, srv)
	}
	return out
}

func (s mcpWindowSource) SetToolEnabled(tool string, enabled bool) error {
	return s.core.SetMCPToolEnabled(tool, enabled)
}

func (s mcpWindowSource) Restart(server string) error { return s.core.RestartMCPServer(server) }

func (s mcpWindowSource) Watch(fn func()) (stop func()) { return s.core.WatchMCP(fn) }

func entryOf(s agent.MCPServerSpec) dialogs.MCPEntry {
	return dialogs.MCPEntry{Name: s.Name, Type: s.Type, Command: s.Command, URL: s.URL, Env: s.Env, Headers: s.Headers,
		TrustHints: s.TrustHints, Disabled: s.Disabled}
}

func (s mcpWindowSource) SaveServer(e dialogs.MCPEntry, was string) error {
	return s.core.AddMCPServer(agent.MCPServerSpec{Name: e.Name, Type: e.Type, Command: e.Command, URL: e.URL,
		Env: e.Env, Headers: e.Headers, TrustHints: e.TrustHints, Disabled: e.Disabled}, was)
}

func (s mcpWindowSource) RemoveServer(name string) error { return s.core.RemoveMCPServer(name) }

func (s mcpWindowSource) SetServerEnabled(name string, enabled bool) error {
	return s.core.SetMCPServerEnabled(name, enabled)
}

// The summary is the file's own text (names, commands): redacted, like
// everything the window shows of a server.
func previewOf(imp agent.MCPImport, done bool) dialogs.MCPImportPreview {
	return dialogs.MCPImportPreview{Summary: redact.String(imp.Summary(done)), Adds: len(imp.Add)}
}

func (s mcpWindowSource) PreviewImport(path string) (dialogs.MCPImportPreview, error) {
	imp, err := s.core.PreviewMCPImport(path)
	return previewOf(imp, false), err
}

func (s mcpWindowSource) Import(path string) (dialogs.MCPImportPreview, error) {
	imp, err := s.core.ImportMCPServers(path)
	return previewOf(imp, true), err
}

// SignIn runs the browser flow (bounded by mcpauth's sign-in timeout) and
// starts the server again with its token.
func (s mcpWindowSource) SignIn(name string) error {
	return s.core.SignInMCPServer(context.Background(), name)
}

func (s mcpWindowSource) SignOut(name string) error { return s.core.SignOutMCPServer(name) }
