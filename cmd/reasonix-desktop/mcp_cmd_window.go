//go:build !nogui

package main

import (
	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop"
)

// mcpWindowSource is a chat's MCP servers, as the core offers them, in the
// shape the window's servers dialog reads and changes them
// (desktop.MCPSource).
type mcpWindowSource struct{ core *agent.Core }

var _ desktop.MCPSource = mcpWindowSource{}

func (s mcpWindowSource) Servers() []desktop.MCPServer {
	var out []desktop.MCPServer
	for _, st := range s.core.MCPServers() {
		var tools []desktop.MCPTool
		for _, t := range st.Tools {
			tools = append(tools, desktop.MCPTool{Name: t.Name, Description: t.Description,
				ReadOnly: t.ReadOnly, Destructive: t.Destructive, HintsTrusted: t.HintsTrusted, Enabled: t.Enabled})
		}
		out = append(out, desktop.MCPServer{Name: st.Name, Transport: st.Transport, Source: st.Source,
			State: st.State, Err: st.Err, Stderr: st.Stderr, Tools: tools})
	}
	return out
}

func (s mcpWindowSource) SetToolEnabled(tool string, enabled bool) error {
	return s.core.SetMCPToolEnabled(tool, enabled)
}

func (s mcpWindowSource) Restart(server string) error { return s.core.RestartMCPServer(server) }

func (s mcpWindowSource) Watch(fn func()) (stop func()) { return s.core.WatchMCP(fn) }
