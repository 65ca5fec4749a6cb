package plugin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/atomicfile"
	"github.com/reasonix/reasonix-desktop/internal/foundation/jsonerr"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// StoreVersion is the plugin-packages.json format version.
const StoreVersion = 1

// Record is one installed plugin in plugin-packages.json.
type Record struct {
	Name        string `json:"name"`
	Source      string `json:"source"` // the folder it was installed or linked from
	Root        string `json:"root"`   // where it runs from: plugins/<name> or, linked, Source
	Version     string `json:"version"`
	Description string `json:"description,omitempty"`
	Enabled     bool   `json:"enabled"`
	Linked      bool   `json:"linked"`
	// InstalledAt is RFC 3339 (UTC, whole seconds).
	InstalledAt    time.Time `json:"installedAt"`
	ManifestSHA256 string    `json:"manifestSha256"`
	// ManifestKind is reasonix, claude or codex (empty: reasonix), and
	// Commit the git HEAD a clone was installed at, as the real host
	// records them.
	ManifestKind string `json:"manifestKind,omitempty"`
	Commit       string `json:"commit,omitempty"`
}

type storeFile struct {
	Version int      `json:"version"`
	Plugins []Record `json:"plugins"`
}

// Store is the plugin-packages.json store. It is safe for concurrent use;
// writes also take an advisory lock file so processes sharing a data dir do
// not lose each other's updates (each write re-reads the file under the lock).
type Store struct {
	mu     sync.Mutex
	layout Layout
	recs   map[string]Record
}

// OpenStore loads the store of layout. A missing file is an empty store;
// nothing is written.
func OpenStore(layout Layout) (*Store, error) {
	recs, err := readStore(layout.PackagesFile())
	if err != nil {
		return nil, err
	}
	return &Store{layout: layout, recs: recs}, nil
}

// Layout is the data directory the store belongs to.
func (s *Store) Layout() Layout { return s.layout }

// Reload re-reads the file (changes made by other processes).
func (s *Store) Reload() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	recs, err := readStore(s.layout.PackagesFile())
	if err != nil {
		return err
	}
	s.recs = recs
	return nil
}

// List returns the records sorted by name.
func (s *Store) List() []Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	return sortedRecords(s.recs)
}

// Get returns the record of name.
func (s *Store) Get(name string) (Record, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.recs[name]
	return r, ok
}

// Put adds or replaces the record r.Name.
func (s *Store) Put(r Record) error {
	if err := r.validate(); err != nil {
		return err
	}
	return s.update(func(recs map[string]Record) error {
		recs[r.Name] = r
		return nil
	})
}

// Remove deletes the record of name; an unknown name is an error.
func (s *Store) Remove(name string) error {
	return s.update(func(recs map[string]Record) error {
		if _, ok := recs[name]; !ok {
			return fmt.Errorf("plugin %q is not installed", name)
		}
		delete(recs, name)
		return nil
	})
}

// SetEnabled flips the enabled flag of name; an unknown name is an error.
func (s *Store) SetEnabled(name string, enabled bool) error {
	return s.update(func(recs map[string]Record) error {
		r, ok := recs[name]
		if !ok {
			return fmt.Errorf("plugin %q is not installed", name)
		}
		r.Enabled = enabled
		recs[name] = r
		return nil
	})
}

func (r Record) validate() error {
	if !protocol.ValidPluginName(r.Name) {
		return fmt.Errorf("invalid plugin name %q", r.Name)
	}
	if r.Root == "" {
		return fmt.Errorf("plugin %q: empty root", r.Name)
	}
	return nil
}

// update applies fn to the current on-disk state under both locks and writes
// the result atomically.
func (s *Store) update(fn func(map[string]Record) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	path := s.layout.PackagesFile()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	unlock, err := lockFile(path + ".lock")
	if err != nil {
		return fmt.Errorf("lock %s: %w", path, err)
	}
	defer unlock()
	recs, err := readStore(path)
	if err != nil {
		return err
	}
	if err := fn(recs); err != nil {
		return err
	}
	if err := writeStore(path, recs); err != nil {
		return err
	}
	s.recs = recs
	return nil
}

func sortedRecords(recs map[string]Record) []Record {
	out := make([]Record, 0, len(recs))
	for _, r := range recs {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func readStore(path string) (map[string]Record, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]Record{}, nil
	}
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var f struct {
		Version *int     `json:"version"`
		Plugins []Record `json:"plugins"`
	}
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: invalid JSON: %w", path, jsonerr.Explain(data, err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: invalid JSON: trailing data after the JSON value", path)
	}
	if f.Version == nil {
		return nil, fmt.Errorf("%s: missing version (want %d)", path, StoreVersion)
	}
	if *f.Version != StoreVersion {
		return nil, fmt.Errorf("%s: unsupported version %d (want %d)", path, *f.Version, StoreVersion)
	}
	recs := make(map[string]Record, len(f.Plugins))
	for i, r := range f.Plugins {
		if err := r.validate(); err != nil {
			return nil, fmt.Errorf("%s: plugins[%d]: %v", path, i, err)
		}
		if _, dup := recs[r.Name]; dup {
			return nil, fmt.Errorf("%s: plugins[%d]: duplicate plugin %q", path, i, r.Name)
		}
		recs[r.Name] = r
	}
	return recs, nil
}

// writeStore writes the store atomically. Callers hold the lock, so any
// temp file of a crashed writer can be removed first.
func writeStore(path string, recs map[string]Record) error {
	atomicfile.RemoveStale(path)
	data, err := json.MarshalIndent(storeFile{Version: StoreVersion, Plugins: sortedRecords(recs)}, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'), 0o644)
}
