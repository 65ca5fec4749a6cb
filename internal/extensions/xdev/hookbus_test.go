package xdev_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/extensions/xdev"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// The bus's hooks run through the package hooks' runner, which keeps
// hook.OutputCap (256 KiB, as the Reasonix host) of their output: a patch
// of 100 KiB reaches the model whole. The bus's own runner kept 64 KiB, cut
// such an answer and withheld the result as unreadable.
func TestHookPatchAsLargeAsTheRunnerKeeps(t *testing.T) {
	f := newFixture(t)
	m := f.open(xdev.Config{Hooks: hooksJSON(t, map[string][]map[string]any{"tool_result": {
		sh(`cat >/dev/null; printf '{"patch":"'; head -c 102400 /dev/zero | tr '\0' a; printf '"}'`),
	}})})
	res, err := m.Gates()[0].AfterTool(context.Background(), call("read_file", `{}`), agent.GateResult{Result: "x"})
	if err != nil || res.IsError || res.Result != strings.Repeat("a", 102400) {
		t.Fatalf("%d bytes, error %v, %v: %.200s", len(res.Result), res.IsError, err, res.Result)
	}
}

// A notification hook still running when its chat's extensions close is
// killed with them (the close's deadline passed), what it started too.
func TestHookDiesWithItsChat(t *testing.T) {
	f := newFixture(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	m := f.open(xdev.Config{Hooks: hooksJSON(t, map[string][]map[string]any{"turn_end": {
		sh("cat >/dev/null; echo $$ > "+pidFile+"; sleep 30 & wait", "timeoutMillis", 60000),
	}})})
	m.TurnEnded(context.Background(), "s1")
	var pid int
	eventually(t, "the turn_end hook", func() bool {
		b, err := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil && pid > 0
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m.Close(ctx)
	testutil.WaitDead(t, pid)
}
