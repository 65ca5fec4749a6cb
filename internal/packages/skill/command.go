package skill

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// Command is a slash command or prompt template read from a flat .md file.
type Command struct {
	// Name is what the user types after "/": "<plugin>:<name>" for a
	// package's command, or the bare name for its hidden short alias.
	Name string
	// ShortName is the name inside its package ("review", "git:commit":
	// subfolders become ":" namespaces).
	ShortName   string
	Plugin      string
	Description string // frontmatter description, on one line
	ArgHint     string // frontmatter argument-hint
	Body        string // the template, trimmed
	Path        string
	// Hidden marks the short alias /<name>: it runs, but listings and
	// completion show only the qualified name.
	Hidden bool
}

var substitution = regexp.MustCompile(`\$(\$|ARGUMENTS|[0-9]+)`)

// Render expands the template as the Reasonix host does: $ARGUMENTS is the
// words joined by single spaces, $1..$N the words by position (empty when
// absent), $$ a literal $. args is split on white space.
func (c Command) Render(args string) string {
	words := strings.Fields(args)
	return substitution.ReplaceAllStringFunc(c.Body, func(m string) string {
		switch tok := m[1:]; tok {
		case "$":
			return "$"
		case "ARGUMENTS":
			return strings.Join(words, " ")
		default:
			n, err := strconv.Atoi(tok)
			if err == nil && n >= 1 && n <= len(words) {
				return words[n-1]
			}
			return ""
		}
	})
}

// LoadCommands reads every *.md under the roots (recursively; a subfolder
// is a ":" namespace) as the Reasonix host names plugin commands: each is
// /<plugin>:<name>, and a short /<name> alias, hidden from listings, is
// kept only when exactly one package has that name and reserved (the
// built-in commands) does not hold it. Within one package a later root
// wins a name. Files that cannot be read are named in errs; the result is
// sorted by name.
func LoadCommands(roots []Root, reserved func(name string) bool) (cmds []Command, errs []error) {
	perPlugin := map[string]map[string]Command{}
	for _, r := range roots {
		pfs, err := r.open()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		files, ferrs := plugin.ScanCommands(pfs, r.Path, r.Plugin)
		pfs.Close()
		errs = append(errs, ferrs...)
		for _, f := range files {
			if perPlugin[r.Plugin] == nil {
				perPlugin[r.Plugin] = map[string]Command{}
			}
			perPlugin[r.Plugin][f.Name] = Command{
				ShortName:   f.Name,
				Plugin:      r.Plugin,
				Description: summary(f.Front["description"]),
				ArgHint:     strings.TrimSpace(f.Front["argument-hint"]),
				Body:        strings.TrimSpace(f.Body),
				Path:        f.Path,
			}
		}
	}
	byName := map[string]Command{}
	byShort := map[string][]Command{}
	for plugin, set := range perPlugin {
		for short, c := range set {
			c.Name = plugin + ":" + short
			byName[c.Name] = c
			byShort[short] = append(byShort[short], c)
		}
	}
	for short, cs := range byShort {
		if len(cs) != 1 || reserved != nil && reserved(short) {
			continue
		}
		if _, taken := byName[short]; taken {
			continue
		}
		alias := cs[0]
		alias.Name, alias.Hidden = short, true
		byName[short] = alias
	}
	for _, c := range byName {
		cmds = append(cmds, c)
	}
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].Name < cmds[j].Name })
	return cmds, errs
}
