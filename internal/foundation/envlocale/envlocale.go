// Package envlocale owns one start-up fix: Fyne's lang package parses the
// user's locale in its init, and a locale of "C.UTF-8" (the Debian
// default) or "POSIX.UTF-8" is not a BCP 47 tag, so every run of the binary,
// CLI commands included, printed "Fyne error: Error parsing user locale C"
// to stderr. This package's init runs before Fyne's lang (it imports only
// os, and Go initialises packages in import-path order once their imports
// are ready: it sorts before golang.org/x/text, which fyne.io/fyne/v2/lang
// waits for) and, for such a locale, sets LANGUAGE=en for that parse.
// Restore, called first thing in main, puts the environment back, so
// plugin processes inherit the user's environment unchanged.
//
// Import it from package main only, and call Restore there.
package envlocale

import (
	"os"
	"strings"
)

// set records that init set LANGUAGE (and Restore must unset it).
var set bool

func init() {
	if _, ok := os.LookupEnv("LANGUAGE"); ok || !cLocale(effective()) {
		return
	}
	if os.Setenv("LANGUAGE", "en") == nil {
		set = true
	}
}

// effective is the locale the message catalogue follows: the first of
// LC_ALL, LC_MESSAGES and LANG that is set (the gettext order).
func effective() string {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if s := os.Getenv(v); s != "" {
			return s
		}
	}
	return ""
}

// cLocale reports a C or POSIX locale with a codeset or modifier
// ("C.UTF-8", "POSIX@x"): Fyne reads "C" and "POSIX" alone correctly but
// fails on these.
func cLocale(loc string) bool {
	for _, base := range []string{"C", "POSIX"} {
		if rest, ok := strings.CutPrefix(loc, base); ok && rest != "" && (rest[0] == '.' || rest[0] == '@') {
			return true
		}
	}
	return false
}

// Restore undoes what init changed (call it before starting any process).
func Restore() {
	if set {
		os.Unsetenv("LANGUAGE")
		set = false
	}
}
