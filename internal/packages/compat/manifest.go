package compat

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// manifestKey is a component key of a Claude or Codex plugin.json that the
// loader does not read (it reads name, version, description, skills and
// commands, as the real host does), with the file it reads instead, if
// any, and what is lost.
type manifestKey struct {
	key string
	// reads is the path the loader reads for this component anyway; a key
	// naming only it loses nothing.
	reads []string
	lost  string
}

var manifestKeys = []manifestKey{
	{"hooks", []string{"hooks/hooks.json"}, "this host reads hooks only from hooks/hooks.json and .claude/settings.json"},
	{"mcpServers", []string{".mcp.json"}, "this host reads MCP servers only from .mcp.json"},
	{"agents", []string{"agents"}, "this host reads agents only from agents/"},
	{"outputStyles", nil, "this host has no output styles"},
	{"lspServers", nil, "this host runs no language servers"},
	{"apps", nil, "this host has no app connectors"},
	{"monitors", nil, "this host runs no monitors"},
	{"userConfig", nil, "this host asks no plugin settings at enable time: ${user_config.…} stays as written"},
}

// defaultFiles are files Claude Code or Codex read by convention that the
// loader does not.
var defaultFiles = []struct{ file, lost string }{
	{".lsp.json", "its LSP servers are not read: this host runs no language servers"},
	{".app.json", "its app connectors are not read: this host has none"},
}

// manifestFields reports the component keys of the manifest that are not
// read, and the convention files that are not.
func (c *checker) manifestFields() {
	file := c.manifestFile()
	data, err := plugin.ReadPackageFile(c.p.Root, file, maxJSONBytes)
	if err != nil {
		return
	}
	var doc map[string]json.RawMessage
	if json.Unmarshal([]byte(strings.TrimPrefix(string(data), "\uFEFF")), &doc) != nil {
		return
	}
	for _, k := range manifestKeys {
		raw, ok := doc[k.key]
		if !ok || string(raw) == "null" {
			continue
		}
		if k.key == "agents" && c.p.Kind == plugin.PackageCodex {
			// The loader reads agents/ for a Claude package only.
			k.reads, k.lost = nil, "this host reads no agents from a Codex package"
		}
		paths, isPaths := pathList(raw)
		if isPaths && onlyReads(paths, k.reads) {
			continue
		}
		what := "inline"
		if isPaths {
			what = strings.Join(paths, ", ")
		}
		feature := FeaturePackage
		switch k.key {
		case "hooks":
			feature = FeatureHooks
		case "mcpServers":
			feature = FeatureMCP
		case "agents":
			feature = FeatureAgents
		}
		c.add(feature, file, fmt.Sprintf("%q (%s) is not read: %s", k.key, what, k.lost))
	}
	for _, f := range defaultFiles {
		if _, err := plugin.ReadPackageFile(c.p.Root, f.file, maxJSONBytes); err == nil {
			c.add(FeaturePackage, f.file, f.lost)
		}
	}
}

// pathList reads a manifest value that names files: a string or an array
// of strings, each cleaned ("./agents/" is "agents"). ok is false for
// anything else (an inline object).
func pathList(raw json.RawMessage) ([]string, bool) {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{cleanRel(one)}, true
	}
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		for i := range many {
			many[i] = cleanRel(many[i])
		}
		return many, true
	}
	return nil, false
}

func cleanRel(p string) string {
	return strings.TrimPrefix(path.Clean("/"+strings.ReplaceAll(strings.TrimSpace(p), `\`, "/")), "/")
}

// onlyReads reports whether every path is one the loader reads anyway.
func onlyReads(paths, reads []string) bool {
	for _, p := range paths {
		found := false
		for _, r := range reads {
			found = found || p == r
		}
		if !found {
			return false
		}
	}
	return true
}
