package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/extensions/mcp"
	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
)

// Importing servers the user already configured elsewhere: Claude
// Desktop's claude_desktop_config.json and Claude Code's .mcp.json both
// keep them under "mcpServers", in the entry shape mcp.json uses. Those
// files hold more than servers (Claude Desktop's preferences) and their
// entries fields this host does not know, so an import reads them
// leniently and says what it left out, where mcp.json itself is strict.

// entryFields are the JSON names of an entry's fields (mcpspec.Server's
// tags), the ones an import keeps.
var entryFields = func() map[string]bool {
	out := map[string]bool{}
	t := reflect.TypeFor[mcpspec.Server]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		out[name] = true
	}
	return out
}()

// MCPImportEntry is one server of an imported file.
type MCPImportEntry struct {
	Name      string
	Transport string // stdio, http or sse
	// What is the command line or the URL, for the preview.
	What string
	// Ignored lists the entry's fields this host does not read.
	Ignored []string `json:",omitempty"`
	// Err says why the entry cannot be added (an invalid entry or name).
	Err  string `json:",omitempty"`
	spec MCPServerSpec
}

// MCPImport is the preview of an import: what will be added, what is
// left out because mcp.json already has the name, and what is invalid.
type MCPImport struct {
	File    string
	Add     []MCPImportEntry
	Clashes []MCPImportEntry // the name is taken in mcp.json: the user's entry stays
	Invalid []MCPImportEntry
}

// PreviewMCPImport reads a claude_desktop_config.json or .mcp.json and
// says what importing it would do, changing nothing.
func PreviewMCPImport(layout Layout, path string) (MCPImport, error) {
	imp := MCPImport{File: path}
	b, err := os.ReadFile(path)
	if err != nil {
		return imp, fmt.Errorf("import mcp servers: %w", err)
	}
	var doc struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return imp, fmt.Errorf("import mcp servers: %s: %w", path, err)
	}
	if len(doc.MCPServers) == 0 {
		return imp, fmt.Errorf("import mcp servers: %s has no \"mcpServers\"", path)
	}
	have, err := mcpStore(layout).Load()
	if err != nil {
		return imp, err
	}
	taken := map[string]bool{}
	for _, s := range have {
		taken[s.Name] = true
	}
	names := make([]string, 0, len(doc.MCPServers))
	for name := range doc.MCPServers {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		e := importEntry(name, doc.MCPServers[name])
		switch {
		case e.Err != "":
			imp.Invalid = append(imp.Invalid, e)
		case taken[name]:
			imp.Clashes = append(imp.Clashes, e)
		default:
			imp.Add = append(imp.Add, e)
		}
	}
	return imp, nil
}

// importEntry reads one entry leniently: the fields mcp.json knows are
// kept, the others named in Ignored; the result is validated as any entry.
func importEntry(name string, raw json.RawMessage) MCPImportEntry {
	e := MCPImportEntry{Name: name}
	var known mcpspec.Server
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		e.Err = fmt.Sprintf("not an object: %v", err)
		return e
	}
	if err := json.Unmarshal(raw, &known); err != nil {
		e.Err = err.Error()
		return e
	}
	// Claude Desktop's "disabled": true is an entry kept but not started,
	// which is what auto_start false means here.
	disabled := false
	if d, ok := fields["disabled"]; ok {
		if json.Unmarshal(d, &disabled) != nil {
			e.Err = fmt.Sprintf("disabled: want true or false, got %s", d)
			return e
		}
		delete(fields, "disabled")
	}
	for k := range fields {
		if !entryFields[k] {
			e.Ignored = append(e.Ignored, k)
		}
	}
	sort.Strings(e.Ignored)
	srv := mcp.Server{Name: name, Server: known}
	if disabled {
		srv.AutoStart = new(bool)
	}
	srv.Imported = false // that mark is the package loader's, for Claude Code files inside a package
	e.Transport = srv.Transport()
	if srv.Command != "" {
		e.What = strings.Join(append([]string{srv.Command}, srv.Args...), " ")
	} else {
		e.What = srv.URL
	}
	if err := srv.Validate(); err != nil {
		e.Err = err.Error()
		return e
	}
	e.spec = specOf(srv)
	return e
}

// ImportMCPServers adds the servers PreviewMCPImport lists under Add and
// returns that preview; a clash keeps the user's entry, an invalid entry
// is left out. Nothing is added when the file cannot be read.
func ImportMCPServers(layout Layout, path string) (MCPImport, error) {
	imp, err := PreviewMCPImport(layout, path)
	if err != nil {
		return imp, err
	}
	for _, e := range imp.Add {
		if err := AddMCPServer(layout, e.spec); err != nil {
			return imp, fmt.Errorf("import mcp server %s: %w", e.Name, err)
		}
	}
	return imp, nil
}

// Summary says in lines what the import does (the CLI prints it, the
// window shows it before the user confirms).
func (imp MCPImport) Summary(done bool) string {
	var b bytes.Buffer
	verb := "will be added"
	if done {
		verb = "added"
	}
	line := func(e MCPImportEntry, note string) {
		fmt.Fprintf(&b, "  %s (%s) %s%s\n", e.Name, e.Transport, e.What, note)
	}
	if len(imp.Add) > 0 {
		fmt.Fprintf(&b, "%s:\n", verb)
		for _, e := range imp.Add {
			note := ""
			if len(e.Ignored) > 0 {
				note = "  [ignored: " + strings.Join(e.Ignored, ", ") + "]"
			}
			line(e, note)
		}
	}
	if len(imp.Clashes) > 0 {
		fmt.Fprintf(&b, "left out, the name is already in your mcp.json (yours is kept):\n")
		for _, e := range imp.Clashes {
			line(e, "")
		}
	}
	if len(imp.Invalid) > 0 {
		fmt.Fprintf(&b, "left out, invalid:\n")
		for _, e := range imp.Invalid {
			fmt.Fprintf(&b, "  %s: %s\n", e.Name, e.Err)
		}
	}
	if len(imp.Add) == 0 {
		fmt.Fprintf(&b, "nothing to add from %s\n", imp.File)
	}
	return b.String()
}
