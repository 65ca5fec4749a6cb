//go:build unix

package settings

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// unreadableEnv names the settings file the child run of
// TestUnreadableFile checks (as a user who cannot read it).
const unreadableEnv = "SETTINGS_TEST_UNREADABLE"

// An unreadable settings.json is a broken file: named, never overwritten,
// and Reset keeps it as the backup. Root reads any file, so as root the
// check runs in a copy of this test binary as the user nobody.
func TestUnreadableFile(t *testing.T) {
	if path := os.Getenv(unreadableEnv); path != "" {
		checkUnreadable(t, path)
		return
	}
	if os.Geteuid() != 0 {
		path := filepath.Join(t.TempDir(), "settings.json")
		writeBroken(t, path, "unreadable")
		checkUnreadable(t, path)
		return
	}
	const nobody = 65534
	dir, err := os.MkdirTemp("", "settings-unreadable")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil { // nobody writes the reset there
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "settings.test")
	copyExecutable(t, exe)
	path := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(path, []byte(`{"defaultModel":"m"}`), 0o600); err != nil { // root's
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestUnreadableFile$", "-test.v")
	cmd.Env = append(os.Environ(), unreadableEnv+"="+path)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestUnreadableFile") {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
}

func checkUnreadable(t *testing.T, path string) {
	f, p := Load(path)
	if p == nil || !p.Broken || !strings.Contains(p.Error(), path+": it cannot be read (permission denied)") {
		t.Fatalf("problem %v", p)
	}
	if err := f.Update(func(s *Settings) { s.DefaultModel = "x" }); err == nil {
		t.Fatal("saved over an unreadable file")
	}
	backup, err := Reset(path, time.Now())
	if err != nil || backup == "" {
		t.Fatalf("reset: %q %v", backup, err)
	}
	if _, p := Load(path); p != nil {
		t.Fatalf("after the reset: %v", p)
	}
	if _, err := os.Lstat(backup); err != nil {
		t.Fatalf("backup: %v", err)
	}
}

// copyExecutable copies the running test binary to dst (mode 0755).
func copyExecutable(t *testing.T, dst string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
