//go:build darwin

package i18n

import (
	"context"
	"os/exec"
	"strings"
	"time"
)

// systemLocale is the first of macOS' preferred languages (a GUI app
// started from Finder has no LANG).
func systemLocale() string {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "defaults", "read", "-g", "AppleLanguages").Output()
	if err != nil {
		return ""
	}
	for _, f := range strings.FieldsFunc(string(out), func(r rune) bool { return strings.ContainsRune("()\", \n\t", r) }) {
		if f != "" {
			return f
		}
	}
	return ""
}
