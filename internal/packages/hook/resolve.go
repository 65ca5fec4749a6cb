package hook

import (
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/foundation/toolnames"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// Resolved is one package hook ready to run: paths made absolute against
// the plugin root, the plugin's variables expanded and added to its
// environment.
type Resolved struct {
	Event   Event
	Plugin  string // the package name
	Match   string
	Command string   // absolute unless the entry is a shell command line
	Argv    []string // non-nil: exec form (Command run with these arguments)
	// ContextFile, when set, is read and taken as the hook's stdout instead
	// of running anything; it is opened inside Root (plugin.PackageFS).
	ContextFile string
	// Root is the package folder: the context file must resolve inside it.
	Root          string
	Shell         string // auto, bash, powershell, pwsh, cmd ("" is auto)
	Async         bool
	PayloadFormat string
	Description   string
	Timeout       time.Duration
	Cwd           string
	Env           map[string]string // the entry's env plus the plugin's variables

	// The settings bus's own knobs (its hooks are Resolved too, see bus.go):
	// Name labels the hook instead of plugin, event and command; Tools, when
	// set, are the exact tool names it fires for (at a tool event); and
	// FailClosed makes any run but a clean pass block: a failure to start,
	// a timeout, a signal, an exit other than 0.
	Name       string
	Tools      []string
	FailClosed bool

	re    *regexp.Regexp // the compiled match; nil for every tool
	badRe bool           // match does not compile: the hook never fires
}

// Env is what a plugin hook's environment says about the host.
type Env struct {
	Home      string // the host's data directory (REASONIX_HOME)
	Workspace string // the session's workspace root
}

// Resolve lists the hooks of pkgs, package by package in the order given,
// events in the Reasonix host's order, entries as listed. Entries of unknown
// events or without a command or contextFile are left out.
func Resolve(pkgs []plugin.Package, env Env) []Resolved {
	var out []Resolved
	for _, p := range pkgs {
		events := make([]string, 0, len(p.Hooks))
		for e := range p.Hooks {
			events = append(events, e)
		}
		sort.Strings(events) // a map has no order; the real host sorts too
		for _, name := range events {
			if !Known(Event(name)) {
				continue
			}
			for _, h := range p.Hooks[name] {
				if r, ok := resolve(p, Event(name), h, env); ok {
					out = append(out, r)
				}
			}
		}
	}
	return out
}

func resolve(p plugin.Package, e Event, h plugin.Hook, env Env) (Resolved, bool) {
	root := p.Root
	// A package speaks Reasonix or Claude: FormatBus is the settings bus's
	// (fail-closed, its own answer), never a manifest's to choose, and any
	// other name always ran as a Reasonix hook.
	format := h.PayloadFormat
	if format != FormatClaude {
		format = ""
	}
	r := Resolved{Event: e, Plugin: p.Name, Root: root, Match: h.Match, Shell: strings.ToLower(strings.TrimSpace(h.Shell)),
		Async: h.Async, PayloadFormat: format, Description: h.Description, Timeout: DefaultTimeout(e)}
	if h.Timeout > 0 {
		r.Timeout = time.Duration(h.Timeout) * time.Millisecond
	}
	if cf := expandRoot(h.ContextFile, root); cf != "" {
		r.ContextFile = underRoot(cf, root)
	}
	cmd := expandRoot(h.Command, root)
	if strings.TrimSpace(cmd) == "" && r.ContextFile == "" {
		return Resolved{}, false
	}
	if h.Args != nil {
		r.Argv = make([]string, 0, len(*h.Args))
		for _, a := range *h.Args {
			r.Argv = append(r.Argv, expandRoot(a, root))
		}
		// As in the Reasonix host: a command that is not marked as a shell
		// command line is a path relative to the plugin root, in either form.
		if cmd != "" && !h.ShellCommand && !filepath.IsAbs(cmd) {
			cmd = filepath.Join(root, filepath.FromSlash(cmd))
		}
		r.Command = cmd
	} else if h.Command != "" {
		r.Command = shellLine(h, root, r.Shell)
	}
	r.Cwd = root
	if c := expandRoot(h.Cwd, root); c != "" {
		r.Cwd = underRoot(c, root)
	}
	// Claude Code runs every hook in the project (hookify reads its rules
	// from .claude/ there, security-guidance reviews the project's git
	// diff), so a Claude-format hook that names no folder of its own runs
	// in the workspace. The real host runs it in the package (its importer
	// writes cwd "."); this host follows Claude Code, as the hooks expect.
	if h.PayloadFormat == FormatClaude && (h.Cwd == "" || filepath.Clean(filepath.FromSlash(h.Cwd)) == ".") && env.Workspace != "" {
		r.Cwd = env.Workspace
	}
	r.Env = map[string]string{}
	for k, v := range h.Env {
		if strings.TrimSpace(k) != "" {
			r.Env[k] = expandRoot(v, root)
		}
	}
	// A manifest's env values are masked wherever plugin text is shown
	// (DESIGN "Redaction"), the hook's own output first.
	redact.RegisterEnv(r.Env)
	r.Env["REASONIX_PLUGIN_ROOT"] = root
	r.Env["REASONIX_PLUGIN_NAME"] = p.Name
	if p.Version != "" {
		r.Env["REASONIX_PLUGIN_VERSION"] = p.Version
	}
	r.Env["REASONIX_HOME"] = env.Home
	r.Env["REASONIX_WORKSPACE_ROOT"] = env.Workspace
	r.Env["CLAUDE_PLUGIN_ROOT"] = root
	r.Env["CLAUDE_PROJECT_DIR"] = env.Workspace
	if m := strings.TrimSpace(r.Match); m != "" && m != "*" {
		re, err := regexp.Compile("^(?:" + m + ")$")
		r.re, r.badRe = re, err != nil
	}
	return r, true
}

// underRoot makes p absolute against root (a relative path stays in root's
// tree only as far as the manifest checks made sure; an absolute one is the
// author's choice, as in the Reasonix host).
func underRoot(p, root string) string {
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(root, p)
}

// rootTokens are the spellings of the plugin root a manifest may use.
var rootTokens = []struct {
	token    string
	boundary bool // "$NAME" must not run on into a longer variable name
}{
	{"${CLAUDE_PLUGIN_ROOT}", false}, {"$CLAUDE_PLUGIN_ROOT", true}, {"%CLAUDE_PLUGIN_ROOT%", false},
	{"${REASONIX_PLUGIN_ROOT}", false}, {"$REASONIX_PLUGIN_ROOT", true}, {"%REASONIX_PLUGIN_ROOT%", false},
}

// expandRoot replaces every spelling of the plugin root in v by root, in
// one pass (text of root is never expanded again).
func expandRoot(v, root string) string {
	var b strings.Builder
	last, changed := 0, false
	for i := 0; i < len(v); {
		n := rootTokenAt(v[i:])
		if n == 0 {
			i++
			continue
		}
		b.WriteString(v[last:i])
		b.WriteString(root)
		i += n
		last, changed = i, true
	}
	if !changed {
		return v
	}
	b.WriteString(v[last:])
	return b.String()
}

func rootTokenAt(s string) int {
	for _, t := range rootTokens {
		if !strings.HasPrefix(s, t.token) {
			continue
		}
		if t.boundary && len(s) > len(t.token) && nameByte(s[len(t.token)]) {
			continue
		}
		return len(t.token)
	}
	return 0
}

func nameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// shellLine is the command line of a shell-form entry, the root in it only
// as a quoted reference to its variable (see referRoot). A command not
// marked as a shell command line is a path relative to the root (its text
// may go on with arguments), or an absolute one, which may be under the
// root (the loader makes some so).
func shellLine(h plugin.Hook, root, shell string) string {
	line := h.Command
	if !h.ShellCommand {
		rel, under := filepath.FromSlash(line), !filepath.IsAbs(line)
		if !under && root != "" {
			if r, ok := strings.CutPrefix(rel, root+string(filepath.Separator)); ok {
				rel, under = r, true
			}
		}
		if under {
			line = "${CLAUDE_PLUGIN_ROOT}" + string(filepath.Separator) + rel
		}
	}
	return referRoot(line, root, kindOf(shell))
}

// windowsShell: the command line is read by cmd.exe or PowerShell.
func windowsShell(shell string) bool {
	switch shell {
	case "cmd", "powershell", "pwsh":
		return true
	case "bash":
		return false
	}
	return runtime.GOOS == "windows"
}

// Matches reports whether h fires for a tool call of tool (or, at an event
// without a tool, at all). A match that does not compile never fires.
func (h Resolved) Matches(tool string) bool {
	if len(h.Tools) > 0 && usesToolMatcher(h.Event) && !slices.Contains(h.Tools, tool) {
		return false
	}
	if !usesToolMatcher(h.Event) || h.re == nil && !h.badRe {
		return true
	}
	if h.badRe {
		return false
	}
	if h.PayloadFormat == FormatClaude {
		// "Edit|Write", "Bash", "BashOutput": Claude's current and legacy
		// names of the tool, and its own name.
		for _, name := range toolnames.ClaudeMatchNames(tool) {
			if h.re.MatchString(name) {
				return true
			}
		}
		return false
	}
	return h.re.MatchString(tool)
}

// blocks: an exit 2 or a timeout of h blocks the event.
func (h Resolved) blocks() bool {
	return h.FailClosed || Gating(h.Event) || h.Event == PermissionRequest && h.PayloadFormat == FormatClaude
}

// Label names the hook for the user: its plugin, event and command.
func (h Resolved) Label() string {
	if h.Name != "" {
		return h.Name
	}
	cmd := h.Command
	if cmd == "" && h.ContextFile != "" {
		cmd = "context:" + h.ContextFile
	}
	if r := []rune(cmd); len(r) > 60 {
		cmd = "…" + string(r[len(r)-59:]) // the end names the script; the root is the plugin's
	}
	return "hook [" + h.Plugin + "/" + string(h.Event) + "] " + cmd
}
