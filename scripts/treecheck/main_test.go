package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRepo makes a repository in a temp folder with the given files tracked.
func gitRepo(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
		run("add", name)
	}
	return dir
}

func TestCheck(t *testing.T) {
	big := make([]byte, maxTracked+1)
	for i := range big {
		big[i] = 'a'
	}
	tests := []struct {
		name  string
		files map[string][]byte
		want  []string // substrings, one per expected problem
	}{
		{"clean source", map[string][]byte{"main.go": []byte("package main\n"), "README.md": []byte("# a readme\n")}, nil},
		{"committed ELF", map[string][]byte{"reasonix-desktop": []byte("\x7fELF\x02\x01\x01rest")}, []string{"reasonix-desktop: ELF executable"}},
		{"committed PE", map[string][]byte{"tool/app.exe": []byte("MZ\x90\x00")}, []string{"tool/app.exe: PE (Windows) executable"}},
		{"committed Mach-O", map[string][]byte{"bin/mac": {0xcf, 0xfa, 0xed, 0xfe, 7}}, []string{"bin/mac: Mach-O executable"}},
		{"file over 1 MiB", map[string][]byte{"data.json": big}, []string{"data.json: 1048577 bytes, over the 1048576-byte limit"}},
		{"exactly 1 MiB is fine", map[string][]byte{"data.json": big[:maxTracked]}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := check(gitRepo(t, tt.files))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("problems = %q, want %d", got, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d = %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}

// TestThisTreeIsClean runs the check over the project itself, so a binary
// committed by mistake fails the suite as well as the lint step.
func TestThisTreeIsClean(t *testing.T) {
	root, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skip("not inside a git checkout")
	}
	got, err := check(strings.TrimSpace(string(root)))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) > 0 {
		t.Fatalf("tracked files that must leave the tree:\n%s", strings.Join(got, "\n"))
	}
}
