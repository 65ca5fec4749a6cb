package mcp

import (
	"fmt"
	"path/filepath"
	"strings"
)

// batchMeta are the characters cmd.exe reads as its own on a command line:
// variables (%, and ! with delayed expansion), quotes, which Go's quoting
// escapes with a backslash cmd.exe does not know, and the command
// separators and redirections.
const batchMeta = "\"%!&|<>^\r\n"

// batchSafe refuses to start a .bat or .cmd program (npx.cmd is the usual
// one) whose path or arguments hold a character in batchMeta. Windows runs
// such a program through cmd.exe, which parses the command line Go quoted
// for a program by its own rules, so a package root or an argument holding
// "&calc" or "%PATH%" would be code or text changed under the user; no
// quoting makes % safe there, so the start is refused naming the argument.
// (Every other program is exec'd directly with its arguments as a list:
// spaces, quotes and $(...) are text.) Called on Windows only; the check
// itself is plain text, so it is tested everywhere.
func batchSafe(path string, args []string) error {
	ext := strings.ToLower(filepath.Ext(path))
	if ext != ".bat" && ext != ".cmd" {
		return nil
	}
	if strings.ContainsAny(path, batchMeta) {
		return fmt.Errorf("command %q: a %s file runs through cmd.exe, which would read its %q as its own: move it to a folder without them", path, ext, batchMeta)
	}
	for i, a := range args {
		if strings.ContainsAny(a, batchMeta) {
			return fmt.Errorf("command %q: argument %d (%q) holds one of %q, which cmd.exe (it runs %s files) would read as its own", path, i+1, a, batchMeta, ext)
		}
	}
	return nil
}
