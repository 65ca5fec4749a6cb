package skill

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// The two skill tools, with the Reasonix host's names, descriptions and
// schemas. run_skill's continue_from / fork_from (resuming a prior
// subagent transcript) are left out: this host keeps no subagent
// transcripts.
const (
	RunSkillName         = "run_skill"
	RunSkillDescription  = "Invoke a playbook from the Skills index pinned in the system prompt. Pass `name` as the BARE identifier, NOT the `[🧬 subagent]` tag that follows it in the index. `[🧬 subagent]` skills spawn an isolated subagent — only the final distilled answer returns; supply `arguments` describing the concrete task since the subagent has no other context. Untagged skills are inlined: the body becomes a tool result you read and follow."
	ReadSkillName        = "read_skill"
	ReadSkillDescription = "Load an inline playbook from the Skills index into your context WITHOUT running anything — the skill body returns as a tool result you read and follow. Read-only, so it works in plan mode (unlike run_skill). Pass `name` as the BARE identifier (e.g. 'commit'), NOT the `[🧬 subagent]` tag. Subagent-tagged skills are rejected: use run_skill for those, since they execute work."
)

// RunSkillSchema is run_skill's parameters.
var RunSkillSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"name":{"type":"string","description":"Skill identifier as it appears in the pinned Skills index (e.g. 'explore', 'review'). Case-sensitive. Just the identifier, not the [🧬 subagent] tag."},` +
	`"arguments":{"type":"string","description":"Free-form arguments. For inline skills: appended as an 'Arguments:' line; the skill's own instructions decide how to use them. For subagent skills: REQUIRED — becomes the entire task the subagent receives."}` +
	`},"required":["name"]}`)

// ReadSkillSchema is read_skill's parameters.
var ReadSkillSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"name":{"type":"string","description":"Inline skill identifier as it appears in the pinned Skills index. Just the identifier, not the [🧬 subagent] tag."},` +
	`"arguments":{"type":"string","description":"Optional free-form arguments, appended as an 'Arguments:' line; the skill's own instructions decide how to use them."}` +
	`},"required":["name"]}`)

// SubagentRunner runs a subagent skill in an isolated sub-turn whose only
// input is task, and returns its final answer.
type SubagentRunner func(ctx context.Context, sk Skill, task string) (string, error)

type toolArgs struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

func decodeArgs(tool string, raw json.RawMessage) (toolArgs, error) {
	var p toolArgs
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &p); err != nil {
			return p, fmt.Errorf("invalid args: %w", err)
		}
	}
	return p, nil
}

// RunSkill is run_skill: an inline skill's rendered body, or a subagent
// skill's answer from run (nil: subagent skills fail, never silently
// inline, which would lose the isolation the author asked for).
func RunSkill(ctx context.Context, skills []Skill, raw json.RawMessage, run SubagentRunner) (string, error) {
	p, err := decodeArgs(RunSkillName, raw)
	if err != nil {
		return "", err
	}
	name := CleanName(p.Name)
	if name == "" {
		return "", fmt.Errorf("run_skill requires a 'name' argument (got %q, which is just a marker/tag)", p.Name)
	}
	sk, ok := Find(skills, name)
	if !ok {
		return "", fmt.Errorf("unknown skill %q — available: %s", name, Names(skills))
	}
	task := strings.TrimSpace(p.Arguments)
	if sk.RunAs != RunSubagent {
		return RenderInline(sk, task), nil
	}
	if run == nil {
		return "", fmt.Errorf("run_skill: skill %q is runAs=subagent but no subagent runner is configured in this session", name)
	}
	if task == "" {
		return "", fmt.Errorf("run_skill: skill %q is a subagent and requires 'arguments' — the subagent has no other context, so describe the concrete task", name)
	}
	return run(ctx, sk, task)
}

// ReadSkill is read_skill: an inline skill's rendered body; a subagent
// skill is refused (it executes work).
func ReadSkill(skills []Skill, raw json.RawMessage) (string, error) {
	p, err := decodeArgs(ReadSkillName, raw)
	if err != nil {
		return "", err
	}
	name := CleanName(p.Name)
	if name == "" {
		return "", fmt.Errorf("read_skill requires a 'name' argument (got %q, which is just a marker/tag)", p.Name)
	}
	sk, ok := Find(skills, name)
	if !ok {
		return "", fmt.Errorf("unknown skill %q — available: %s", name, Names(skills))
	}
	if sk.RunAs == RunSubagent {
		return "", fmt.Errorf("read_skill: skill %q is a subagent and must be executed, not read — use run_skill", name)
	}
	return RenderInline(sk, strings.TrimSpace(p.Arguments)), nil
}
