package hook

import "strings"

// A hook's shell command line never holds the plugin root's text. Every
// spelling of the root in it (${CLAUDE_PLUGIN_ROOT}, $REASONIX_PLUGIN_ROOT,
// %CLAUDE_PLUGIN_ROOT%, ...) becomes a reference to the environment
// variable the host sets to the root, written for the shell that reads the
// line and for the quotes the author put around it:
//
//	sh:         "${CLAUDE_PLUGIN_ROOT}" outside quotes, ${CLAUDE_PLUGIN_ROOT}
//	            inside the author's "…", '"${CLAUDE_PLUGIN_ROOT}"' inside '…'
//	cmd.exe:    "%CLAUDE_PLUGIN_ROOT%\rest\of\word" outside quotes (the quote
//	            runs to the end of the word, so a script under the root is one
//	            quoted path), %CLAUDE_PLUGIN_ROOT% inside the author's "…"
//	PowerShell: & "${env:CLAUDE_PLUGIN_ROOT}\rest" outside quotes ("& " only
//	            where a command starts), ${env:CLAUDE_PLUGIN_ROOT} inside "…",
//	            the root's text with ' doubled inside '…' (nothing expands
//	            in PowerShell's single quotes)
//
// A shell expands a variable after it split the line into words and never
// parses the value again: a root holding a space, quotes, $(…), backticks,
// ; & | or non-ASCII text is one path and runs nothing. In cmd.exe %VAR%
// expansion comes first, but it is one pass (a % in the value is not
// expanded again) and the reference is always inside double quotes, where
// & | < > ^ are plain text; a Windows path cannot hold a double quote.
// (Wine 8's cmd, the Windows test lane's, does expand %VAR% again inside
// a value it put in: a root holding %NAME% breaks there, not on Windows.)
// cmd's delayed expansion (!VAR!, which would read a ! in the value) is
// off unless the user's registry turns it on; that case is not covered.

// shellKind is the language a hook's command line is read in.
type shellKind int

const (
	kindSh shellKind = iota
	kindCmd
	kindPowerShell
)

// kindOf is the language shellInvocation hands a line of shell to.
func kindOf(shell string) shellKind {
	switch shell {
	case "powershell", "pwsh":
		return kindPowerShell
	case "cmd":
		return kindCmd
	}
	if windowsShell(shell) {
		return kindCmd
	}
	return kindSh
}

// rootVar is the environment variable a root token refers to (both are set
// to the root for every hook).
func rootVar(token string) string {
	if strings.Contains(token, "REASONIX") {
		return "REASONIX_PLUGIN_ROOT"
	}
	return "CLAUDE_PLUGIN_ROOT"
}

// referRoot rewrites every root token of line as a quoted reference to its
// variable for kind (root is only used where PowerShell's single quotes
// take no reference).
func referRoot(line, root string, kind shellKind) string {
	if rootTokenAt(line) == 0 && !strings.ContainsAny(line, "$%") {
		return line
	}
	q := quoter{kind: kind, root: root}
	for i := 0; i < len(line); {
		if n := rootTokenAt(line[i:]); n > 0 {
			q.token(rootVar(line[i : i+n]))
			i += n
			continue
		}
		i += q.char(line, i)
	}
	q.endWord()
	return q.b.String()
}

// quoter follows the author's quoting, char by char, and writes the line
// with references in its place.
type quoter struct {
	kind shellKind
	root string
	b    strings.Builder
	// stack of quote contexts; the last is the current one: 0 unquoted,
	// '\'' in single quotes, '"' in double quotes. A sh $( or ` inside
	// double quotes opens a new unquoted context.
	stack []byte
	// wrapped: a reference outside quotes opened a double quote that runs
	// to the end of the word (cmd and PowerShell).
	wrapped bool
}

func (q *quoter) state() byte {
	if len(q.stack) == 0 {
		return 0
	}
	return q.stack[len(q.stack)-1]
}

func (q *quoter) push(c byte) { q.stack = append(q.stack, c) }

func (q *quoter) pop() {
	if len(q.stack) > 0 {
		q.stack = q.stack[:len(q.stack)-1]
	}
}

// token writes the reference to name for the current context.
func (q *quoter) token(name string) {
	st := q.state()
	switch q.kind {
	case kindSh:
		switch {
		case st == '"':
			q.b.WriteString("${" + name + "}")
		case st == '\'':
			q.b.WriteString(`'"${` + name + `}"'`)
		default:
			q.b.WriteString(`"${` + name + `}"`)
		}
	case kindCmd:
		if st == 0 && !q.wrapped {
			q.b.WriteByte('"')
			q.wrapped = true
		}
		q.b.WriteString("%" + name + "%")
	case kindPowerShell:
		switch {
		case st == '\'':
			q.b.WriteString(strings.ReplaceAll(q.root, "'", "''"))
			return
		case st == 0 && !q.wrapped:
			if q.commandStart() {
				q.b.WriteString("& ")
			}
			q.b.WriteByte('"')
			q.wrapped = true
		}
		q.b.WriteString("${env:" + name + "}")
	}
}

// commandStart: what was written so far ends where PowerShell expects a
// command, so a quoted path there needs the call operator to run.
func (q *quoter) commandStart() bool {
	s := strings.TrimRight(q.b.String(), " \t")
	if s == "" || strings.HasSuffix(s, "&&") || strings.HasSuffix(s, "||") {
		return true
	}
	switch s[len(s)-1] {
	case ';', '|', '{', '(', '\n', '\r':
		return true
	}
	return false
}

// endWord closes a double quote a reference opened.
func (q *quoter) endWord() {
	if q.wrapped {
		q.b.WriteByte('"')
		q.wrapped = false
	}
}

// char copies the text at line[i] (a char, or an escape and what it
// escapes) and follows the quoting; it returns how many bytes it took.
func (q *quoter) char(line string, i int) int {
	c := line[i]
	st := q.state()
	if q.wrapped && wordEnd(q.kind, c) {
		q.endWord()
	}
	switch q.kind {
	case kindSh:
		return q.shChar(line, i, c, st)
	case kindCmd:
		switch {
		case c == '"':
			if st == '"' {
				q.pop()
			} else {
				q.push('"')
			}
		case c == '^' && st == 0 && i+1 < len(line):
			q.b.WriteString(line[i : i+2])
			return 2
		}
	case kindPowerShell:
		switch {
		case c == '\'' && st == '\'':
			if i+1 < len(line) && line[i+1] == '\'' {
				q.b.WriteString("''")
				return 2
			}
			q.pop()
		case c == '\'' && st == 0, c == '"' && st == 0:
			q.push(c)
		case c == '"' && st == '"':
			q.pop()
		case c == '`' && st != '\'' && i+1 < len(line):
			q.b.WriteString(line[i : i+2])
			return 2
		}
	}
	q.b.WriteByte(c)
	return 1
}

func (q *quoter) shChar(line string, i int, c, st byte) int {
	switch {
	case st == '\'':
		if c == '\'' {
			q.pop()
		}
	case c == '\\' && i+1 < len(line):
		q.b.WriteString(line[i : i+2])
		return 2
	case c == '\'' && st != '"':
		q.push('\'')
	case c == '"':
		if st == '"' {
			q.pop()
		} else {
			q.push('"')
		}
	case c == '$' && i+1 < len(line) && line[i+1] == '(':
		q.push('(')
		q.b.WriteString("$(")
		return 2
	case c == ')' && st == '(':
		q.pop()
	case c == '`':
		if st == '`' {
			q.pop()
		} else {
			q.push('`')
		}
	}
	q.b.WriteByte(c)
	return 1
}

// wordEnd: c ends an unquoted word of cmd or PowerShell.
func wordEnd(kind shellKind, c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '"', '&', '|', '<', '>', '(', ')', ';':
		return true
	case '^', ',', '=':
		return kind == kindCmd
	case '\'', '{', '}', '`':
		return kind == kindPowerShell
	}
	return false
}
