package xdev_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/extensions/xdev"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// installScript copies examples/xdev-deny-rm/testdata/<name> into the
// extensions folder, executable.
func (f *fixture) installScript(name string) {
	f.t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		f.t.Skip("python3 is not installed")
	}
	b, err := os.ReadFile(filepath.Join(testutil.ModuleRoot(f.t), "examples", "xdev-deny-rm", "testdata", name))
	if err != nil {
		f.t.Fatal(err)
	}
	f.script(name, string(b))
}

// TestSeedExampleScript runs the protocol document's deny-rm.py, verbatim,
// through the host's gate. As written it checks a tool named "bash": it
// denies bash rm -rf and — honestly — lets this host's run_command through.
func TestSeedExampleScript(t *testing.T) {
	f := newFixture(t)
	f.installScript("deny-rm.py")
	m := f.open(xdev.Config{})
	if len(m.Failures()) != 0 {
		t.Fatalf("failures:\n%s", failuresText(m))
	}
	m.SessionStarted(context.Background(), "s1") // it declared session_start and answers it
	g := gate(t, m, "xdev:deny_rm")
	ctx := context.Background()
	v, err := g.BeforeTool(ctx, call("bash", `{"command":"rm -rf /tmp/x"}`))
	if err != nil || !v.Deny || v.Reason != "rm -rf is disabled in this project" {
		t.Fatalf("bash rm -rf: %+v %v", v, err)
	}
	for _, c := range []struct{ tool, args string }{
		{"bash", `{"command":"ls"}`},
		{"run_command", `{"command":"rm -rf /tmp/x"}`}, // the seed script only knows "bash"
	} {
		v, err := g.BeforeTool(ctx, call(c.tool, c.args))
		if err != nil || v.Deny {
			t.Fatalf("%s %s: %+v %v", c.tool, c.args, v, err)
		}
	}
	// It did not declare tool_result: results pass untouched.
	if len(m.Extensions()) != 1 {
		t.Fatal("the seed script died")
	}
}

// TestAdaptedScriptDeniesRunCommand runs the adapted copy (checks
// run_command) the end-to-end tests install.
func TestAdaptedScriptDeniesRunCommand(t *testing.T) {
	f := newFixture(t)
	f.installScript("deny-rm-run_command.py")
	m := f.open(xdev.Config{})
	g := gate(t, m, "xdev:deny_rm_run_command")
	v, err := g.BeforeTool(context.Background(), call("run_command", `{"command":"rm -rf /tmp/x"}`))
	if err != nil || !v.Deny || !strings.Contains(v.Reason, "rm -rf is disabled") {
		t.Fatalf("%+v %v", v, err)
	}
	v, err = g.BeforeTool(context.Background(), call("run_command", `{"command":"ls"}`))
	if err != nil || v.Deny {
		t.Fatalf("%+v %v", v, err)
	}
}
