package host_test

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/host"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

type fixture struct {
	t      *testing.T
	layout plugin.Layout
	store  *plugin.Store
	bin    string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	layout := plugin.Layout{Root: t.TempDir()}
	if err := layout.EnsureDirs(); err != nil {
		t.Fatal(err)
	}
	store, err := plugin.OpenStore(layout)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, layout: layout, store: store, bin: testutil.Binary(t, "internal/testing/testplugins/misbehave")}
}

// add installs (links) a misbehave plugin with the given runtime overrides.
func (f *fixture) add(name string, runtime map[string]any) {
	f.t.Helper()
	rt := map[string]any{"intercepts": []string{"tool.before"}, "capabilities": []string{"interceptors"}}
	for k, v := range runtime {
		rt[k] = v
	}
	root := testutil.PluginDir(f.t, name, f.bin, map[string]any{"runtime": rt})
	plan, err := plugin.Preview(f.store, root, plugin.InstallOptions{Link: true})
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := plugin.Install(f.store, f.layout, plan); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) runtime() *host.Runtime {
	rt := host.New(host.Config{Layout: f.layout, WorkspaceRoot: f.t.TempDir(), StartBudget: 10 * time.Second})
	f.t.Cleanup(func() { rt.Shutdown(context.Background()) })
	return rt
}

func status(rt *host.Runtime, name string) host.PluginStatus {
	for _, s := range rt.Status() {
		if s.Name == name {
			return s
		}
	}
	return host.PluginStatus{}
}

func TestOptionalFailureIsAWarningNotABlockedApp(t *testing.T) {
	testutil.CheckGoroutines(t)
	f := newFixture(t)
	f.add("alpha", nil)
	f.add("beta", map[string]any{"env": map[string]any{"MISBEHAVE_MODE": "exit-in-initialize"}})
	f.add("gamma", nil)
	if err := f.store.SetEnabled("gamma", false); err != nil {
		t.Fatal(err)
	}
	rt := f.runtime()
	gen, err := rt.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(gen.Clients()); n != 1 {
		t.Fatalf("active clients = %d, want 1", n)
	}
	if s := status(rt, "alpha"); s.State != host.StateActive || s.Generation != 1 {
		t.Errorf("alpha %+v", s)
	}
	beta := status(rt, "beta")
	if beta.State != host.StateFailed || beta.StartError == nil || !strings.Contains(beta.StderrTail, "fatal: config broken") {
		t.Errorf("beta %+v", beta)
	}
	if strings.Contains(beta.StderrTail, "hunter2") || strings.Contains(beta.Failure, "hunter2") {
		t.Error("beta's diagnostics leak its password")
	}
	if s := status(rt, "gamma"); s.State != host.StateDisabled {
		t.Errorf("gamma %+v", s)
	}
	pid := gen.Clients()[0].PID()
	rt.Shutdown(context.Background())
	testutil.WaitDead(t, pid)
}

func TestRequiredFailureFailsTheStart(t *testing.T) {
	f := newFixture(t)
	f.add("alpha", nil)
	f.add("needed", map[string]any{"required": true, "env": map[string]any{"MISBEHAVE_MODE": "exit-in-initialize"}})
	rt := f.runtime()
	_, err := rt.Start(context.Background())
	if protocol.ReasonOf(err) != protocol.ReasonActivationFailed || !strings.Contains(err.Error(), "required plugin needed") {
		t.Fatalf("err = %v", err)
	}
	if rt.Current() != nil {
		t.Fatal("a generation was published")
	}
}

func TestSlotConflictFailsActivationNamingBoth(t *testing.T) {
	f := newFixture(t)
	slot := map[string]any{"replaces": []string{"system_prompt"}, "capabilities": []string{"interceptors", "strategies"}}
	f.add("first", slot)
	f.add("second", slot)
	_, err := f.runtime().Start(context.Background())
	if protocol.ReasonOf(err) != protocol.ReasonActivationFailed {
		t.Fatalf("err = %v", err)
	}
	for _, name := range []string{"first", "second", "system_prompt"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not name %s", err, name)
		}
	}
}

func TestAtMostFourHandshakesInFlight(t *testing.T) {
	f := newFixture(t)
	logFile := filepath.Join(t.TempDir(), "events")
	for _, n := range []string{"p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"} {
		f.add(n, map[string]any{"env": map[string]any{"MISBEHAVE_LOG": logFile, "MISBEHAVE_INIT_DELAY_MS": "150"}})
	}
	gen, err := f.runtime().Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(gen.Clients()); n != 8 {
		t.Fatalf("active = %d", n)
	}
	fh, err := os.Open(logFile)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	inFlight, peak := 0, 0
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "start") {
			inFlight++
		} else {
			inFlight--
		}
		peak = max(peak, inFlight)
	}
	if peak > host.MaxParallelInit {
		t.Fatalf("%d handshakes overlapped, the cap is %d", peak, host.MaxParallelInit)
	}
	if peak < 2 {
		t.Fatalf("handshakes never overlapped (peak %d): starts are serial", peak)
	}
}

func TestSharedBudgetBoundsTheWholeStart(t *testing.T) {
	f := newFixture(t)
	for _, n := range []string{"h1", "h2", "h3", "h4", "h5", "h6"} {
		f.add(n, map[string]any{"env": map[string]any{"MISBEHAVE_MODE": "hang-in-initialize"}})
	}
	rt := host.New(host.Config{Layout: f.layout, WorkspaceRoot: t.TempDir(), StartBudget: 300 * time.Millisecond})
	defer rt.Shutdown(context.Background())
	gen, err := rt.Start(context.Background())
	if err != nil {
		t.Fatal(err) // optional plugins: failures are warnings
	}
	if len(gen.Clients()) != 0 {
		t.Fatal("a hanging plugin became active")
	}
	for _, s := range rt.Status() {
		if s.State != host.StateFailed || !strings.Contains(s.Failure, "timed out") && !strings.Contains(s.Failure, "not started") {
			t.Errorf("%s: %s %q", s.Name, s.State, s.Failure)
		}
	}
}

func TestReloadAppliesChangesAndRestartsFailed(t *testing.T) {
	f := newFixture(t)
	f.add("alpha", nil)
	f.add("beta", map[string]any{"env": map[string]any{"MISBEHAVE_MODE": "crash-after-init"}})
	rt := f.runtime()
	gen1, err := rt.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	alpha1, _ := gen1.Client("alpha")
	// beta crashes on its own after its handshake.
	testutil.Eventually(t, "beta's crash", func() bool { return status(rt, "beta").State == host.StateFailed })
	if s := status(rt, "beta"); s.State != host.StateFailed || !strings.Contains(s.Failure, "exit status 7") {
		t.Fatalf("beta after crash: %+v", s)
	}

	release := rt.Hold()
	if _, err := rt.Reload(context.Background()); !errors.Is(err, host.ErrBusy) {
		t.Fatalf("reload during a turn: %v", err)
	}
	release()

	if err := f.store.SetEnabled("alpha", false); err != nil {
		t.Fatal(err)
	}
	gen2, err := rt.Reload(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if gen2.Number != 2 {
		t.Fatalf("generation %d", gen2.Number)
	}
	if s := status(rt, "alpha"); s.State != host.StateDisabled {
		t.Errorf("alpha after disable+reload: %+v", s)
	}
	testutil.WaitDead(t, alpha1.PID())
	if _, ok := gen2.Client("beta"); !ok {
		t.Error("the crashed plugin was not restarted by the reload")
	}
}
