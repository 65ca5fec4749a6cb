package cmdscope

import "strings"

// Scope is what one approval covers: a program with its subcommand
// (Program kind), or one exact line.
type Scope struct {
	Program    string
	Subcommand string
	// Exact, when set, is the one line covered; Program and Subcommand are
	// then ignored.
	Exact string
}

// Scope is the widest scope an approval of the analysed line may have;
// false when none may cover it (Kind Once).
func (a Analysis) Scope() (Scope, bool) {
	switch a.Kind {
	case Program:
		return Scope{Program: a.Program, Subcommand: a.Subcommand}, true
	case Exact:
		return Scope{Exact: a.Line}, true
	}
	return Scope{}, false
}

// Covers reports whether the scope covers a command line. A line is
// covered only when Analyze proves it is a single simple command of the
// scope's program and subcommand (Kind Program), or it is the exact line
// approved and still at most Exact. A scope with no subcommand covers any
// subcommand of its program: that is what rules written before scopes had
// subcommands meant, narrowed to commands the parser proves.
func (s Scope) Covers(cmd string) bool {
	a := Analyze(cmd)
	if s.Exact != "" {
		return a.Kind >= Exact && a.Line == strings.Trim(s.Exact, " ")
	}
	return s.Program != "" && a.Kind == Program && a.Program == s.Program &&
		(s.Subcommand == "" || a.Subcommand == s.Subcommand)
}

// String is the scope as people read it: `git status …`, or the exact
// line followed by "(exactly)".
func (s Scope) String() string {
	if s.Exact != "" {
		return "`" + strings.Trim(s.Exact, " ") + "` (exactly this line)"
	}
	return "`" + s.Prefix() + " …`"
}

// Prefix is the program and subcommand as one line that parses back into
// those words (settings store it as a rule's command prefix).
func (s Scope) Prefix() string {
	if s.Subcommand == "" {
		return Quote(s.Program)
	}
	return Join([]string{s.Program, s.Subcommand})
}

// ParsePrefix reads a Prefix back: one or two words. A stored prefix that
// does not parse (a hand-edited file, a prefix written before scopes
// existed that held quotes or a $) gives a scope that covers nothing.
func ParsePrefix(prefix string) Scope {
	ws, err := split(strings.Trim(prefix, " "))
	if err != nil || len(ws) == 0 || len(ws) > 2 || ws[0].text == "" {
		return Scope{}
	}
	s := Scope{Program: ws[0].text}
	if len(ws) == 2 {
		s.Subcommand = ws[1].text
	}
	return s
}
