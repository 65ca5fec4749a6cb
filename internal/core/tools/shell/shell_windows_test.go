//go:build windows

package shell

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// On Windows run_command runs under the shell resolved as the real host
// does: bash when Git for Windows is there, else PowerShell, whose stderr
// comes after the output and whose exit status is kept.
func TestRunCommandOnWindows(t *testing.T) {
	sh := hostShell()
	if _, err := exec.LookPath(sh.path); err != nil {
		t.Skipf("no shell on this machine (%s): %v", sh.path, err)
	}
	command, want := "echo hi; echo err >&2; exit 3", "hi\nerr"
	if sh.kind == powerShell {
		command, want = "Write-Output hi; [Console]::Error.WriteLine('err'); exit 3", "hi\n\n[stderr]\nerr"
	}
	raw, _ := json.Marshal(map[string]any{"command": command})
	out, err := RunCommandTool().Run(context.Background(), t.TempDir(), raw)
	if !strings.Contains(strings.ReplaceAll(out, "\r\n", "\n"), want) || err == nil || !strings.Contains(err.Error(), "exit status 3") {
		t.Fatalf("%s: %q %v", sh.path, out, err)
	}
}
