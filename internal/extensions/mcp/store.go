package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"

	"github.com/reasonix/reasonix-desktop/internal/foundation/atomicfile"
)

// FileName is the user's own servers in the data dir, in the format
// Claude Code and the Reasonix host read from .mcp.json: {"mcpServers":
// {"name": {entry}}}, so a file from either works here unchanged.
const FileName = "mcp.json"

// Store is the user's servers file. Its methods read and write the file
// each time; callers serialise writes (the CLI and the Settings window
// each hold the only writer while they edit).
type Store struct{ Path string }

// Load reads the user's servers, sorted by name. A missing file is no
// servers. A broken file is an error naming the file and what is wrong,
// and no servers: the caller goes on without them.
func (s Store) Load() ([]Server, error) {
	b, err := os.ReadFile(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("mcp servers file %s: %w", s.Path, err)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil
	}
	var doc struct {
		MCPServers json.RawMessage `json:"mcpServers"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("mcp servers file %s: %w", s.Path, err)
	}
	if len(doc.MCPServers) == 0 || string(doc.MCPServers) == "null" {
		return nil, nil
	}
	entries, trusted, err := userFields(doc.MCPServers)
	if err != nil {
		return nil, fmt.Errorf("mcp servers file %s: %w", s.Path, err)
	}
	servers, err := DecodeServers(entries)
	if err != nil {
		return nil, fmt.Errorf("mcp servers file %s: %w", s.Path, err)
	}
	for i := range servers {
		servers[i].Source, servers[i].TrustHints = "settings", trusted[servers[i].Name]
	}
	return servers, nil
}

// userFields takes the fields only the user's own file may hold
// (trust_hints) out of each entry, so what is left decodes strictly as
// any entry does and the same field in a package's manifest stays an
// unknown field there.
func userFields(raw json.RawMessage) (json.RawMessage, map[string]bool, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, nil, fmt.Errorf("mcpServers: %w", err)
	}
	trusted := map[string]bool{}
	for name, one := range m {
		var fields map[string]json.RawMessage
		if json.Unmarshal(one, &fields) != nil || fields["trust_hints"] == nil {
			continue // not an object, or nothing to take: DecodeServers says what is wrong
		}
		var t bool
		if err := json.Unmarshal(fields["trust_hints"], &t); err != nil {
			return nil, nil, fmt.Errorf("mcpServers.%s.trust_hints: want true or false, got %s", name, fields["trust_hints"])
		}
		delete(fields, "trust_hints")
		b, err := json.Marshal(fields)
		if err != nil {
			return nil, nil, fmt.Errorf("mcpServers.%s: %w", name, err)
		}
		m[name], trusted[name] = b, t
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, nil, fmt.Errorf("mcpServers: %w", err)
	}
	return b, trusted, nil
}

// Put adds or replaces one server (validated first).
func (s Store) Put(srv Server) error {
	if err := srv.Validate(); err != nil {
		return err
	}
	all, err := s.Load()
	if err != nil {
		return err
	}
	out := []Server{srv}
	for _, o := range all {
		if o.Name != srv.Name {
			out = append(out, o)
		}
	}
	return s.save(out)
}

// Remove deletes one server; removing a server that is not there is an
// error naming it.
func (s Store) Remove(name string) error {
	all, err := s.Load()
	if err != nil {
		return err
	}
	out := all[:0]
	for _, o := range all {
		if o.Name != name {
			out = append(out, o)
		}
	}
	if len(out) == len(all) {
		return fmt.Errorf("no mcp server %q in %s", name, s.Path)
	}
	return s.save(out)
}

func (s Store) save(servers []Server) error {
	sort.Slice(servers, func(i, j int) bool { return servers[i].Name < servers[j].Name })
	m := make(map[string]Server, len(servers))
	for _, srv := range servers {
		m[srv.Name] = srv
	}
	b, err := json.MarshalIndent(map[string]any{"mcpServers": m}, "", "  ")
	if err != nil {
		return fmt.Errorf("mcp servers file %s: %w", s.Path, err)
	}
	// 0600: headers and env often hold tokens.
	if err := atomicfile.Write(s.Path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("mcp servers file %s: %w", s.Path, err)
	}
	return nil
}
