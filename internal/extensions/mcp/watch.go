package mcp

import (
	"fmt"
	"sync"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// watchers fans a Manager's change notices out to whoever shows its
// servers (the window's MCP servers dialog, opened and closed at will).
// Safe for concurrent use; the zero value has no watchers.
type watchers struct {
	mu   sync.Mutex
	next int
	fns  map[int]func()
}

// notify calls every watcher, in turn, on the caller's goroutine. It
// calls them outside the lock, so a watcher may stop itself or add
// another.
func (w *watchers) notify() {
	w.mu.Lock()
	fns := make([]func(), 0, len(w.fns))
	for _, f := range w.fns {
		fns = append(fns, f)
	}
	w.mu.Unlock()
	for _, f := range fns {
		f()
	}
}

func (w *watchers) any() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.fns) > 0
}

func (w *watchers) add(fn func()) (stop func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fns == nil {
		w.fns = map[int]func(){}
	}
	id := w.next
	w.next++
	w.fns[id] = fn
	return func() {
		w.mu.Lock()
		delete(w.fns, id)
		w.mu.Unlock()
	}
}

// Watch calls fn at every change of a server's state or tool list until
// the returned stop is called. fn runs on a goroutine of its own (one per
// change, shared by every watcher), never on the caller's or a server's:
// it may call Servers or Tools, but must not wait for the Manager's work
// (a start, a call).
func (m *Manager) Watch(fn func()) (stop func()) { return m.watch.add(fn) }

// StartFailure is the line a front end shows for a server that did not
// start, its error redacted (a server's words may carry a token).
func (st Status) StartFailure() string {
	return fmt.Sprintf("mcp server %s did not start: %s", st.Name, redact.String(st.Err))
}
