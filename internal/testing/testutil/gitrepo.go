package testutil

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// HookPackage writes a v2 plugin package named gitpkg at version into dir,
// with one PreToolUse hook (hooks/guard.sh), so that its install preview
// has a FULL TRUST block.
func HookPackage(t testing.TB, dir, version string) {
	t.Helper()
	manifest := `{"apiVersion": "reasonix.io/plugin/v2", "name": "gitpkg", "version": "` + version + `",
  "contributes": {"hooks": {"PreToolUse": [{"match": "bash", "command": "hooks/guard.sh", "args": []}]}}}`
	if err := os.MkdirAll(filepath.Join(dir, "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hooks", "guard.sh"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "reasonix-plugin.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
}

// GitRepo makes a local bare repository (never the network) holding
// HookPackage at 1.0.0 and returns its file:// URL and a function that
// pushes version as a new commit. Without git on PATH the test is skipped.
func GitRepo(t testing.TB) (url string, push func(version string)) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	work, bare := t.TempDir(), filepath.Join(t.TempDir(), "gitpkg.git")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	HookPackage(t, work, "1.0.0")
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-qm", "1.0.0")
	git("clone", "-q", "--bare", work, bare)
	return "file://" + filepath.ToSlash(bare), func(version string) {
		HookPackage(t, work, version)
		git("commit", "-qam", version)
		git("push", "-q", bare, "HEAD:main")
	}
}
