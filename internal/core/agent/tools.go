package agent

import (
	"slices"

	filetools "github.com/reasonix/reasonix-desktop/internal/core/tools"
	"github.com/reasonix/reasonix-desktop/internal/core/tools/shell"
	"github.com/reasonix/reasonix-desktop/internal/core/tools/web"
	"github.com/reasonix/reasonix-desktop/internal/extensions/gate"
)

// Tool is one tool the model may call (internal/plugins/host/extension).
type Tool = gate.Tool

// ErrOutsideWorkspace marks a path that escapes the workspace root.
var ErrOutsideWorkspace = filetools.ErrOutsideWorkspace

// Confine resolves p against root and refuses anything outside it,
// following symlinks of the part of the path that exists (the file tools'
// own rule, internal/core/tools).
func Confine(root, p string) (string, error) { return filetools.Confine(root, p) }

// The built-in tools that run without asking: they read the workspace or
// the chat's own state. Every other built-in asks, whatever its package
// says: the file writers and commands change the workspace, and web_fetch
// can carry workspace data out of it (its approvals cover one host).
var (
	readOnlyTools = []string{"read_file", "list_dir", "ls", "glob", "grep", "bash_output", "wait"}
	askingTools   = []string{"write_file", "edit_file", "multi_edit", "move_file", "run_command", "kill_shell", "web_fetch"}
)

// BuiltinTools are the host's workspace tools shared by every chat: the
// file tools, run_command and web_fetch (private addresses refused). The
// todo list and the background-job tools belong to one chat (chatkit.go).
func BuiltinTools() []Tool {
	return builtinSet(func() web.Options { return web.Options{} })
}

// builtinTools are BuiltinTools with web_fetch following the settings.
func (c *Core) builtinTools() []Tool {
	return builtinSet(func() web.Options { return web.Options{AllowPrivate: c.settings.Get().WebFetchPrivate} })
}

func builtinSet(opts func() web.Options) []Tool {
	out := append(filetools.Builtins(), shell.RunCommandTool(), web.FetchTool(opts))
	return withPolicy(out)
}

// withPolicy sets ReadOnly on the built-ins by the host's rule above.
func withPolicy(ts []Tool) []Tool {
	for i := range ts {
		switch {
		case slices.Contains(readOnlyTools, ts[i].Name):
			ts[i].ReadOnly = true
		case slices.Contains(askingTools, ts[i].Name):
			ts[i].ReadOnly = false
		}
	}
	return ts
}
