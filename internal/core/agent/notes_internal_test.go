package agent

import (
	"testing"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// What Retry re-runs, table-driven: only a failed last turn with nothing
// after it; its kept message when it never reached the messages.
func TestRetryTarget(t *testing.T) {
	t.Parallel()
	user := protocol.ProviderMessage{Role: protocol.RoleUser, Content: "recorded"}
	reply := protocol.ProviderMessage{Role: protocol.RoleAssistant, Content: "ok"}
	tests := []struct {
		name   string
		msgs   []protocol.ProviderMessage
		notes  []Note
		ok     bool
		text   string
		resume bool
	}{
		{"nothing failed", []protocol.ProviderMessage{user, reply}, nil, false, "", false},
		{"failed before recording", nil, []Note{{Kind: NoteFailed, Input: "kept"}}, true, "kept", false},
		{"failed after recording", []protocol.ProviderMessage{user}, []Note{{After: 1, Kind: NoteFailed}}, true, "recorded", true},
		{"retried and failed again", nil, []Note{{Kind: NoteFailed, Input: "kept"}, {Kind: NoteFailed}}, true, "kept", false},
		{"a stop is not retried", []protocol.ProviderMessage{user}, []Note{{After: 1, Kind: NoteStopped}}, false, "", false},
		{"a later turn came after", []protocol.ProviderMessage{user, reply}, []Note{{After: 0, Kind: NoteFailed, Input: "kept"}}, false, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Session{Messages: tt.msgs, Notes: tt.notes}
			run, ok := s.retryTarget()
			if ok != tt.ok {
				t.Fatalf("ok %v, want %v", ok, tt.ok)
			}
			if ok && (run.text != tt.text || run.resume != tt.resume || !run.shown) {
				t.Fatalf("run %+v", run)
			}
		})
	}
}

// A message kept by a failure keeps its images, and Retry sends them.
func TestRetryTargetKeepsTheImages(t *testing.T) {
	t.Parallel()
	img := ImageDataURL("image/png", []byte{0x89, 'P', 'N', 'G'})
	s := &Session{Notes: []Note{{Kind: NoteFailed, Input: "look", InputImages: []string{img}}}}
	run, ok := s.retryTarget()
	if !ok || run.text != "look" || len(run.images) != 1 || run.images[0] != img {
		t.Fatalf("run %+v, ok %v", run, ok)
	}
}
