package headless

import (
	"fmt"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/textdiff"
)

// diffShown is how many lines of a diff the terminal prints before it
// collapses the rest into a count: an approval question must stay on one
// screen, and a script that wants the whole diff reads --json.
const diffShown = 60

// ANSI colours of a diff, as git prints them.
const (
	ansiRed   = "\x1b[31m"
	ansiGreen = "\x1b[32m"
	ansiCyan  = "\x1b[36m"
	ansiBold  = "\x1b[1m"
	ansiReset = "\x1b[0m"
)

// diffText is files as a unified diff for the terminal, each line made
// safe (a file's text is as untrusted as a model's), coloured when color,
// cut after diffShown lines with a count of the rest. Empty when there is
// nothing to show.
func diffText(files []textdiff.File, color bool) string {
	if len(files) == 0 {
		return ""
	}
	var lines []string
	for _, f := range files {
		lines = append(lines, strings.Split(strings.TrimRight(f.Unified(), "\n"), "\n")...)
		if f.OldPath != "" && f.NewPath != "" && f.OldPath != f.NewPath && len(f.Hunks) == 0 && !f.Binary {
			// A unified diff of a pure move is its two names: say what
			// they mean.
			lines = append(lines, "(moved; the content is unchanged)")
		}
	}
	more := 0
	if len(lines) > diffShown {
		lines, more = lines[:diffShown], len(lines)-diffShown
	}
	var b strings.Builder
	for _, l := range lines {
		s := safe(l)
		if color {
			if c := diffColor(l); c != "" {
				s = c + s + ansiReset
			}
		}
		b.WriteString("    " + s + "\n")
	}
	if more > 0 {
		fmt.Fprintf(&b, "    %s\n", i18n.N("… %d more diff line (--json carries the whole diff)", "… %d more diff lines (--json carries the whole diff)", more, more))
	}
	for _, f := range files {
		if f.Truncated {
			fmt.Fprintf(&b, "    %s\n", i18n.T("(the diff of %s is cut; +%d -%d in all)", safe(diffName(f)), f.Added, f.Removed))
		}
	}
	return b.String()
}

// diffColor is the colour of one unified-diff line (by its first bytes).
func diffColor(l string) string {
	switch {
	case strings.HasPrefix(l, "+++ "), strings.HasPrefix(l, "--- "):
		return ansiBold
	case strings.HasPrefix(l, "@@"):
		return ansiCyan
	case strings.HasPrefix(l, "+"):
		return ansiGreen
	case strings.HasPrefix(l, "-"):
		return ansiRed
	}
	return ""
}

func diffName(f textdiff.File) string {
	if f.NewPath != "" {
		return f.NewPath
	}
	return f.OldPath
}
