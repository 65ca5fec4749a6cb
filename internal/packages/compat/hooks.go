package compat

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/toolnames"
	"github.com/reasonix/reasonix-desktop/internal/packages/hook"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// The Claude-format files the loader reads from a Claude or Codex package
// (plugin's loadForeign): hooks from both hooks files, servers from
// .mcp.json.
var claudeHookFiles = []string{".claude/settings.json", "hooks/hooks.json"}

const claudeMCPFile = ".mcp.json"

// rawHooks is a Claude hooks file with the fields the loader drops:
// plugin.Hook has no "if" or "asyncRewake", so only the file tells.
type rawHooks struct {
	Hooks map[string][]struct {
		Matcher string `json:"matcher"`
		Match   string `json:"match"`
		Hooks   []struct {
			Type        string    `json:"type"`
			Command     string    `json:"command"`
			Args        *[]string `json:"args"`
			Shell       string    `json:"shell"`
			Async       bool      `json:"async"`
			AsyncRewake bool      `json:"asyncRewake"`
			If          string    `json:"if"`
			Timeout     int       `json:"timeout"`
		} `json:"hooks"`
	} `json:"hooks"`
}

// claudeHookTimeout is how long Claude Code waits for a command hook that
// sets no timeout (its hooks reference: 600 s).
const claudeHookTimeout = 600 * time.Second

// toolEvents are the events whose matcher is read against a tool name;
// the others fire whatever the matcher says.
var toolEvents = []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"}

// plainMatcher is a matcher written as Claude's docs write them: names
// joined by "|". Other regexps are not judged (proving a regexp can never
// match is not attempted, as in the real host).
var plainMatcher = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*(\|[A-Za-z_][A-Za-z0-9_.]*)*$`)

// hookFile reports, for one Claude hooks file, what its loaded hooks ask
// that this host does not do: an "if" it does not evaluate, "asyncRewake",
// a Stop hook that cannot block, a matcher naming tools it lacks, and the
// tool_input fields it cannot give (once per file). The hooks the loader
// skipped are in its warnings already.
func (c *checker) hookFile(rel string) {
	data, err := plugin.ReadPackageFile(c.p.Root, rel, maxJSONBytes)
	if err != nil {
		return
	}
	data = []byte(strings.TrimPrefix(string(data), "\uFEFF"))
	var doc rawHooks
	if json.Unmarshal(data, &doc) != nil {
		return
	}
	if doc.Hooks == nil {
		c.topLevelEvents(rel, data)
		return
	}
	var gaps inputGaps
	untimed, untimedEvents := 0, []string(nil)
	for _, event := range slices.Sorted(maps.Keys(doc.Hooks)) {
		if _, loaded := c.p.Hooks[event]; !loaded {
			continue // an event the loader refused, named in its warnings
		}
		for _, block := range doc.Hooks[event] {
			match := strings.TrimSpace(block.Matcher)
			if match == "" {
				match = strings.TrimSpace(block.Match)
			}
			for _, h := range block.Hooks {
				if t := strings.TrimSpace(h.Type); t != "" && t != "command" || strings.TrimSpace(h.Command) == "" {
					continue
				}
				if sh := strings.ToLower(strings.TrimSpace(h.Shell)); h.Args == nil && sh != "" && sh != "bash" && sh != "powershell" {
					continue
				}
				what := fmt.Sprintf("%s hook %q", event, h.Command)
				if cond := strings.TrimSpace(h.If); cond != "" {
					c.add(FeatureHooks, rel, fmt.Sprintf(`%s has "if": %q, which this host does not evaluate: it runs every time its event fires (and its matcher selects the tool)`, what, cond))
				}
				if h.AsyncRewake {
					how := "it runs to the end before the turn goes on"
					if h.Async {
						how = "it runs in the background, and its exit 2 does not wake the model"
					}
					c.add(FeatureHooks, rel, fmt.Sprintf(`%s uses "asyncRewake", which this host does not support: %s`, what, how))
				}
				if h.Timeout <= 0 {
					untimed++
					if !slices.Contains(untimedEvents, event) {
						untimedEvents = append(untimedEvents, event)
					}
				}
				c.claudeHook(rel, event, h.Command, match, &gaps)
			}
		}
	}
	c.gaps(rel, gaps)
	if untimed > 0 {
		var after []string
		for _, e := range untimedEvents {
			after = append(after, fmt.Sprintf("%s %d s", e, int(hook.DefaultTimeout(hook.Event(e)).Seconds())))
		}
		c.note(FeatureHooks, rel, fmt.Sprintf("%s set no timeout, so this host's own timeouts apply (%s) where Claude Code waits up to %d s for a command hook",
			count(untimed, "hook"), strings.Join(after, ", "), int(claudeHookTimeout.Seconds())))
	}
}

// nativeHooks checks the Claude-format hooks a reasonix-plugin.json
// declares (payloadFormat "claude") as hookFile checks a Claude file's;
// Reasonix-format hooks follow this host's own contract and are not judged.
func (c *checker) nativeHooks() {
	var gaps inputGaps
	for _, event := range slices.Sorted(maps.Keys(c.p.Hooks)) {
		for _, h := range c.p.Hooks[event] {
			if h.PayloadFormat == hook.FormatClaude && h.Command != "" {
				c.claudeHook(c.manifestFile(), event, h.Command, strings.TrimSpace(h.Match), &gaps)
			}
		}
	}
	c.gaps(c.manifestFile(), gaps)
}

// inputGaps are the tools a file's tool hooks may see whose tool_input
// cannot be Claude's: reported once per file, not once per hook.
type inputGaps struct{ webFetch, taskOutput bool }

// claudeHook checks one loaded Claude-format hook: a Stop hook that cannot
// block; for a tool event its matcher and the inputs it may see; for
// another event a matcher, which Claude Code reads (SessionStart's
// "startup|resume", PreCompact's "manual|auto") and this host, like the
// real one, does not.
func (c *checker) claudeHook(rel, event, command, match string, gaps *inputGaps) {
	what := fmt.Sprintf("%s hook %q", event, command)
	if event == "Stop" || event == "SubagentStop" {
		c.add(FeatureHooks, rel, fmt.Sprintf(`%s cannot keep the turn going: this host's %s hooks only observe (an exit 2 or "decision": "block" is not obeyed)`, what, event))
	}
	if !slices.Contains(toolEvents, event) {
		if match != "" && match != "*" {
			c.add(FeatureHooks, rel, fmt.Sprintf("%s has matcher %q, which this host reads only for tool events: it fires every time %s fires", what, match, event))
		}
		return
	}
	c.matcher(rel, what, match)
	gaps.webFetch = gaps.webFetch || selects(match, "WebFetch")
	gaps.taskOutput = gaps.taskOutput || selects(match, "TaskOutput") || selects(match, "BashOutput")
}

func (c *checker) gaps(rel string, g inputGaps) {
	if g.webFetch {
		c.add(FeatureHooks, rel, `a tool hook's matcher selects WebFetch, but this host's web_fetch takes only a URL: its tool_input has "url" and no "prompt"`)
	}
	if g.taskOutput {
		c.add(FeatureHooks, rel, `a tool hook's matcher selects TaskOutput, but this host's wait may wait for several background jobs in one call: then its tool_input has "job_ids" and no "task_id"`)
	}
}

// topLevelEvents reports a hooks file whose events sit at the top level
// (an older layout of some public plugins) rather than under "hooks": the
// loader reads none of them, and says nothing.
func (c *checker) topLevelEvents(rel string, data []byte) {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return
	}
	var events []string
	for _, k := range slices.Sorted(maps.Keys(top)) {
		if hook.Known(hook.Event(k)) {
			events = append(events, k)
		}
	}
	if len(events) > 0 {
		c.add(FeatureHooks, rel, fmt.Sprintf(`has %s at the top level, not under "hooks": this host reads a hooks file's events only under "hooks", so none of them runs`, strings.Join(events, ", ")))
	}
}

// matcher reports a matcher the hook runner cannot compile (the hook
// never fires), and a plain one naming Claude or Codex tools this host
// lacks: it never fires when all are lacking, fires for the others when
// some are.
func (c *checker) matcher(rel, what, match string) {
	if match != "" && match != "*" {
		if _, err := regexp.Compile("^(?:" + match + ")$"); err != nil {
			c.add(FeatureHooks, rel, fmt.Sprintf("%s never fires here: its matcher %q is not a regular expression Go reads (%v)", what, match, err))
			return
		}
	}
	if !plainMatcher.MatchString(match) {
		return
	}
	names := strings.Split(match, "|")
	var lacking []string
	for _, name := range names {
		if why, ok := toolnames.NoEquivalent(name); ok {
			lacking = append(lacking, why)
		}
	}
	switch {
	case len(lacking) == 0:
	case len(lacking) == len(names):
		c.add(FeatureHooks, rel, fmt.Sprintf("%s (matcher %q) never fires here: %s", what, match, strings.Join(lacking, "; ")))
	default:
		c.add(FeatureHooks, rel, fmt.Sprintf("%s (matcher %q) fires only for the tools this host has: %s", what, match, strings.Join(lacking, "; ")))
	}
}

// selects reports whether a Claude matcher selects tool, read as the hook
// runner reads it: "" and "*" select every tool, anything else is an
// anchored regexp; one that does not compile selects nothing.
func selects(match, tool string) bool {
	if match == "" || match == "*" {
		return true
	}
	re, err := regexp.Compile("^(?:" + match + ")$")
	return err == nil && re.MatchString(tool)
}

// mcpStart notes each MCP server imported from a Claude-format .mcp.json
// (a Claude or Codex package's, or a legacy one's the migration wrote into
// the manifest): Claude Code starts a plugin's servers with the plugin,
// the loader imports them with auto_start false (as the real host does),
// so they wait to be started.
func (c *checker) mcpStart() {
	var servers map[string]struct {
		AutoStart *bool `json:"auto_start"`
		Imported  bool  `json:"imported"`
	}
	if json.Unmarshal(c.p.MCPServers, &servers) != nil {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(servers)) {
		if s := servers[name]; s.Imported && s.AutoStart != nil && !*s.AutoStart {
			c.note(FeatureMCP, claudeMCPFile, fmt.Sprintf("MCP server %q does not start with the chat (imported with auto_start false): it is listed stopped until started from the MCP servers list", name))
		}
	}
}
