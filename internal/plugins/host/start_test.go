package host_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/plugins/host"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
)

// Four hanging plugins that sort first used to hold all four start workers
// until the 30 s budget ran out, so nothing behind them ever started. Under
// the product's 30 s budget, a handshake deadline shorter than the budget
// frees the workers: the healthy plugins all start and the hanging ones are
// reported as timed out. The handshake deadline is the test's 2 s, not the
// product's 10 s, which only a real process could wait out (a handshake
// reads a real pipe, which a synctest bubble cannot wait on): the property
// is the same at any deadline shorter than the budget, and 2 s leave a
// healthy handshake room on a machine busy with other builds.
func TestHangingPluginsCannotStarveHealthyOnes(t *testing.T) {
	const handshake = 2 * time.Second
	f := newFixture(t)
	for i := range 4 {
		f.add(fmt.Sprintf("a-hang-%d", i), map[string]any{"env": map[string]any{"MISBEHAVE_MODE": "hang-in-initialize"}})
	}
	for i := range 28 {
		f.add(fmt.Sprintf("b-ok-%02d", i), nil)
	}
	rt := host.New(host.Config{Layout: f.layout, WorkspaceRoot: t.TempDir(), HandshakeTimeout: handshake})
	defer rt.Shutdown(context.Background())
	start := time.Now()
	gen, err := rt.Start(context.Background())
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("32 plugins, 4 hanging: started in %s", elapsed)
	if n := len(gen.Clients()); n != 28 {
		t.Fatalf("%d active, want 28", n)
	}
	for _, s := range rt.Status() {
		hang := strings.HasPrefix(s.Name, "a-hang-")
		if hang && (s.State != host.StateFailed || !strings.Contains(s.Failure, "timed out: no completed handshake within 2s")) {
			t.Errorf("%s: %s %q", s.Name, s.State, s.Failure)
		}
		if !hang && s.State != host.StateActive {
			t.Errorf("%s: %s %q", s.Name, s.State, s.Failure)
		}
	}
}

// The product's own deadlines, which the test above scales down: one round
// of hanging handshakes (as many as there are start workers) uses at most
// a third of a generation's start budget, the rest is left to the plugins
// behind them.
func TestProductHandshakeDeadlineLeavesTheBudgetToOthers(t *testing.T) {
	if 3*sidecar.HandshakeTimeout > host.StartBudget {
		t.Fatalf("a round of %d hanging handshakes of %s uses more than a third of the %s budget",
			host.MaxParallelInit, sidecar.HandshakeTimeout, host.StartBudget)
	}
}

// A plugin that never got a worker before the budget ran out says so and
// names the plugins that used the budget up.
func TestNotStartedNamesWhoUsedTheBudget(t *testing.T) {
	f := newFixture(t)
	var hangers []string
	for i := 1; i <= 8; i++ {
		name := fmt.Sprintf("h%d", i)
		hangers = append(hangers, name)
		f.add(name, map[string]any{"env": map[string]any{"MISBEHAVE_MODE": "hang-in-initialize"}})
	}
	f.add("zz", nil)
	// Two rounds of four 400 ms handshakes do not fit in 700 ms: zz never
	// gets a worker, whatever the machine's speed.
	rt := host.New(host.Config{Layout: f.layout, WorkspaceRoot: t.TempDir(),
		StartBudget: 700 * time.Millisecond, HandshakeTimeout: 400 * time.Millisecond})
	defer rt.Shutdown(context.Background())
	if _, err := rt.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	zz := status(rt, "zz")
	if zz.State != host.StateFailed || zz.StartError == nil || zz.StartError.Stage != sidecar.StageNotStarted {
		t.Fatalf("zz: %+v", zz)
	}
	if !strings.Contains(zz.Failure, "not started: the start budget was used up by h1, h2, h3, h4") {
		t.Fatalf("zz failure %q", zz.Failure)
	}
	for _, name := range hangers[:4] {
		if s := status(rt, name); !strings.Contains(s.Failure, "timed out: no completed handshake within 400ms") {
			t.Errorf("%s: %q", name, s.Failure)
		}
	}
}
