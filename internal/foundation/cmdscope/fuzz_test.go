package cmdscope_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/foundation/cmdscope"
)

// FuzzAnalyze: no panics (the sed script reader included); a stored
// prefix reads back as itself; a line holding an operator, an expansion or a
// control character is never covered by a rule; whatever a rule may cover
// re-parses into the same words and the same scope; a scope covers the
// line it came from.
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{"echo hi", "LANG=C echo hi", "git -c a=b x", "find . -exec x {} +", `sh -c "x"`,
		"go test ./...", "git -C d status", `a\ b 'c d' "e\"f"`, "sed 's/a/b/e'", "cmd.exe /c x", "python -c 1",
		"tar xIf p a", "git clone --upl=x u", "echo x;y", "echo $(x)", "echo \x00", "'",
		"sed -n '/a/,/b/{s/x/y/gw out\n}' f", "sed --expr='1~2!y/ab/cd/;$q' f", "sed -- '\\,x,d' f", "git status", "ls"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		// A stored prefix (settings) reads back as the scope it names.
		if p := cmdscope.ParsePrefix(cmd); p.Program != "" && cmdscope.ParsePrefix(p.Prefix()) != p {
			t.Fatalf("prefix %q: %+v reads back as %+v", cmd, p, cmdscope.ParsePrefix(p.Prefix()))
		}
		a := cmdscope.Analyze(cmd)
		s, ok := a.Scope()
		if (a.Kind == cmdscope.Once) == ok {
			t.Fatalf("%q: kind %d but scope %v", cmd, a.Kind, ok)
		}
		if !ok {
			return
		}
		if op := unquotedOperator(cmd); op != "" {
			t.Fatalf("%q holds %q outside quotes yet has scope %v", cmd, op, s)
		}
		if strings.ContainsFunc(cmd, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			t.Fatalf("%q holds a control character yet has scope %v", cmd, s)
		}
		if !s.Covers(cmd) {
			t.Fatalf("%q: its own scope %+v does not cover it", cmd, s)
		}
		b := cmdscope.Analyze(cmdscope.Join(a.Words))
		if !slices.Equal(a.Words, b.Words) {
			t.Fatalf("%q: words %q re-parse as %q", cmd, a.Words, b.Words)
		}
		if a.Kind == cmdscope.Program && (b.Kind != a.Kind || b.Program != a.Program || b.Subcommand != a.Subcommand) {
			t.Fatalf("%q re-parses as another scope: %+v, then %+v", cmd, a, b)
		}
		if a.Kind == cmdscope.Program && cmdscope.ParsePrefix(s.Prefix()) != s {
			t.Fatalf("%q: prefix %q reads back as %+v, want %+v", cmd, s.Prefix(), cmdscope.ParsePrefix(s.Prefix()), s)
		}
	})
}

// unquotedOperator is the first shell operator or expansion character of
// cmd that sh would act on: outside single quotes, and for $ and `
// outside single quotes only (double quotes still expand them). Written
// apart from the parser so the fuzz target checks it rather than itself.
func unquotedOperator(cmd string) string {
	single, double := false, false
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case single:
			single = c != '\''
		case c == '\\':
			i++
		case c == '"':
			double = !double
		case c == '\'' && !double:
			single = true
		case c == '$' || c == '`':
			return string(c)
		case !double && strings.IndexByte(";&|<>()", c) >= 0:
			return string(c)
		}
	}
	return ""
}
