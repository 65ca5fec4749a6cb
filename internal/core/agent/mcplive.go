package agent

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"reflect"
	"sync"

	"github.com/reasonix/reasonix-desktop/internal/extensions/mcp"
)

// A chat's MCP servers follow mcp.json while the chat runs: `mcp add` in
// another terminal and the window's edits reach the open chat without a
// relaunch. The core reads the file again at each turn's start and right
// after the window's edits, and when its bytes changed hands the new set to
// the manager (mcp.Manager.Update), which starts the added servers, stops
// the removed ones and keeps the unchanged ones running. Reading a small
// file per turn costs far less than the turn; a watcher on the data
// directory would be one more goroutine and platform quirk for the same
// outcome at the next turn.

// mcpLive is what the running set was last made from.
type mcpLive struct {
	file    string              // mcp.json
	wait    bool                // wait for added servers' starts (MCPConfig.WaitStarted)
	servers func() []mcp.Server // the user's and the packages' servers, read now
	warn    func(string)

	mu   sync.Mutex
	seen []byte // mcp.json's bytes when list was made (nil: no file)
	list []mcp.Server
}

// readConfig is the file's bytes, nil when it cannot be read (servers
// says why, as a warning, when it reads it).
func (l *mcpLive) readConfig() []byte {
	b, err := os.ReadFile(l.file)
	if err != nil {
		return nil
	}
	if b == nil {
		b = []byte{}
	}
	return b
}

// first makes the set the chat starts with. The bytes are read before the
// servers, so a change in between is seen again at the next check: the
// set is never newer than what it was compared against.
func (l *mcpLive) first() []mcp.Server {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen = l.readConfig()
	l.list = l.servers()
	return l.list
}

// sync hands the manager the new set when mcp.json changed since the last
// look, and returns the names of the servers added or changed.
func (cm *chatMCP) sync() []string {
	l := &cm.live
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.readConfig()
	if bytes.Equal(b, l.seen) && (b == nil) == (l.seen == nil) {
		return nil
	}
	before := make(map[string]mcp.Server, len(l.list))
	for _, s := range l.list {
		before[s.Name] = s
	}
	l.seen = b
	if _, err := (mcp.Store{Path: l.file}).Load(); err != nil {
		// A file caught mid-edit (or with a typo) is not "no servers":
		// the running set stays until the file reads again.
		l.warn(fmt.Sprintf("%v; the chat keeps the MCP servers it runs", err))
		return nil
	}
	l.list = l.servers()
	var changed []string
	for _, s := range l.list {
		if old, ok := before[s.Name]; !ok || !reflect.DeepEqual(old, s) {
			changed = append(changed, s.Name)
		}
	}
	cm.m.Update(l.list)
	return changed
}

// configured is the entry a running server was made from.
func (cm *chatMCP) configured(name string) (mcp.Server, bool) {
	cm.live.mu.Lock()
	defer cm.live.mu.Unlock()
	for _, s := range cm.live.list {
		if s.Name == name {
			return s, true
		}
	}
	return mcp.Server{}, false
}

// syncMCP brings the chat's servers up to mcp.json at a turn's start. On
// the terminal (MCPConfig.WaitStarted) the turn waits for the added
// servers' starts, one handshake bound, as Open does, so a
// server added from another terminal is usable in the very next message;
// one that failed is a warning. The window does not wait: its edits sync
// at once (mcpEdited) and a server still starting joins the next turn.
func (c *Core) syncMCP(ctx context.Context) {
	if c.mcp == nil {
		return
	}
	changed := c.mcp.sync()
	if len(changed) == 0 || !c.mcp.live.wait {
		return
	}
	want := map[string]bool{}
	for _, n := range changed {
		want[n] = true
	}
	c.mcp.waitStarts(ctx, want, c.mcp.live.warn)
}

// mcpEdited syncs the running set after an edit of mcp.json made through
// the core, without waiting for any start.
func (c *Core) mcpEdited() {
	if c.mcp != nil {
		c.mcp.sync()
	}
}

// AddMCPServer adds or replaces one of the user's servers; renaming
// replaces the entry named was (""; or the same name: none). The open
// chat runs the new set at once.
func (c *Core) AddMCPServer(spec MCPServerSpec, was string) error {
	if err := AddMCPServer(c.cfg.Layout, spec); err != nil {
		return err
	}
	if was != "" && was != spec.Name {
		if err := RemoveMCPServer(c.cfg.Layout, was); err != nil {
			c.mcpEdited()
			return err
		}
	}
	c.mcpEdited()
	return nil
}

// RemoveMCPServer removes one of the user's servers; the open chat stops it.
func (c *Core) RemoveMCPServer(name string) error {
	defer c.mcpEdited()
	return RemoveMCPServer(c.cfg.Layout, name)
}

// SetMCPServerEnabled turns one of the user's servers on or off; the open
// chat starts or stops it.
func (c *Core) SetMCPServerEnabled(name string, enabled bool) error {
	defer c.mcpEdited()
	return SetMCPServerEnabled(c.cfg.Layout, name, enabled)
}

// PreviewMCPImport says what importing a Claude Desktop or .mcp.json file
// would add.
func (c *Core) PreviewMCPImport(path string) (MCPImport, error) {
	return PreviewMCPImport(c.cfg.Layout, path)
}

// ImportMCPServers adds a file's servers (see ImportMCPServers); the open
// chat starts them.
func (c *Core) ImportMCPServers(path string) (MCPImport, error) {
	defer c.mcpEdited()
	return ImportMCPServers(c.cfg.Layout, path)
}
