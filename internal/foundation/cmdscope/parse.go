package cmdscope

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// word is one word of a command line as POSIX sh will see it after quote
// removal (text), with what the shell would still do to it.
type word struct {
	text string
	// raw is the word's source with only the quotes removed, backslashes
	// kept: `C:\Windows\cmd.exe` unquoted is "C:Windowscmd.exe" to sh but
	// names cmd.exe to a reader, and either reading must be recognised.
	raw string
	// assign: the word starts with an unquoted NAME=, an assignment when
	// it comes before the program.
	assign bool
	// expands: an unquoted glob or brace character (*?[]{}) or a leading
	// ~, so the shell (bash's brace expansion included) may turn the word
	// into other words.
	expands bool
}

// notProvable is why a command line is not a single simple command whose
// words the parser knows.
type notProvable struct{ why string }

func (e *notProvable) Error() string { return e.why }

func refuse(format string, a ...any) error { return &notProvable{fmt.Sprintf(format, a...)} }

// split parses a command line the way sh -c will: words separated by
// spaces, '…', "…" and backslash escapes. Anything that would make the
// shell do more than run one program with these words is refused: an
// operator, a redirection, a substitution or expansion, a comment, a
// control character (tab, newline and CR included), an unbalanced quote.
func split(cmd string) ([]word, error) {
	if !utf8.ValidString(cmd) {
		return nil, refuse("is not valid UTF-8")
	}
	var (
		words   []word
		text    strings.Builder
		raw     strings.Builder
		inWord  bool
		quoteAt = -1 // where in raw the word's first quote began
		expands bool
	)
	end := func() {
		if !inWord {
			return
		}
		r := raw.String()
		// NAME=… is an assignment when the NAME and = were not quoted
		// (A='b c' is one; 'A=b' and A\=b are not).
		assign := isAssignment(r) && (quoteAt < 0 || quoteAt > strings.IndexByte(r, '='))
		words = append(words, word{text: text.String(), raw: r, expands: expands, assign: assign})
		text.Reset()
		raw.Reset()
		inWord, quoteAt, expands = false, -1, false
	}
	quoted := func() {
		if quoteAt < 0 {
			quoteAt = raw.Len()
		}
	}
	for i := 0; i < len(cmd); {
		c := cmd[i]
		if c < 0x20 || c == 0x7f {
			return nil, refuse("holds a control character (%q)", c)
		}
		switch {
		case c == ' ':
			end()
			i++
			continue
		case strings.IndexByte(";&|<>()", c) >= 0:
			return nil, refuse("holds the shell operator %q", c)
		case c == '$':
			return nil, refuse("expands something with '$'")
		case c == '`':
			return nil, refuse("runs a command substitution (`)")
		case c == '#' && !inWord:
			return nil, refuse("holds a comment ('#'), which hides what follows")
		case c == '~' && !inWord:
			expands = true
		case strings.IndexByte("*?[]{}", c) >= 0:
			expands = true
		}
		inWord = true
		switch c {
		case '\\':
			if i+1 >= len(cmd) {
				return nil, refuse("ends with a lone backslash")
			}
			if cmd[i+1] < 0x20 || cmd[i+1] == 0x7f {
				return nil, refuse("escapes a control character")
			}
			quoted()
			raw.WriteByte('\\')
			_, n := utf8.DecodeRuneInString(cmd[i+1:])
			text.WriteString(cmd[i+1 : i+1+n])
			raw.WriteString(cmd[i+1 : i+1+n])
			i += 1 + n
		case '\'':
			j := strings.IndexByte(cmd[i+1:], '\'')
			if j < 0 {
				return nil, refuse("has an unbalanced single quote")
			}
			s := cmd[i+1 : i+1+j]
			if k := strings.IndexFunc(s, isControl); k >= 0 {
				return nil, refuse("holds a control character (%q)", s[k])
			}
			quoted()
			text.WriteString(s)
			raw.WriteString(s)
			i += j + 2
		case '"':
			quoted()
			j, err := doubleQuoted(cmd[i+1:], &text, &raw)
			if err != nil {
				return nil, err
			}
			i += j + 2
		default:
			text.WriteByte(c)
			raw.WriteByte(c)
			i++
		}
	}
	end()
	return words, nil
}

// doubleQuoted reads "…" up to its closing quote (s starts after the
// opening one) and returns the closing quote's index in s. Inside double
// quotes sh still expands $ and `, so both are refused; a backslash
// escapes only $ ` " \ and is otherwise kept.
func doubleQuoted(s string, text, raw *strings.Builder) (int, error) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x20 || c == 0x7f:
			return 0, refuse("holds a control character (%q)", c)
		case c == '"':
			return i, nil
		case c == '$':
			return 0, refuse("expands something with '$'")
		case c == '`':
			return 0, refuse("runs a command substitution (`)")
		case c == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\", s[i+1]) >= 0:
			text.WriteByte(s[i+1])
			raw.WriteByte('\\')
			raw.WriteByte(s[i+1])
			i++
		default:
			text.WriteByte(c)
			raw.WriteByte(c)
		}
	}
	return 0, refuse("has an unbalanced double quote")
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// isAssignment reports whether s starts with NAME= (a POSIX name).
func isAssignment(s string) bool {
	eq := strings.IndexByte(s, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		c := s[i]
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// Quote is s as one sh word: bare when it holds only characters sh takes
// literally, else in single quotes.
func Quote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r == '/' || r == ',' || r == ':' || r == '+' || r == '@' || r == '%' ||
			r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) < 0 && !isAssignment(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Join quotes each word and joins them with spaces: a line that parses
// back into the same words.
func Join(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = Quote(w)
	}
	return strings.Join(q, " ")
}
