package settings

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/cmdscope"
)

// Rule is one standing "always" approval. It allows Tool in Workspace
// (empty: every workspace, as the unscoped approvals of older settings
// did) and, for run_command, only what cmdscope proves is in its scope:
// CommandPrefix is the program and its subcommand as one line ("git
// status", "ls"), covering single simple commands of that program and
// subcommand; with Exact set, CommandPrefix is the one line covered. A
// prefix written before scopes existed (the approved line's first word,
// "git") covers the commands of that program the parser proves, so an old
// rule only got narrower.
type Rule struct {
	Tool          string `json:"tool" schema:"minLength=1"`
	Workspace     string `json:"workspace,omitempty"`
	CommandPrefix string `json:"commandPrefix,omitempty"`
	// Exact: CommandPrefix is the whole line approved (an interpreter, a
	// build runner), not a program to cover. Older versions of the app,
	// which do not know it, read the line as a prefix.
	Exact bool `json:"exact,omitempty"`
	// Host scopes a web_fetch rule to one host ("example.com", with its
	// port when the URL named one): fetching sends data out of the
	// workspace, so an approval covers the host approved, never the web.
	Host string `json:"host,omitempty"`
}

// runCommandTool is the built-in tool whose rules carry a command scope.
const runCommandTool = "run_command"

// WebFetchTool is the built-in tool whose rules carry a host scope.
const WebFetchTool = "web_fetch"

// FetchHost is the host a web_fetch call's url names, lower case and with
// its port when it has one; "" when the url is missing, not http(s) or has
// no host (no approval can cover such a call).
func FetchHost(args json.RawMessage) string {
	var a struct {
		URL string `json:"url"`
	}
	_ = json.Unmarshal(args, &a) // no url: no host, never a match
	u, err := url.Parse(strings.TrimSpace(a.URL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return ""
	}
	return strings.ToLower(u.Host)
}

// AlwaysRule is the rule an approval of the call writes: the tool in the
// session's workspace, and for run_command the scope cmdscope allows
// ("always" for `go test ./...` covers `go test …`, not `go run`). A
// run_command no approval may cover (assignments, wrappers, options that
// run programs, shell syntax) gives a rule with no CommandPrefix; callers
// ask CommandScope why and approve once.
func AlwaysRule(tool, workspace string, args json.RawMessage) Rule {
	r := Rule{Tool: tool, Workspace: cleanWorkspace(workspace)}
	if tool == WebFetchTool {
		r.Host = FetchHost(args)
	}
	if tool == runCommandTool {
		if sc, ok := CommandScope(args).Scope(); ok {
			r.CommandPrefix, r.Exact = sc.Prefix(), sc.Exact != ""
			if r.Exact {
				r.CommandPrefix = sc.Exact
			}
		}
	}
	return r
}

// CommandScope is what an approval of a run_command call may cover.
func CommandScope(args json.RawMessage) cmdscope.Analysis {
	return cmdscope.Analyze(commandOf(args))
}

// Scope is the rule's run_command scope.
func (r Rule) Scope() cmdscope.Scope {
	if r.Exact {
		return cmdscope.Scope{Exact: r.CommandPrefix}
	}
	return cmdscope.ParsePrefix(r.CommandPrefix)
}

// Allows reports whether the rule allows this call.
func (r Rule) Allows(tool, workspace string, args json.RawMessage) bool {
	if r.Tool != tool {
		return false
	}
	if r.Workspace != "" && r.Workspace != cleanWorkspace(workspace) {
		return false
	}
	if tool == WebFetchTool {
		// A rule written with a host covers that host only; one without
		// (a bare "always" the user wrote by hand) every host, as for
		// other tools.
		return r.Host == "" || r.Host == FetchHost(args)
	}
	if tool != runCommandTool || r.CommandPrefix == "" {
		// A run_command rule without a prefix (a legacy "always") allows
		// every command, as it did when it was written.
		return true
	}
	return r.Scope().Covers(commandOf(args))
}

// Describe is the rule as Settings lists it.
func (r Rule) Describe() string {
	where := "in every workspace"
	if r.Workspace != "" {
		where = "in " + r.Workspace
	}
	if sc := r.Scope(); r.Tool == runCommandTool && (sc.Program != "" || sc.Exact != "") {
		return r.Tool + " " + sc.String() + " " + where
	}
	if r.CommandPrefix != "" {
		return r.Tool + " `" + r.CommandPrefix + " …` " + where
	}
	if r.Host != "" {
		return r.Tool + " of " + r.Host + " " + where
	}
	return r.Tool + " " + where
}

func commandOf(args json.RawMessage) string {
	var a struct {
		Command string `json:"command"`
	}
	_ = json.Unmarshal(args, &a) // no command: an empty prefix, never a match
	return a.Command
}

func cleanWorkspace(w string) string {
	if w == "" {
		return ""
	}
	return filepath.Clean(w)
}

// Allows reports whether a standing approval allows the call.
func (s Settings) Allows(tool, workspace string, args json.RawMessage) bool {
	if slices.Contains(s.AlwaysApprove, tool) {
		return true
	}
	for _, r := range s.Rules {
		if r.Allows(tool, workspace, args) {
			return true
		}
	}
	return false
}

// AlwaysRules lists every standing approval, the unscoped legacy ones as
// rules with no workspace.
func (s Settings) AlwaysRules() []Rule {
	out := make([]Rule, 0, len(s.AlwaysApprove)+len(s.Rules))
	for _, t := range s.AlwaysApprove {
		out = append(out, Rule{Tool: t})
	}
	return append(out, s.Rules...)
}

// AddRule saves a rule (once).
func (f *File) AddRule(r Rule) error {
	return f.Update(func(s *Settings) {
		if !slices.Contains(s.Rules, r) {
			s.Rules = append(s.Rules, r)
		}
	})
}

// RevokeRule removes a rule; for a rule with no scope, the legacy entry of
// its tool too.
func (f *File) RevokeRule(r Rule) error {
	return f.Update(func(s *Settings) {
		s.Rules = slices.DeleteFunc(s.Rules, func(x Rule) bool { return x == r })
		if r.Workspace == "" && r.CommandPrefix == "" {
			s.AlwaysApprove = slices.DeleteFunc(s.AlwaysApprove, func(t string) bool { return t == r.Tool })
		}
	})
}
