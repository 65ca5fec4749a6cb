package main

import (
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// A manifest's free text (description, version, args) reaches the
// terminal with its control sequences escaped: the install preview, the
// install summary, plugin list and plugin show.
func TestManifestTextIsShownEscaped(t *testing.T) {
	h := newHost(t)
	dir := testutil.PluginDir(t, "hostile", testutil.Binary(t, "internal/testing/testplugins/noop"), map[string]any{
		"description": "helps\x1b]0;pwned\x07 \x1b[2J you\u202e",
		"version":     "1.0.0\x1b[31m",
		"runtime":     map[string]any{"args": []string{"--x=\x1b[1A\r"}}})
	var all strings.Builder
	for _, args := range [][]string{{"plugin", "install", dir}, {"plugin", "install", "--yes", dir},
		{"plugin", "list"}, {"plugin", "show", "hostile"}} {
		r := h.run("", args...)
		all.WriteString(r.stdout + r.stderr)
	}
	out := all.String()
	if strings.ContainsAny(out, "\x1b\x07\r\u202e") {
		t.Fatalf("a control sequence reached the terminal:\n%q", out)
	}
	if !strings.Contains(out, `helps\x1b]0;pwned\x07 \x1b[2J you<U+202E>`) {
		t.Fatalf("the description is not shown escaped:\n%s", out)
	}
}
