package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// host runs the real reasonix-desktop binary against one data dir.
type host struct {
	t       *testing.T
	bin     string
	data    string
	workdir string
}

func newHost(t *testing.T) *host {
	return &host{t: t, bin: testutil.Binary(t, "cmd/reasonix-desktop"), data: t.TempDir(), workdir: t.TempDir()}
}

func (h *host) command(args ...string) *exec.Cmd {
	cmd := exec.Command(h.bin, args...)
	// English whatever the machine's locale: the tests read the CLI's
	// words (LANGUAGE comes first in i18n.Detect; a test of another
	// language sets its own).
	cmd.Env = append(os.Environ(), "REASONIX_DESKTOP_HOME="+h.data, "LANGUAGE=en")
	cmd.Dir = h.workdir
	return cmd
}

// runGuard bounds one run of the binary: far above the slowest run under
// -race next to a CPU hog, far below the package's test timeout.
const runGuard = 3 * time.Minute

func (h *host) run(stdin string, args ...string) cliResult {
	h.t.Helper()
	cmd := h.command(args...)
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(stdin), &out, &errb
	if err := cmd.Start(); err != nil {
		h.t.Fatal(err)
	}
	// A run that hangs is a failure that shows where: SIGQUIT makes the
	// Go binary print every goroutine to its stderr, which the test prints.
	guard := time.AfterFunc(runGuard, func() { cmd.Process.Signal(syscall.SIGQUIT) })
	err := cmd.Wait()
	if !guard.Stop() {
		h.t.Fatalf("reasonix-desktop %s hung for %v; its stacks:\n%s", strings.Join(args, " "), runGuard, errb.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		h.t.Fatal(err)
	}
	return cliResult{code, out.String(), errb.String()}
}

func TestExamplesInstallAndDoctor(t *testing.T) {
	h := newHost(t)
	for _, name := range []string{"echo-provider", "policy-guard", "hello-surfaces"} {
		t.Run(name, func(t *testing.T) {
			root := testutil.ExamplePlugin(t, name)
			r := h.run("", "plugin", "install", root)
			if r.code != 1 || !strings.Contains(r.stdout, "FULL TRUST") {
				t.Fatalf("preview: %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if _, err := os.Stat(filepath.Join(h.data, "plugins", name)); err == nil {
				t.Fatal("a preview wrote the plugin")
			}
			if r := h.run("", "plugin", "install", "--yes", root); r.code != 0 {
				t.Fatalf("install: %s", r.stderr)
			}
			r = h.run("", "plugin", "doctor", name)
			if r.code != 0 || !strings.Contains(r.stdout, "doctor: all checks passed") || !strings.Contains(r.stdout, "handshake:   ok") {
				t.Fatalf("doctor %d:\n%s%s", r.code, r.stdout, r.stderr)
			}
			if name == "echo-provider" && !strings.Contains(r.stdout, "plugin/echo-provider/echo/echo-1") {
				t.Fatalf("doctor lacks the catalog:\n%s", r.stdout)
			}
		})
	}
	// `reasonix-desktop doctor` checks every installed plugin, one report each.
	r := h.run("", "doctor")
	if r.code != 0 || strings.Count(r.stdout, "doctor: all checks passed") != 3 {
		t.Fatalf("doctor %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = h.run("", "doctor", "--json")
	var reports []agent.DoctorReport
	if err := json.Unmarshal([]byte(r.stdout), &reports); err != nil || r.code != 0 || len(reports) != 3 || reports[0].Plugin.Name != "echo-provider" {
		t.Fatalf("doctor --json %d %v:\n%s%s", r.code, err, r.stdout, r.stderr)
	}
}

func TestDoctorExplainsABrokenPlugin(t *testing.T) {
	h := newHost(t)
	root := testutil.PluginDir(t, "broken", testutil.Binary(t, "internal/testing/testplugins/misbehave"), map[string]any{
		"runtime": map[string]any{"env": map[string]any{"MISBEHAVE_MODE": "exit-in-initialize"},
			"intercepts": []string{"tool.before"}, "capabilities": []string{"interceptors"}}})
	if r := h.run("", "plugin", "install", "--yes", root); r.code != 0 {
		t.Fatal(r.stderr)
	}
	r := h.run("", "plugin", "doctor", "broken")
	if r.code == 0 {
		t.Fatal("doctor passed a plugin that exits during initialize")
	}
	for _, want := range []string{"stage:      handshake", "exit status 3", "fatal: config broken"} {
		if !strings.Contains(r.stdout+r.stderr, want) {
			t.Errorf("doctor output lacks %q:\n%s%s", want, r.stdout, r.stderr)
		}
	}
	if strings.Contains(r.stdout+r.stderr, "hunter2") {
		t.Error("doctor printed a secret")
	}
}

func TestHeadlessChat(t *testing.T) {
	h := newHost(t)
	for _, name := range []string{"echo-provider", "policy-guard"} {
		if r := h.run("", "plugin", "install", "--yes", testutil.ExamplePlugin(t, name)); r.code != 0 {
			t.Fatal(r.stderr)
		}
	}
	r := h.run("", "chat", "--headless", "--model", "plugin/echo-provider/echo/echo-1", "--prompt", "hi")
	if r.code != 0 || !strings.Contains(r.stdout, "Echo: hi") {
		t.Fatalf("chat %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// The model is remembered; stdin carries the message; --json is one event a line.
	r = h.run(`call run_command {"command":"rm -rf /"}`, "chat", "--headless", "--json", "--non-interactive")
	if r.code != 0 {
		t.Fatalf("chat --json %d: %s", r.code, r.stderr)
	}
	var sawBlock bool
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var ev agent.Event
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("not a JSON event line: %q", line)
		}
		if ev.Kind == agent.EventToolCall && ev.Call.State == agent.ToolBlocked && strings.Contains(ev.Call.Reason, "policy-guard") {
			sawBlock = true
		}
	}
	if !sawBlock {
		t.Fatalf("no blocked tool call event:\n%s", r.stdout)
	}
	// A turn that fails exits non-zero with the reason.
	r = h.run("", "chat", "--headless", "--model", "plugin/nobody/x/y", "--prompt", "hi")
	if r.code != 1 || !strings.Contains(r.stderr, "nobody") {
		t.Fatalf("missing plugin: %d %s", r.code, r.stderr)
	}
	r = h.run("", "models", "--json")
	if r.code != 0 || !strings.Contains(r.stdout, `"id": "plugin/echo-provider/echo/echo-1"`) {
		t.Fatalf("models: %d %s %s", r.code, r.stdout, r.stderr)
	}
}

var sessionLine = regexp.MustCompile(`session ([0-9a-f-]{36})`)

func TestKill9DuringATurnLeavesTheLastSaveLoadable(t *testing.T) {
	h := newHost(t)
	if r := h.run("", "plugin", "install", "--yes", testutil.ExamplePlugin(t, "echo-provider")); r.code != 0 {
		t.Fatal(r.stderr)
	}
	logFile := filepath.Join(t.TempDir(), "log")
	hang := testutil.PluginDir(t, "stuck", testutil.Binary(t, "internal/testing/testplugins/misbehave"), map[string]any{
		"provides": []map[string]any{{"kind": "provider", "id": "mock"}},
		"runtime": map[string]any{"capabilities": []string{"providers"},
			"env": map[string]any{"MISBEHAVE_PROVIDER": "1", "MISBEHAVE_STREAM": "c:1;hang", "MISBEHAVE_SUBSCRIBE": "", "MISBEHAVE_LOG": logFile}}})
	if r := h.run("", "plugin", "install", "--yes", hang); r.code != 0 {
		t.Fatal(r.stderr)
	}
	r := h.run("", "chat", "--headless", "--model", "plugin/echo-provider/echo/echo-1", "--prompt", "remember me")
	m := sessionLine.FindStringSubmatch(r.stderr)
	if r.code != 0 || m == nil {
		t.Fatalf("first turn: %d %s", r.code, r.stderr)
	}
	id := m[1]

	cmd := h.command("chat", "--headless", "--session", id, "--model", "plugin/stuck/mock/m1", "--prompt", "this one dies")
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	got := make(chan bool, 1)
	go func() {
		// A read may return any part of what was written: gather until the
		// first chunk is seen or the stream ends.
		var seen []byte
		buf := make([]byte, 64)
		reported := false
		for { // keep draining so the host never blocks on a full pipe
			n, err := stdout.Read(buf)
			if !reported {
				seen = append(seen, buf[:n]...)
				if strings.Contains(string(seen), "t1") || err != nil {
					got <- strings.Contains(string(seen), "t1")
					reported = true
				}
			}
			if err != nil {
				return
			}
		}
	}()
	select {
	case ok := <-got:
		if !ok {
			t.Fatal("the stuck provider's first chunk did not arrive")
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the turn never started streaming")
	}
	syscall.Kill(cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()

	// The plugin processes of the killed host die with it.
	testutil.WaitDead(t, pidsOf(t, logFile)...)

	r = h.run("", "chat", "--headless", "--session", id, "--model", "plugin/echo-provider/echo/echo-1", "--prompt", "still here?")
	if r.code != 0 || !strings.Contains(r.stdout, "Echo: still here?") {
		t.Fatalf("after kill -9: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	store, err := agent.NewSessionStore(filepath.Join(h.data, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if s.Messages[0].Content != "remember me" {
		t.Fatalf("the first turn was lost: %+v", s.Messages)
	}
}

func pidsOf(t *testing.T, logFile string) []int {
	t.Helper()
	fh, err := os.Open(logFile)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var pids []int
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if n, err := strconv.Atoi(f[len(f)-1]); err == nil {
			pids = append(pids, n)
		}
	}
	return pids
}
