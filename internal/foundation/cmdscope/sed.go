package cmdscope

import "strings"

// sedRuns says why a sed command line may run a program or write a file
// of the script's choosing (the e, w and W commands, the s///e and s///w
// flags, a script read from a file), or "". A script the reader cannot
// follow is refused too: what is not proven is asked again.
func sedRuns(args []word) string {
	var scripts []string
	explicit := false
	for i := 0; i < len(args); i++ {
		w := args[i].text
		switch {
		case w == "--":
			// Operands follow; the first is the script when no -e gave one.
			if !explicit && len(scripts) == 0 && i+1 < len(args) {
				scripts = append(scripts, args[i+1].text)
			}
			i = len(args)
		case w == "-e" || isLong(w, "--expression") && !strings.Contains(w, "="):
			if i+1 >= len(args) {
				return "has a sed -e with no script"
			}
			scripts, explicit = append(scripts, args[i+1].text), true
			i++
		case isLong(w, "--expression"):
			_, v, _ := strings.Cut(w, "=")
			scripts, explicit = append(scripts, v), true
		case strings.HasPrefix(w, "--f") || strings.HasPrefix(w, "-f") ||
			strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.ContainsAny(w[1:], "fe") && !strings.HasPrefix(w, "-i"):
			return "runs a sed script the line does not show (or one the parser cannot read): " + quoteWord(w)
		case w == "-l":
			i++
		case strings.HasPrefix(w, "-") && w != "-":
			// -n, -E, -r, -s, -u, -z, -i[SUFFIX], --posix, --in-place…
		case !explicit && len(scripts) == 0:
			scripts = append(scripts, w) // the first operand is the script
		}
	}
	for _, s := range scripts {
		if why := sedScriptRuns(s); why != "" {
			return why
		}
	}
	return ""
}

// sedScriptRuns reads one sed script: addresses, then a command.
func sedScriptRuns(s string) string {
	bad := "has a sed script the parser cannot read, so it cannot be approved: " + quoteWord(s)
	i := 0
	for i < len(s) {
		for i < len(s) && strings.IndexByte(" ;{}", s[i]) >= 0 {
			i++
		}
		if i >= len(s) {
			break
		}
		var ok bool
		if i, ok = sedAddress(s, i); !ok {
			return bad
		}
		if i >= len(s) {
			return bad
		}
		c := s[i]
		i++
		switch c {
		case '{', '}':
		case 'e', 'w', 'W':
			return "uses sed's " + quoteWord(string(c)) + " command, which runs a program or writes a file"
		case 's', 'y':
			d := byte(0)
			if i < len(s) {
				d = s[i]
			}
			if d == 0 || d == '\\' || d == ' ' {
				return bad
			}
			i++
			for range 2 {
				if i, ok = sedDelimited(s, i, d); !ok {
					return bad
				}
			}
			if c == 's' {
				for i < len(s) && s[i] != ';' && s[i] != '}' && s[i] != ' ' {
					if s[i] == 'e' || s[i] == 'w' {
						return "uses sed's s///" + string(s[i]) + " flag, which runs a program or writes a file"
					}
					i++
				}
			}
		case 'a', 'i', 'c', 'r', 'R':
			return "" // the rest of the script is text or a file to read
		case 'b', 't', 'T', ':':
			for i < len(s) && s[i] != ';' && s[i] != '}' {
				i++
			}
		case 'q', 'Q', 'l', 'L':
			for i < len(s) && (s[i] == ' ' || s[i] >= '0' && s[i] <= '9') {
				i++
			}
		case 'p', 'P', 'd', 'D', 'n', 'N', 'g', 'G', 'h', 'H', 'x', '=', 'z', 'F':
		default:
			return bad
		}
	}
	return ""
}

// sedAddress skips an address or range (with !) starting at i.
func sedAddress(s string, i int) (int, bool) {
	for i < len(s) {
		c := s[i]
		switch {
		case c >= '0' && c <= '9', c == '$', c == ',', c == '~', c == '+', c == '!', c == ' ':
			i++
		case c == '/':
			var ok bool
			if i, ok = sedDelimited(s, i+1, '/'); !ok {
				return i, false
			}
			for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		case c == '\\':
			if i+1 >= len(s) {
				return i, false
			}
			var ok bool
			if i, ok = sedDelimited(s, i+2, s[i+1]); !ok {
				return i, false
			}
			for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		default:
			return i, true
		}
	}
	return i, true
}

// sedDelimited skips to just past the next unescaped d.
func sedDelimited(s string, i int, d byte) (int, bool) {
	for i < len(s) {
		switch s[i] {
		case '\\':
			i += 2
		case d:
			return i + 1, true
		default:
			i++
		}
	}
	return i, false
}

// isLong reports whether w (before any =) is long or a GNU abbreviation of
// it ("--expr" for "--expression").
func isLong(w, long string) bool {
	n, _, _ := strings.Cut(w, "=")
	return len(n) > 2 && strings.HasPrefix(long, n)
}
