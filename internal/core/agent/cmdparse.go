package agent

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// The slash command grammar both front ends share. ParseCommand decides
// whether a typed line is a command at all; Exec (commands.go) resolves
// and runs it.
//
// A line is a command when, trimmed, it is a single line whose first word
// is "/" and a command name: letters, digits, '.', '_' and '-' (starting
// with a letter or digit), optionally followed by ":" and further such
// names (/<plugin>:<action>, /ext:<command>, a package's namespaced
// command /<plugin>:git:commit). Everything else is a message for the
// model, in particular:
//
//   - a line whose first word holds another "/" is a path ("/usr/bin is
//     on my PATH", "//comment"): the model gets it as typed;
//   - a first word that is not a name ("/:x", "/p:", "/p::a", "/~", "/?");
//   - text over several lines (a command is one line).
//
// "/" alone (or "/" then a space) is an error, not a message: the user
// started a command and named none. A command-shaped name nobody offers
// ("/etc") is an error naming it, never sent to the model: a typo in a
// command must not become a prompt.

// ErrNotCommand is returned by ParseCommand and Exec for a line that is a
// message for the model, not a command.
var ErrNotCommand = errors.New("not a command")

// ErrNoCommandName is a "/" with no command name after it.
var ErrNoCommandName = errors.New("a command name must follow / (/help lists the commands)")

// CommandLine is a parsed slash command.
type CommandLine struct {
	// Name is the first word as typed, slash included ("/new",
	// "/Hello-Surfaces:REFRESH", "/ext:deploy").
	Name string
	// Args is the rest of the line, trimmed (key=value words for actions
	// and forms, free text for extension commands).
	Args string
}

var commandNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*(:[A-Za-z0-9][A-Za-z0-9._-]*)*$`)

// ParseCommand splits a typed line into a command's name and arguments,
// or reports ErrNotCommand for a message (see the grammar above) or
// ErrNoCommandName for a bare "/". It reads no state and never panics.
func ParseCommand(line string) (CommandLine, error) {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "/") || strings.ContainsAny(line, "\n\r") {
		return CommandLine{}, ErrNotCommand
	}
	name, args := line, ""
	if i := strings.IndexAny(line, " \t"); i >= 0 {
		name, args = line[:i], line[i+1:]
	}
	word := name[1:]
	switch {
	case word == "":
		return CommandLine{}, ErrNoCommandName
	case strings.Contains(word, "/") || !commandNameRE.MatchString(word):
		return CommandLine{}, ErrNotCommand
	}
	return CommandLine{Name: name, Args: strings.TrimSpace(args)}, nil
}

// ParseKeyValues reads `key=value` words; a value may be quoted ("a b" or 'a b').
// Nothing given is nil (an action invoked without arguments, as the window
// does).
func ParseKeyValues(s string) (map[string]string, error) {
	words, err := splitWords(s)
	if err != nil {
		return nil, err
	}
	if len(words) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(words))
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("%q is not key=value", w)
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("%q is given twice", k)
		}
		out[k] = v
	}
	return out, nil
}

// splitWords splits on spaces, keeping quoted runs together (the quotes
// removed); a quote left open is an error.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	var quote rune
	inWord := false
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("a %c quote is not closed", quote)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
