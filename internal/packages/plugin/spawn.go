package plugin

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// RootVar is the placeholder expanded to the plugin root at the start of
// runtime.command, as the Reasonix host does; runtime.args and runtime.env
// values are passed as written (the sidecar finds its root in the
// REASONIX_PLUGIN_ROOT variable, which is always set).
const RootVar = "REASONIX_PLUGIN_ROOT"

// Environment variables the host sets last in every sidecar's environment.
const (
	EnvPluginRoot    = "REASONIX_PLUGIN_ROOT"
	EnvPluginName    = "REASONIX_PLUGIN_NAME"
	EnvPluginVersion = "REASONIX_PLUGIN_VERSION"
)

// Interception timeouts (DESIGN "Timeouts").
const (
	ShortHookTimeout   = 5 * time.Second
	DefaultHookTimeout = 30 * time.Second
	MaxHookTimeout     = 60 * time.Second
)

// shells are rejected as runtime.command: sidecars start in exec form only.
var shells = []string{
	"sh", "bash", "dash", "zsh", "ksh", "csh", "tcsh", "fish", "ash", "busybox",
	"cmd", "powershell", "pwsh",
}

// ErrShellCommand is returned by ResolveCommand for a shell command.
var ErrShellCommand = errors.New("exec form only: shells are not allowed")

// ExpandCommand replaces a leading ${REASONIX_PLUGIN_ROOT} of a command with
// root; a placeholder anywhere else stays as written.
func ExpandCommand(command, root string) string {
	command = strings.TrimSpace(command)
	if rest, ok := strings.CutPrefix(command, "${"+RootVar+"}"); ok {
		return filepath.Join(root, rest)
	}
	return command
}

// ResolveCommand expands a leading ${REASONIX_PLUGIN_ROOT} in runtime.command
// (never in runtime.args). The command must be an absolute path after
// expansion and must not be a shell (exec form only). It does not check that
// the file exists.
func (m *Manifest) ResolveCommand(root string) (path string, args []string, err error) {
	cmd := ExpandCommand(m.Runtime.Command, root)
	if !filepath.IsAbs(cmd) {
		return "", nil, fmt.Errorf("runtime.command %q is not an absolute path after ${%s} expansion (use ${%s}/... for files in the plugin)", cmd, RootVar, RootVar)
	}
	cmd = filepath.Clean(cmd)
	if IsShell(cmd) {
		return "", nil, fmt.Errorf("runtime.command %q: %w", cmd, ErrShellCommand)
	}
	return cmd, append([]string{}, m.Runtime.Args...), nil
}

// IsShell reports whether the basename of path names a command shell.
func IsShell(path string) bool {
	base := strings.ToLower(filepath.Base(strings.ReplaceAll(path, `\`, "/")))
	base = strings.TrimSuffix(base, ".exe")
	return slices.Contains(shells, base)
}

// Env builds the sidecar environment: base, then the manifest env (values as
// written, keys in sorted order), then REASONIX_PLUGIN_ROOT,
// REASONIX_PLUGIN_NAME and REASONIX_PLUGIN_VERSION. Entries are deduplicated
// by key keeping the last one, so later entries override earlier ones.
func (m *Manifest) Env(root string, base []string) []string {
	all := slices.Clone(base)
	keys := make([]string, 0, len(m.Runtime.Env))
	for k := range m.Runtime.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		all = append(all, k+"="+m.Runtime.Env[k])
	}
	all = append(all,
		EnvPluginRoot+"="+root,
		EnvPluginName+"="+m.Name,
		EnvPluginVersion+"="+m.Version,
	)
	return dedupeEnv(all)
}

func envKey(kv string) string {
	k := kv
	// Windows keeps per-drive variables like "=C:=C:\dir"; the key starts after the first byte.
	if i := strings.IndexByte(kv[min(1, len(kv)):], '='); i >= 0 {
		k = kv[:i+min(1, len(kv))]
	}
	if runtime.GOOS == "windows" {
		k = strings.ToUpper(k)
	}
	return k
}

func dedupeEnv(env []string) []string {
	last := make(map[string]int, len(env))
	for i, kv := range env {
		last[envKey(kv)] = i
	}
	out := make([]string, 0, len(last))
	for i, kv := range env {
		if last[envKey(kv)] == i {
			out = append(out, kv)
		}
	}
	return out
}

// Timeout is the interception timeout at point: runtime.timeoutMillis when
// positive (capped at 60 s) for every point, else 5 s for input.receive,
// tool.before, tool.after and permission.decision and 30 s for the others.
func (m *Manifest) Timeout(point protocol.HookPoint) time.Duration {
	if ms := m.Runtime.TimeoutMillis; ms > 0 {
		if int64(ms) >= MaxHookTimeout.Milliseconds() {
			return MaxHookTimeout
		}
		return time.Duration(ms) * time.Millisecond
	}
	switch point {
	case protocol.HookInputReceive, protocol.HookToolBefore, protocol.HookToolAfter, protocol.HookPermissionDecision:
		return ShortHookTimeout
	}
	return DefaultHookTimeout
}
