package main

import (
	"strings"
	"testing"
)

// No CLI command prints Fyne's locale errors, whatever the locale (Fyne
// parses it in its package init, which every command runs).
func TestCLICommandsPrintNoFyneLocaleErrors(t *testing.T) {
	h := newHost(t)
	for _, lang := range []string{"C.UTF-8", "C", "", "POSIX.UTF-8", "en_US.UTF-8"} {
		t.Run("LANG="+lang, func(t *testing.T) {
			cmd := h.command("plugin", "list")
			env := []string{"LANG=" + lang}
			for _, kv := range cmd.Env {
				name, _, _ := strings.Cut(kv, "=")
				switch name {
				case "LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE":
				default:
					env = append(env, kv)
				}
			}
			if lang == "" {
				env = env[1:]
			}
			cmd.Env = env
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("plugin list: %v\n%s", err, stderr.String())
			}
			if strings.Contains(stderr.String(), "Fyne error") {
				t.Errorf("stderr:\n%s", stderr.String())
			}
		})
	}
}
