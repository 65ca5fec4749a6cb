package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// lists are the lists a server announces changes of.
type lists uint8

const (
	listTools lists = 1 << iota
	listPrompts
	listResources
)

// listChanged follows a server's notifications/*/list_changed for session.
// One that comes while the server is still starting (between the handshake
// and the start's own lists, which may already be out of date) is kept and
// followed once the session is the server's: dropped, as it was, the
// server's tools stayed those of the start's list for the session.
func (s *server) listChanged(session *sdk.ClientSession, which lists) {
	s.mu.Lock()
	if s.session != session {
		if s.pendingFor != session {
			s.pendingFor, s.pending = session, 0
		}
		s.pending |= which
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	go s.relist(session, which)
}

// takePendingLocked is what changed while session was starting, now that
// it is the server's.
func (s *server) takePendingLocked(session *sdk.ClientSession) lists {
	which := lists(0)
	if s.pendingFor == session {
		which = s.pending
	}
	s.pendingFor, s.pending = nil, 0
	return which
}

// relist lists again what changed.
func (s *server) relist(session *sdk.ClientSession, which lists) {
	if which&listTools != 0 {
		s.refresh(session)
	}
	if which&listPrompts != 0 {
		s.refreshPrompts(session)
	}
	if which&listResources != 0 {
		// Resources are read by URI when a message names one, never listed
		// ahead (resources.go): what the watchers (the window) show of the
		// server is what changed.
		s.m.changed()
	}
}

// listChangedHandlers sets the client's handlers of the list_changed
// notifications.
func (s *server) listChangedHandlers(opts *sdk.ClientOptions) {
	opts.ToolListChangedHandler = func(_ context.Context, req *sdk.ToolListChangedRequest) {
		s.listChanged(req.Session, listTools)
	}
	opts.PromptListChangedHandler = func(_ context.Context, req *sdk.PromptListChangedRequest) {
		s.listChanged(req.Session, listPrompts)
	}
	opts.ResourceListChangedHandler = func(_ context.Context, req *sdk.ResourceListChangedRequest) {
		s.listChanged(req.Session, listResources)
	}
}
