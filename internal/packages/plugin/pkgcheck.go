package plugin

import (
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// The files hooks and MCP servers name in the package (a hook script, a
// contextFile, a server's program) are checked at every load, the install
// preview's included: one that resolves outside the root is refused,
// naming it. What runs or is read later opens the same names.

// rootPrefixes are the spellings of the plugin root a command line or a
// path may start with.
var rootPrefixes = []string{"${REASONIX_PLUGIN_ROOT}", "${CLAUDE_PLUGIN_ROOT}", "$REASONIX_PLUGIN_ROOT", "$CLAUDE_PLUGIN_ROOT"}

// packagePath is the root-relative name v gives a package file: after a
// root placeholder, or (relative true) a relative path as written.
func packagePath(v string, relative bool) (string, bool) {
	v = strings.TrimSpace(v)
	for _, p := range rootPrefixes {
		if rest, ok := strings.CutPrefix(v, p); ok && (rest == "" || rest[0] == '/' || rest[0] == '\\') {
			rest = strings.TrimLeft(rest, `/\`)
			if rest == "" {
				return ".", true
			}
			return rest, true
		}
	}
	if relative && v != "" && !filepath.IsAbs(v) && !strings.HasPrefix(v, "$") {
		return v, true
	}
	return "", false
}

// checkNamed refuses a package file name that resolves outside the root.
func checkNamed(pfs *PackageFS, at, v string, relative bool) error {
	rel, ok := packagePath(v, relative)
	if !ok {
		return nil
	}
	if _, err := pfs.Stat(rel); errors.Is(err, ErrLeavesPackage) {
		return merr(at, "%v", err)
	}
	return nil
}

// checkHookFiles checks the files package hooks name.
func checkHookFiles(pfs *PackageFS, hooks map[string][]Hook) error {
	for _, event := range slices.Sorted(maps.Keys(hooks)) {
		for i, h := range hooks[event] {
			at := joinIndex(protocol.JoinPath("hooks", event), i)
			if err := checkNamed(pfs, at+".contextFile", h.ContextFile, true); err != nil {
				return err
			}
			cmd := h.Command
			if h.ShellCommand && h.Args == nil {
				if f := strings.Fields(cmd); len(f) > 0 {
					cmd = strings.Trim(f[0], `"'`)
				}
			}
			if err := checkNamed(pfs, at+".command", cmd, !h.ShellCommand); err != nil {
				return err
			}
			if h.Args != nil {
				for j, a := range *h.Args {
					if err := checkNamed(pfs, joinIndex(at+".args", j), a, false); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// checkMCPFiles checks the programs and arguments package MCP servers name
// under the root.
func checkMCPFiles(pfs *PackageFS, servers map[string]mcpspec.Server) error {
	for _, name := range slices.Sorted(maps.Keys(servers)) {
		s := servers[name]
		at := protocol.JoinPath("mcpServers", name)
		rel := strings.ContainsAny(s.Command, `/\`)
		if err := checkNamed(pfs, at+".command", s.Command, rel); err != nil {
			return err
		}
		for j, a := range s.Args {
			if err := checkNamed(pfs, joinIndex(at+".args", j), a, false); err != nil {
				return err
			}
		}
	}
	return nil
}
