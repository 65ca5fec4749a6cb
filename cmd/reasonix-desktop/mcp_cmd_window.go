//go:build !nogui

package main

import (
	"sync"

	"github.com/reasonix/reasonix-desktop/internal/extensions/mcp"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop"
)

// mcpWindowSource is a chat's MCP servers as the window's servers dialog
// reads and changes them (desktop.MCPSource). Turning a tool off is saved
// in the data dir's mcp-disabled-tools.json and reaches the model at its
// next turn.
type mcpWindowSource struct {
	m        *mcp.Manager
	disabled mcp.DisabledStore

	mu sync.Mutex // serialises the disabled file's read-modify-write
}

var _ desktop.MCPSource = (*mcpWindowSource)(nil)

func (s *mcpWindowSource) Servers() []desktop.MCPServer {
	tools := map[string][]desktop.MCPTool{}
	for _, t := range s.m.Tools() {
		tools[t.Server] = append(tools[t.Server], desktop.MCPTool{Name: t.Name, Description: t.Description,
			ReadOnly: t.ReadOnly, Destructive: t.Destructive, HintsTrusted: t.HintsTrusted, Enabled: !t.Disabled})
	}
	var out []desktop.MCPServer
	for _, st := range s.m.Servers() {
		out = append(out, desktop.MCPServer{Name: st.Name, Transport: st.Transport, Source: st.Source,
			State: string(st.State), Err: st.Err, Stderr: st.Stderr, Tools: tools[st.Name]})
	}
	return out
}

func (s *mcpWindowSource) SetToolEnabled(tool string, enabled bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	off, err := s.disabled.Load()
	if err != nil {
		return err
	}
	off[tool] = !enabled
	if err := s.disabled.Save(off); err != nil {
		return err
	}
	s.m.SetDisabled(off)
	return nil
}

func (s *mcpWindowSource) Restart(server string) error { return s.m.Restart(server) }

func (s *mcpWindowSource) Watch(fn func()) (stop func()) { return s.m.Watch(fn) }
