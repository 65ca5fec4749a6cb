package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/packages/skill"
)

// Skills as commands, as the real plugin guide documents them: a package's
// skill runs as /<plugin>:<skill> [args] (always that name, so two
// packages' skills of one name stay apart: the model's index calls those
// <plugin>:<skill> too), and as /<skill> when only one package has it and
// nothing else holds that name (a hidden alias, not listed). /skills lists
// them. Running one sends the user's message the model acts on: an inline
// skill's body pinned with its arguments (what run_skill returns), or for
// a subagent skill the request to run it with run_skill, the arguments as
// its task (a subagent runs only inside a turn).

// skillCommandName is the command that runs sk: /<plugin>:<skill>.
func skillCommandName(sk skill.Skill) string {
	return "/" + sk.Plugin + ":" + strings.TrimPrefix(sk.Name, sk.Plugin+":")
}

// skillCommand finds the skill a typed command name runs.
func (c *Core) skillCommand(name string) (skill.Skill, bool) {
	skills := c.skills()
	for _, sk := range skills {
		if strings.EqualFold(skillCommandName(sk), name) {
			return sk, true
		}
	}
	// The short alias: a skill's own name when no other package has it
	// (LoadSkills qualified the names two packages share) and no built-in
	// holds it (the caller tried actions and commands first).
	short := strings.TrimPrefix(name, "/")
	if strings.Contains(short, ":") || reservedCommand(short) {
		return skill.Skill{}, false
	}
	for _, sk := range skills {
		if sk.Name == short {
			return sk, true
		}
	}
	return skill.Skill{}, false
}

// skillCommandInfos lists the skills as commands, for /skills, the palette
// and completion. Kind is CommandKindPackage: like a package command, a
// skill takes arguments and sends a message. A skill whose name a package
// command of the same package also has is left out: the command runs.
func (c *Core) skillCommandInfos() []CommandInfo {
	var out []CommandInfo
	for _, sk := range c.skills() {
		if _, shadowed := c.packageCommand(skillCommandName(sk)); shadowed {
			continue
		}
		desc := sk.Description
		if sk.RunAs == skill.RunSubagent {
			desc = strings.TrimSpace("[subagent] " + desc)
		}
		out = append(out, CommandInfo{Name: skillCommandName(sk), Description: redact.String(oneLine(desc)), Send: true, Kind: CommandKindPackage})
	}
	return out
}

// oneLine joins a description's lines: a list shows one line a skill.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// execSkill is what running a skill as a command sends. The message is
// the user's own (they chose the skill), so it is not redacted here, as a
// package command's expansion is not.
func execSkill(sk skill.Skill, cl CommandLine) (CommandResult, error) {
	args := strings.TrimSpace(cl.Args)
	name := skillCommandName(sk)
	if sk.RunAs != skill.RunSubagent {
		return CommandResult{Kind: CommandSend, Name: name, Text: skill.RenderInline(sk, args)}, nil
	}
	if args == "" {
		return CommandResult{}, fmt.Errorf("%s runs a subagent, which has no other context: say its task (%s <task>)", name, name)
	}
	text := fmt.Sprintf("Run the skill %q with %s; its arguments (the subagent's whole task): %s", sk.Name, skill.RunSkillName, args)
	return CommandResult{Kind: CommandSend, Name: name, Text: text}, nil
}

// cmdSkills answers /skills: every skill as the command that runs it. It
// answers as /actions does (a list of commands), so each front end shows it
// as it shows that list.
func (c *Core) cmdSkills(context.Context, CommandLine) (CommandResult, error) {
	infos := c.skillCommandInfos()
	var b strings.Builder
	for _, ci := range infos {
		fmt.Fprintf(&b, "%s  %s\n", ci.Name, ci.Description)
	}
	if b.Len() == 0 {
		b.WriteString("no skills: installed packages contribute none")
	}
	return CommandResult{Kind: CommandActions, Commands: infos, Text: strings.TrimSuffix(b.String(), "\n")}, nil
}
