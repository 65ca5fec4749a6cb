package agent

import (
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/packages/skill"
)

// Package commands and prompts: a package's commands/<name>.md and
// prompts/<name>.md are slash commands named as the Reasonix host names
// them: /<plugin>:<name> always (a subfolder adds a ":" namespace:
// /<plugin>:git:commit), and /<name> as well when exactly one package has
// that name and no built-in command holds it (that short alias runs but is
// not listed). Running one expands its template with the arguments
// ($ARGUMENTS, $1..$N, $$) and the front end sends the expansion to the
// model as the user's message (CommandSend). A plugin UI action of the
// same /<plugin>:<name> wins: actions are matched first.

// reservedCommand says whether a short alias would shadow a built-in.
func reservedCommand(name string) bool {
	_, ok := builtins["/"+strings.ToLower(name)]
	return ok || strings.EqualFold(name, "ext")
}

// packageCommand finds the package command a typed name runs.
func (c *Core) packageCommand(name string) (skill.Command, bool) {
	_, cmds, _ := c.contributions()
	for _, pc := range cmds {
		if "/"+pc.Name == name {
			return pc, true
		}
	}
	return skill.Command{}, false
}

// packageCommandInfos lists the package commands (not their hidden short
// aliases) for /actions, the palette and completion.
func (c *Core) packageCommandInfos() []CommandInfo {
	_, cmds, _ := c.contributions()
	var out []CommandInfo
	for _, pc := range cmds {
		if pc.Hidden {
			continue
		}
		desc := pc.Description
		if pc.ArgHint != "" {
			desc = strings.TrimSpace(pc.ArgHint + "  " + desc)
		}
		out = append(out, CommandInfo{Name: "/" + pc.Name, Description: redact.String(desc), Send: true, Kind: CommandKindPackage})
	}
	return out
}

// execPackageCommand expands a package command for the model. The
// expansion is the user's own message as typed (the template is what
// the user chose to send), so it is not redacted here: a front end shows
// it as it shows what the user types.
func execPackageCommand(pc skill.Command, cl CommandLine) CommandResult {
	return CommandResult{Kind: CommandSend, Name: cl.Name, Text: pc.Render(cl.Args)}
}
