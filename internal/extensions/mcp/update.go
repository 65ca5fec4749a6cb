package mcp

import "reflect"

// Update makes the running set the given list: a server not in it is
// stopped and forgotten, a new one is added and started (auto_start
// permitting), and one whose entry changed is stopped and started again
// with its new entry. A server whose entry is the same keeps running, its
// session and calls in flight untouched. It returns at once, like Start.
//
// The configuration can change while a chat runs (mcp add, the window's
// edits): this is how the change reaches the chat without a relaunch.
func (m *Manager) Update(servers []Server) {
	want := make(map[string]Server, len(servers))
	for _, cfg := range servers {
		want[cfg.Name] = cfg
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	var gone []*server
	for name, s := range m.servers {
		cfg, ok := want[name]
		if ok && reflect.DeepEqual(cfg, s.cfg) {
			delete(want, name) // unchanged: it keeps running
			continue
		}
		// Removed or changed: a changed entry gets a new server value, so
		// nothing reading the old one's cfg (a call, a watcher) races the
		// new entry, and a late start of the old one lands on the old one.
		gone = append(gone, s)
		delete(m.servers, name)
	}
	m.mu.Unlock()
	for _, s := range gone {
		s.stop()
	}
	var added []Server
	for _, cfg := range servers {
		if _, ok := want[cfg.Name]; ok {
			added = append(added, cfg)
			delete(want, cfg.Name) // a name listed twice starts once
		}
	}
	m.Start(added)
	m.changed()
}
