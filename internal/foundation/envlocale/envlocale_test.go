package envlocale

import (
	"os"
	"testing"
)

func TestCLocale(t *testing.T) {
	for loc, want := range map[string]bool{
		"C.UTF-8": true, "C.utf8": true, "POSIX.UTF-8": true, "C@euro": true,
		"C": false, "POSIX": false, "": false, "en_US.UTF-8": false, "Ca_ES": false, "de_DE": false,
	} {
		if got := cLocale(loc); got != want {
			t.Errorf("cLocale(%q) = %v, want %v", loc, got, want)
		}
	}
}

// Restore unsets what init set, and only that.
func TestRestore(t *testing.T) {
	t.Setenv("LANGUAGE", "en")
	set = true
	Restore()
	if _, ok := os.LookupEnv("LANGUAGE"); ok {
		t.Error("LANGUAGE still set")
	}
	t.Setenv("LANGUAGE", "de")
	Restore() // set is false now: the user's own LANGUAGE stays
	if os.Getenv("LANGUAGE") != "de" {
		t.Error("the user's LANGUAGE was removed")
	}
}
