package surfaces

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/reasonix/reasonix-desktop/protocol"
)

const (
	sess = "s1"
	gen  = int64(7)
	// Shaped like real credentials; the redactor must mask them.
	openAIKey = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
	githubPAT = "ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij"
)

func lookupOf(states map[string]PluginState) PluginLookup {
	return func(p string) PluginState { return states[p] }
}

// newTestStore knows active plugins "p" and "q" and crashed "dead", bound
// to (sess, gen).
func newTestStore(t testing.TB) *Store {
	t.Helper()
	s := NewStore(lookupOf(map[string]PluginState{"p": PluginActive, "q": PluginActive, "dead": PluginCrashed}))
	s.Bind(Binding{SessionID: sess, Generation: gen})
	return s
}

// params builds host/ui/publish or host/ui/request params.
func params(kind, surface, session string, generation int64, payload string) json.RawMessage {
	b, err := json.Marshal(map[string]any{
		"kind": kind, "surfaceId": surface, "sessionId": session,
		"generation": generation, "payload": json.RawMessage(payload),
	})
	if err != nil {
		panic(err)
	}
	return b
}

func mustPublish(t testing.TB, s *Store, plugin, kind, surface, payload string) {
	t.Helper()
	res, err := s.Publish(plugin, params(kind, surface, sess, gen, payload))
	if err != nil || !res.Accepted {
		t.Fatalf("publish %s %s: accepted=%v err=%v", kind, surface, res.Accepted, err)
	}
}

func key(plugin, surface string) Key {
	return Key{Plugin: plugin, SurfaceID: surface, SessionID: sess, Generation: gen}
}

// recorder collects changes; safe for concurrent use.
type recorder struct {
	mu      sync.Mutex
	changes []Change
}

func (r *recorder) listen(c Change) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.changes = append(r.changes, c)
}

func (r *recorder) kinds() []ChangeKind {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []ChangeKind
	for _, c := range r.changes {
		out = append(out, c.Kind)
	}
	return out
}

func (r *recorder) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.changes = nil
}

// wantReason asserts err is a *protocol.Error of reason r whose message
// contains every part.
func wantReason(t *testing.T, err error, r protocol.Reason, parts ...string) {
	t.Helper()
	var pe *protocol.Error
	if !errors.As(err, &pe) {
		t.Fatalf("error = %v (%T), want a *protocol.Error %s", err, err, r)
	}
	if pe.Reason() != r {
		t.Fatalf("reason = %s (%v), want %s", pe.Reason(), err, r)
	}
	for _, p := range parts {
		if !strings.Contains(pe.Message, p) {
			t.Errorf("message %q does not contain %q", pe.Message, p)
		}
	}
}
