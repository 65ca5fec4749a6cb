package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A broken settings.json never stops the CLI: chat and plugin list print
// one error naming the file and what is wrong, and go on with the
// defaults; the file is left as it was; `settings reset` keeps it as a
// backup.
func TestBrokenSettingsFileCLI(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	path := filepath.Join(h.data, "settings.json")
	for _, tt := range []struct {
		name, doc string
		want      string // in the one error or warning line
		broken    bool
	}{
		{"garbage", "this is not json", "line 1, column 2: invalid JSON", true},
		{"wrong type", `{"defaultModel": 7}`, "field defaultModel: must be a string", true},
		{"unknown field", `{"defaultModle": "x"}`, "field defaultModle: unknown field; ignored", false},
		{"empty", "", "the file is empty; using the default settings", false},
		{"directory", "", "it is a directory, not a file", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.RemoveAll(path); err != nil {
				t.Fatal(err)
			}
			if tt.name == "directory" {
				if err := os.Mkdir(path, 0o700); err != nil {
					t.Fatal(err)
				}
			} else if err := os.WriteFile(path, []byte(tt.doc), 0o600); err != nil {
				t.Fatal(err)
			}
			label := "warning: settings "
			if tt.broken {
				label = "error: settings "
			}
			r := h.run("", "plugin", "list")
			if r.code != 0 || !strings.Contains(r.stdout, "echo-provider") || strings.Count(r.stderr, label+path) != 1 {
				t.Fatalf("plugin list %d:\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			r = h.chat("hi")
			if r.code != 0 || !strings.Contains(r.stdout, "Echo: hi") {
				t.Fatalf("chat %d:\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			if n := strings.Count(r.stderr, label+path); n != 1 || !strings.Contains(r.stderr, tt.want) || strings.Contains(r.stderr, "invalid hooks") {
				t.Fatalf("chat's stderr has %d reports of %s, want one with %q:\n%s", n, path, tt.want, r.stderr)
			}
			if tt.broken && tt.name != "directory" {
				if b, _ := os.ReadFile(path); string(b) != tt.doc {
					t.Fatalf("the broken file was rewritten: %q", b)
				}
			}
			r = h.run("", "settings", "check")
			if (r.code == 1) != tt.broken {
				t.Fatalf("settings check %d:\n%s%s", r.code, r.stdout, r.stderr)
			}
			r = h.run("", "settings", "reset")
			if r.code != 0 || !strings.Contains(r.stdout, "the old one is kept as "+path+".broken-") {
				t.Fatalf("settings reset %d:\n%s%s", r.code, r.stdout, r.stderr)
			}
			backup := strings.TrimSpace(r.stdout[strings.LastIndex(r.stdout, " ")+1:])
			if _, err := os.Lstat(backup); err != nil {
				t.Fatalf("no backup: %v", err)
			}
			if r := h.run("", "settings", "check"); r.code != 0 || !strings.Contains(r.stdout, ": ok") {
				t.Fatalf("after reset, check %d:\n%s%s", r.code, r.stdout, r.stderr)
			}
			if err := os.RemoveAll(backup); err != nil {
				t.Fatal(err)
			}
		})
	}
}
