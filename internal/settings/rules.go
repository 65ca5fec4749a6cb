package settings

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
)

// Rule is one standing "always" approval. It allows Tool in Workspace
// (empty: every workspace, as the unscoped approvals of older settings
// did) and, for run_command, only commands that are CommandPrefix or start
// with CommandPrefix and a space, with no shell operator that could chain
// another command onto the approved one.
type Rule struct {
	Tool          string `json:"tool" schema:"minLength=1"`
	Workspace     string `json:"workspace,omitempty"`
	CommandPrefix string `json:"commandPrefix,omitempty"`
}

// runCommandTool is the built-in tool whose rules carry a command prefix.
const runCommandTool = "run_command"

// shellOperators are what could run a second command after an approved
// prefix ("go test; rm -rf ~"): a command containing one never matches a
// prefix rule and is asked about.
const shellOperators = ";&|`$()<>\n\r"

// AlwaysRule is the rule an "always" answer writes: the tool in the
// session's workspace, and for run_command the command's first word (the
// program), so "always" for `go test ./...` covers `go vet` but not `rm`.
func AlwaysRule(tool, workspace string, args json.RawMessage) Rule {
	r := Rule{Tool: tool, Workspace: cleanWorkspace(workspace)}
	if tool == runCommandTool {
		if fields := strings.Fields(commandOf(args)); len(fields) > 0 {
			r.CommandPrefix = fields[0]
		}
	}
	return r
}

// Allows reports whether the rule allows this call.
func (r Rule) Allows(tool, workspace string, args json.RawMessage) bool {
	if r.Tool != tool {
		return false
	}
	if r.Workspace != "" && r.Workspace != cleanWorkspace(workspace) {
		return false
	}
	if tool != runCommandTool || r.CommandPrefix == "" {
		// A run_command rule without a prefix (a legacy "always") allows
		// every command, as it did when it was written.
		return true
	}
	cmd := strings.TrimSpace(commandOf(args))
	if strings.ContainsAny(cmd, shellOperators) {
		return false
	}
	return cmd == r.CommandPrefix || strings.HasPrefix(cmd, r.CommandPrefix+" ")
}

// Describe is the rule as Settings lists it.
func (r Rule) Describe() string {
	where := "in every workspace"
	if r.Workspace != "" {
		where = "in " + r.Workspace
	}
	if r.CommandPrefix != "" {
		return r.Tool + " `" + r.CommandPrefix + " …` " + where
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
