package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"

	"github.com/reasonix/reasonix-desktop/internal/atomicfile"
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
	// Hooks is the shell hooks bus (command per event); see internal/host/xdev.
	Hooks json.RawMessage `json:"hooks,omitempty"`
}

// SettingsFile loads and saves settings.json.
type SettingsFile struct {
	path string
	mu   sync.Mutex
	s    Settings
}

// OpenSettings reads path; a missing file is empty settings.
func OpenSettings(path string) (*SettingsFile, error) {
	f := &SettingsFile{path: path}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return nil, fmt.Errorf("settings: %w", err)
	}
	if err := json.Unmarshal(data, &f.s); err != nil {
		return nil, fmt.Errorf("settings: %s: %w", path, err)
	}
	return f, nil
}

// Get returns a copy of the settings.
func (f *SettingsFile) Get() Settings {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.s
	s.AlwaysApprove = slices.Clone(s.AlwaysApprove)
	s.Rules = slices.Clone(s.Rules)
	return s
}

// Update changes the settings and saves them atomically.
func (f *SettingsFile) Update(change func(*Settings)) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	next := f.s
	next.AlwaysApprove = slices.Clone(next.AlwaysApprove)
	next.Rules = slices.Clone(next.Rules)
	change(&next)
	data, err := json.MarshalIndent(next, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(f.path, append(data, '\n'), 0o600); err != nil {
		return err
	}
	f.s = next
	return nil
}
