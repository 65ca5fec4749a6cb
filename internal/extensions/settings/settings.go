package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"

	"github.com/reasonix/reasonix-desktop/internal/foundation/atomicfile"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Settings is settings.json: the user's defaults and standing approvals.
type Settings struct {
	DefaultModel  string `json:"defaultModel,omitempty"`
	DefaultEffort string `json:"defaultEffort,omitempty"`
	// AlwaysApprove lists tools approved "always" before approvals had a
	// scope: each still allows its tool in every workspace until revoked.
	AlwaysApprove []string `json:"alwaysApprove,omitempty"`
	// Rules are the scoped "always" approvals (see Rule).
	Rules []Rule `json:"rules,omitempty"`
	// Hooks is the shell hooks bus (command per event); see internal/plugins/host/xdev.
	Hooks json.RawMessage `json:"hooks,omitempty"`
	// WebFetchPrivate lets web_fetch reach private, loopback and
	// link-local addresses (a dev server, the LAN); off, such an address
	// is refused when the connection is made, redirects included.
	WebFetchPrivate bool `json:"webFetchPrivate,omitempty"`
	// Language is the UI's language: "" the system's, "en" or "zh-Hans".
	Language string `json:"language,omitempty"`
	// Currency is what costs are shown in: "" each model's own price
	// list, "CNY" or "USD".
	Currency string `json:"currency,omitempty"`
	// LiveChats is how many idle chats keep their plugins running besides
	// the one on screen and every chat that is replying (0: DefaultLiveChats).
	LiveChats int `json:"liveChats,omitempty"`
}

// DefaultLiveChats is LiveChats when the file does not say.
const DefaultLiveChats = 4

// IdleChats is LiveChats with its default applied (negative counts as 0).
func (s Settings) IdleChats() int {
	switch {
	case s.LiveChats == 0:
		return DefaultLiveChats
	case s.LiveChats < 0:
		return 0
	}
	return s.LiveChats
}

// File loads and saves settings.json. It is safe for concurrent use: Get
// and Update serialize on the file's lock, and Update writes the file
// atomically before the change is visible to Get.
type File struct {
	path string
	mu   sync.Mutex
	s    Settings
	// extra are unknown top-level members (see Load), written back as read.
	extra map[string]json.RawMessage
	// broken is why the file on disk is not used (see Load); nil when it is.
	broken *Problem
}

// Open reads path; a missing file is empty settings. A file that is not
// valid settings is an error naming the file and, through a wrapped
// *protocol.DecodeError, the JSON path.
func Open(path string) (*File, error) {
	f := &File{path: path}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return nil, fmt.Errorf("settings: %w", err)
	}
	if err := protocol.DecodeStrict(data, &f.s); err != nil {
		return nil, fmt.Errorf("settings: %s: %w", path, err)
	}
	return f, nil
}

// Path is the file's path.
func (f *File) Path() string { return f.path }

// Get returns a copy of the settings.
func (f *File) Get() Settings {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.recheck()
	return f.s.clone()
}

// Update changes the settings and saves them atomically; on a failed write
// the settings stay as they were. While the file on disk is broken (see
// Load) it refuses with ErrBroken and changes nothing.
func (f *File) Update(change func(*Settings)) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.recheck()
	if f.broken != nil {
		return fmt.Errorf("%w (%s); not overwriting it until it is fixed or reset", ErrBroken, f.path)
	}
	next := f.s.clone()
	change(&next)
	data, err := f.encode(next)
	if err != nil {
		return fmt.Errorf("settings: encode: %w", err)
	}
	if err := atomicfile.Write(f.path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	f.s = next
	return nil
}

// encode is the file's text: s, and the unknown members it was read with.
func (f *File) encode(s Settings) ([]byte, error) {
	if len(f.extra) == 0 {
		return json.MarshalIndent(s, "", "  ")
	}
	known, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	all := map[string]json.RawMessage{}
	if err := json.Unmarshal(known, &all); err != nil {
		return nil, err
	}
	for k, v := range f.extra {
		all[k] = v
	}
	return json.MarshalIndent(all, "", "  ")
}

func (s Settings) clone() Settings {
	s.AlwaysApprove = slices.Clone(s.AlwaysApprove)
	s.Rules = slices.Clone(s.Rules)
	s.Hooks = slices.Clone(s.Hooks)
	return s
}
