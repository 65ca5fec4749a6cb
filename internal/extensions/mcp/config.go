package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"sort"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
)

// Transport types of a server entry, as the Reasonix host spells them.
const (
	TypeStdio = "stdio" // a local process over stdin/stdout (the default)
	TypeHTTP  = "http"  // Streamable HTTP
	TypeSSE   = "sse"   // the older HTTP+SSE transport
)

// Server is one configured MCP server: an entry of a package's mcpServers
// or of the user's settings. The entry's shape and JSON names are
// mcpspec.Server, the one definition the package loader reads too; what is
// added here is the entry's name and where it comes from and runs.
type Server struct {
	// Name is the key the entry had in its mcpServers map.
	Name string `json:"-"`
	mcpspec.Server

	// Dir is the working directory of a stdio server (a package's root);
	// Source says where the entry came from ("settings", "plugin <name>").
	// Neither is part of the entry's JSON.
	Dir    string `json:"-"`
	Source string `json:"-"`

	// TrustHints is the user's choice to let this server's readOnlyHint
	// skip the approval of its tools. It is read only from the user's own
	// file (Store) and written there by `mcp add --trust-hints`: it is not
	// in mcpspec.Server, so a package's manifest that sets it is refused
	// as an unknown field (a package cannot vouch for itself).
	TrustHints bool `json:"trust_hints,omitempty"`
}

// Transport is the entry's type with the default applied.
func (s Server) Transport() string {
	if t := strings.ToLower(strings.TrimSpace(s.Type)); t != "" {
		return t
	}
	if s.Command == "" && s.URL != "" {
		return TypeHTTP
	}
	return TypeStdio
}

// Starts reports whether the server starts with the host (auto_start,
// true unless set false).
func (s Server) Starts() bool { return s.AutoStart == nil || *s.AutoStart }

// Validate reports the first thing wrong with the entry, naming the field.
func (s Server) Validate() error {
	if err := mcpspec.CheckName(s.Name); err != nil {
		return err
	}
	switch t := s.Transport(); t {
	case TypeStdio:
		if strings.TrimSpace(s.Command) == "" {
			return fmt.Errorf("mcp server %q: command: required for a stdio server", s.Name)
		}
		if s.URL != "" {
			return fmt.Errorf("mcp server %q: url: not used by a stdio server (set type to http or sse)", s.Name)
		}
	case TypeHTTP, TypeSSE:
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("mcp server %q: url: want an http(s) URL, got %q", s.Name, s.URL)
		}
		if s.Command != "" {
			return fmt.Errorf("mcp server %q: command: not used by a %s server", s.Name, t)
		}
	default:
		return fmt.Errorf("mcp server %q: type: %q is not stdio, http or sse", s.Name, s.Type)
	}
	return nil
}

// DecodeServers reads an mcpServers object strictly: an unknown field is
// an error naming its path (the Reasonix host rejects camelCase autoStart
// the same way), and every entry is validated. The result is sorted by
// name, the order servers start in.
func DecodeServers(raw json.RawMessage) ([]Server, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("mcpServers: %w", err)
	}
	out := make([]Server, 0, len(m))
	for name, one := range m {
		s, err := decodeServer(name, one)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// decodeServer is the one place an entry's JSON becomes a Server. It
// decodes the bare mcpspec.Server, so a type error reads "Go struct field
// Server.args", not the embedding's path.
func decodeServer(name string, raw json.RawMessage) (Server, error) {
	var e mcpspec.Server
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return Server{}, fmt.Errorf("mcpServers.%s: %w", name, err)
	}
	if dec.More() {
		return Server{}, fmt.Errorf("mcpServers.%s: trailing data", name)
	}
	s := Server{Name: name, Server: e}
	return s, s.Validate()
}

// Merge is the servers of the packages with the user's own, as the real
// host merges them: the user's entry wins on a name both have (the user
// chose it; a package only offers); of two packages naming one server the
// first keeps it, silently when both entries are the same. Each entry left
// out is a warning in the real host's words ("<pkg>: plugin MCP server "x"
// skipped because config already defines that name", "... conflicts with
// package <owner> and was skipped"); the rest are returned, so one broken
// package does not stop the others. Callers pass packages in name order,
// as the store lists them, which makes the winner the same at every start.
// The result is sorted by name, the order servers start in.
func Merge(user []Server, packages ...[]Server) ([]Server, []string) {
	byName := map[string]Server{}
	for _, s := range user {
		byName[s.Name] = s
	}
	owner := map[string]string{} // server name → the package whose entry runs
	var warnings []string
	for _, pkg := range packages {
		for _, s := range pkg {
			name := strings.TrimPrefix(s.Source, "plugin ")
			prev, taken := byName[s.Name]
			switch first, byPackage := owner[s.Name]; {
			case !taken:
				byName[s.Name], owner[s.Name] = s, name
			case byPackage && reflect.DeepEqual(prev.Server, s.Server):
				// the same entry twice: nothing to say
			case byPackage:
				warnings = append(warnings, fmt.Sprintf("%s: plugin MCP server %q conflicts with package %s and was skipped", name, s.Name, first))
			default:
				warnings = append(warnings, fmt.Sprintf("%s: plugin MCP server %q skipped because config already defines that name", name, s.Name))
			}
		}
	}
	out := make([]Server, 0, len(byName))
	for _, s := range byName {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, warnings
}

// ToolName is the host's name of a server's tool: mcp__<server>__<tool>.
func ToolName(server, tool string) string { return "mcp__" + server + "__" + tool }

// ErrNotMCPTool is SplitToolName of a name without the mcp__ form.
var ErrNotMCPTool = errors.New("not an mcp__<server>__<tool> name")

// SplitToolName is ToolName's inverse. A valid server name holds no "__"
// and does not end with '_', so the first "__" after the prefix is the one
// ToolName put there: the split is unique whatever the tool's own name
// (server "a" with tool "_x" is mcp__a___x; a server "a_" that would give
// the same name is refused by Validate).
func SplitToolName(name string) (server, tool string, err error) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return "", "", ErrNotMCPTool
	}
	server, tool, ok = strings.Cut(rest, "__")
	if !ok || server == "" || tool == "" {
		return "", "", ErrNotMCPTool
	}
	return server, tool, nil
}
