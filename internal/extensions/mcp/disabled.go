package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"

	"github.com/reasonix/reasonix-desktop/internal/foundation/atomicfile"
)

// DisabledFileName keeps, in the data dir, the MCP tools the user turned
// off: {"disabled": ["mcp__ev__echo", ...]}. A disabled tool stays listed
// (the servers window shows it) but is not offered to the model.
const DisabledFileName = "mcp-disabled-tools.json"

// DisabledStore is the disabled-tools file. Callers serialise writes (the
// servers window is its one writer).
type DisabledStore struct{ Path string }

type disabledDoc struct {
	Disabled []string `json:"disabled"`
}

// Load reads the disabled tools; a missing file is none. A broken file is
// an error naming it, and none (every tool stays on).
func (d DisabledStore) Load() (map[string]bool, error) {
	b, err := os.ReadFile(d.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return map[string]bool{}, fmt.Errorf("mcp disabled tools %s: %w", d.Path, err)
	}
	var doc disabledDoc
	if err := json.Unmarshal(b, &doc); err != nil {
		return map[string]bool{}, fmt.Errorf("mcp disabled tools %s: %w", d.Path, err)
	}
	out := make(map[string]bool, len(doc.Disabled))
	for _, n := range doc.Disabled {
		out[n] = true
	}
	return out, nil
}

// Save writes the disabled tools, sorted.
func (d DisabledStore) Save(disabled map[string]bool) error {
	doc := disabledDoc{Disabled: []string{}}
	for n, off := range disabled {
		if off {
			doc.Disabled = append(doc.Disabled, n)
		}
	}
	sort.Strings(doc.Disabled)
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("mcp disabled tools %s: %w", d.Path, err)
	}
	if err := atomicfile.Write(d.Path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("mcp disabled tools %s: %w", d.Path, err)
	}
	return nil
}

// SetDisabled replaces the set of disabled tools (by host name); the
// change reaches the model at its next turn.
func (m *Manager) SetDisabled(disabled map[string]bool) {
	cp := make(map[string]bool, len(disabled))
	for k, v := range disabled {
		if v {
			cp[k] = true
		}
	}
	m.mu.Lock()
	m.disabled = cp
	m.mu.Unlock()
	m.changed()
}

// Disabled reports whether the user turned a tool off.
func (m *Manager) Disabled(tool string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.disabled[tool]
}
