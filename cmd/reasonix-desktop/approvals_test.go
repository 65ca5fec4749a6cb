package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Through the real binary: a "for this session" approval of one program
// (`echo`) lets `echo` run again unasked, but `touch` is still asked about
// (and, declined, does not run), and so is an echo chained with a shell
// operator.
func TestHeadlessSessionApprovalCoversOneProgram(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	lines := strings.Join([]string{
		`call run_command {"command":"echo first"}`, "s", // approved for the session
		`call run_command {"command":"echo second"}`,   // not asked
		`call run_command {"command":"touch pwn"}`, "", // asked: declined
		`call run_command {"command":"echo x; touch pwn2"}`, "", // asked: declined
		"/quit",
	}, "\n") + "\n"
	r := h.headless(lines, "--repl", "--model", xdevEchoModel)
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	asked := strings.Count(r.stderr, "Allow run_command")
	if asked != 3 || !strings.Contains(r.stderr, `Allow run_command {"command":"touch pwn"}`) {
		t.Fatalf("asked %d times, want 3 (echo first, touch pwn, the chained echo):\n%s\n%s", asked, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "second") {
		t.Fatalf("the approved program did not run again:\n%s", r.stdout)
	}
	for _, f := range []string{"pwn", "pwn2"} {
		if _, err := os.Stat(filepath.Join(h.workdir, f)); err == nil {
			t.Fatalf("%s was created: a session approval of echo approved another program\n%s\n%s", f, r.stdout, r.stderr)
		}
	}
}
