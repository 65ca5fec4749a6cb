package xdev_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/extensions/xdev"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// fixture is a data directory with extensions written into it.
type fixture struct {
	t      *testing.T
	layout plugin.Layout
	log    string // every xext appends what it receives here
	logs   *lockedBuffer
	steer  *steering
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	testutil.CheckGoroutines(t)
	layout := plugin.Layout{Root: t.TempDir()}
	if err := layout.EnsureDirs(); err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, layout: layout, log: filepath.Join(t.TempDir(), "frames.log"), logs: &lockedBuffer{}, steer: &steering{}}
}

// ext installs the scriptable test extension as extensions/<file>, with cfg
// as its behaviour (see testdata/xext). It returns the extension's path.
func (f *fixture) ext(file string, cfg map[string]any) string {
	f.t.Helper()
	if cfg == nil {
		cfg = map[string]any{}
	}
	cfg["name"] = strings.TrimSuffix(file, filepath.Ext(file))
	cfg["log"] = f.log
	b, err := json.Marshal(cfg)
	if err != nil {
		f.t.Fatal(err)
	}
	cfgPath := filepath.Join(f.t.TempDir(), file+".json")
	if err := os.WriteFile(cfgPath, b, 0o644); err != nil {
		f.t.Fatal(err)
	}
	bin := testutil.Binary(f.t, "internal/extensions/xdev/testdata/xext")
	return f.script(file, fmt.Sprintf("#!/bin/sh\nexec '%s' '%s'\n", bin, cfgPath))
}

// script writes an executable file into the extensions folder.
func (f *fixture) script(file, body string) string {
	f.t.Helper()
	p := filepath.Join(f.layout.ExtensionsDir(), file)
	if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
		f.t.Fatal(err)
	}
	return p
}

// open starts a manager; the test's cleanup closes it and checks that no
// extension process outlives it.
func (f *fixture) open(cfg xdev.Config) *xdev.Manager {
	f.t.Helper()
	cfg.Layout = f.layout
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(f.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	if cfg.Steering == nil {
		cfg.Steering = f.steer
	}
	if cfg.Version == "" {
		cfg.Version = "test"
	}
	m, err := xdev.Open(context.Background(), cfg)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() {
		m.Close(context.Background())
		testutil.WaitDead(f.t, f.pids()...)
	})
	return m
}

// lines are the frames the test extensions received, "<name> <event> <tool>".
func (f *fixture) lines() []string {
	b, err := os.ReadFile(f.log)
	if err != nil {
		return nil
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.Contains(l, " pid ") {
			out = append(out, l)
		}
	}
	return out
}

// pids of every test extension that started.
func (f *fixture) pids() []int {
	b, _ := os.ReadFile(f.log)
	var pids []int
	for _, l := range strings.Split(string(b), "\n") {
		if fs := strings.Fields(l); len(fs) == 3 && fs[1] == "pid" {
			if n, err := strconv.Atoi(fs[2]); err == nil {
				pids = append(pids, n)
			}
		}
	}
	return pids
}

// eventually waits for cond, which looks at what another process did
// (a log line, a pid): the shared hang guard does the polling.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testutil.Eventually(t, what, cond)
}

func gateNames(gates []agent.ToolGate) []string {
	var out []string
	for _, g := range gates {
		out = append(out, g.Name())
	}
	return out
}

func gate(t *testing.T, m *xdev.Manager, name string) agent.ToolGate {
	t.Helper()
	for _, g := range m.Gates() {
		if g.Name() == name {
			return g
		}
	}
	t.Fatalf("no gate %s in %v", name, gateNames(m.Gates()))
	return nil
}

func call(tool, args string) agent.GateCall {
	return agent.GateCall{SessionID: "s1", Tool: tool, Arguments: json.RawMessage(args), CallID: "call_1"}
}

func failuresText(m *xdev.Manager) string {
	var b strings.Builder
	for _, f := range m.Failures() {
		b.WriteString(f.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// steering records what extensions asked for.
type steering struct {
	mu              sync.Mutex
	steers, follows []string
}

func (s *steering) Steer(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.steers = append(s.steers, text)
}

func (s *steering) FollowUp(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.follows = append(s.follows, text)
}

func (s *steering) got() (steers, follows []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.steers...), append([]string(nil), s.follows...)
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// nopFrontend declines approvals and cancels prompts.
type nopFrontend struct{}

func (nopFrontend) Emit(agent.Event) {}
func (nopFrontend) Approve(context.Context, agent.ApprovalRequest) agent.Approval {
	return agent.ApproveDeny
}
func (nopFrontend) Prompt(context.Context, *surfaces.Prompt) (map[string]any, bool) {
	return nil, true
}
