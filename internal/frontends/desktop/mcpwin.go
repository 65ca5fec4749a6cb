package desktop

import (
	"sync"

	"fyne.io/fyne/v2/dialog"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
)

// mcpWindow is the MCP servers window and the source it shows (set once
// the core's MCP servers start).
type mcpWindow struct {
	mu  sync.Mutex
	src dialogs.MCPSource
	win *dialogs.MCPServers // UI goroutine
}

// SetMCP gives the window the chat's MCP servers (any goroutine).
func (d *UI) SetMCP(src dialogs.MCPSource) {
	d.wins.mcp.mu.Lock()
	d.wins.mcp.src = src
	d.wins.mcp.mu.Unlock()
}

// showMCPServers opens (or raises) the MCP servers window (UI goroutine).
// Before the core opened there is nothing to show yet: the user is told.
func (d *UI) showMCPServers() {
	w := &d.wins.mcp
	if w.win != nil {
		w.win.Raise()
		return
	}
	w.mu.Lock()
	src := w.src
	w.mu.Unlock()
	if src == nil {
		dialog.ShowInformation(i18n.T("MCP servers"), i18n.T("The MCP servers start with the chat; try again in a moment."), d.win)
		return
	}
	var win *dialogs.MCPServers
	win = dialogs.ShowMCPServers(d.opts.App, d.b, src, func(err error) { dialog.ShowError(err, win.Window()) },
		func() { w.win = nil })
	w.win = win
	d.trace("mcp servers")
}

// The MCP servers window's data, named here for the wiring above the
// window (cmd/reasonix-desktop builds the source over a chat's servers).
type (
	MCPSource = dialogs.MCPSource
	MCPServer = dialogs.MCPServer
	MCPTool   = dialogs.MCPTool
)
