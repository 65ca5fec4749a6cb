package i18n

import "os"

// Detect is the user's language as the system says, matched to a complete
// language: the POSIX variables in their order of precedence (LANGUAGE's
// first entry, LC_ALL, LC_MESSAGES, LANG), then the platform's own setting
// (systemLocale: Windows' user locale, macOS' AppleLanguages), else English.
// "C" and "POSIX" say nothing of a language and are skipped.
func Detect() string {
	for _, v := range []string{"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"} {
		s := os.Getenv(v)
		if v == "LANGUAGE" {
			if i := indexByte(s, ':'); i >= 0 {
				s = s[:i]
			}
		}
		if s == "" || s == "C" || s == "POSIX" || hasPrefix(s, "C.") || hasPrefix(s, "POSIX.") {
			continue
		}
		return Match(s)
	}
	if s := systemLocale(); s != "" {
		return Match(s)
	}
	return English
}

func indexByte(s string, b byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return i
		}
	}
	return -1
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }
