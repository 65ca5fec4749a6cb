package intercept_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/host"
	"github.com/reasonix/reasonix-desktop/internal/plugins/intercept"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// The tests run in parallel but TestFailurePolicy: each starts its own
// plugins, folders and runtime, and their time is mostly waiting on plugin
// processes.
func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// spec describes one misbehave plugin of a test generation.
type spec struct {
	name     string
	priority int
	required bool
	timeout  int // manifest timeoutMillis
	points   []string
	slots    []string
	decide   map[string]any
	env      map[string]string
}

type world struct {
	chain *intercept.Chain
	log   string
	gen   *host.Generation
}

func start(t testing.TB, specs ...spec) *world {
	t.Helper()
	return startWith(t, host.Config{}, specs...)
}

// startWith starts a generation of specs with cfg (its Layout and
// WorkspaceRoot are the test's).
func startWith(t testing.TB, cfg host.Config, specs ...spec) *world {
	t.Helper()
	bin := testutil.Binary(t, "internal/testing/testplugins/misbehave")
	layout := plugin.Layout{Root: t.TempDir()}
	if err := layout.EnsureDirs(); err != nil {
		t.Fatal(err)
	}
	store, err := plugin.OpenStore(layout)
	if err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(t.TempDir(), "log")
	for _, s := range specs {
		points := s.points
		if points == nil {
			points = []string{"tool.before"}
		}
		decide, _ := json.Marshal(s.decide)
		env := map[string]any{"MISBEHAVE_LOG": logFile, "MISBEHAVE_DECIDE": string(decide),
			"MISBEHAVE_SUBSCRIBE": strings.Join(points, ","), "MISBEHAVE_REPLACES": strings.Join(s.slots, ",")}
		for k, v := range s.env {
			env[k] = v
		}
		caps := []string{"interceptors"}
		if len(s.slots) > 0 {
			caps = append(caps, "strategies")
		}
		rt := map[string]any{"env": env, "intercepts": points, "capabilities": caps,
			"priority": s.priority, "required": s.required, "replaces": s.slots}
		if s.timeout > 0 {
			rt["timeoutMillis"] = s.timeout
		}
		root := testutil.PluginDir(t, s.name, bin, map[string]any{"runtime": rt})
		plan, err := plugin.Preview(store, root, plugin.InstallOptions{Link: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := plugin.Install(store, layout, plan); err != nil {
			t.Fatal(err)
		}
	}
	cfg.Layout, cfg.WorkspaceRoot = layout, t.TempDir()
	rt := host.New(cfg)
	t.Cleanup(func() { rt.Shutdown(context.Background()) })
	gen, err := rt.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range rt.Status() {
		if st.State != host.StateActive {
			t.Fatalf("%s is %s: %s", st.Name, st.State, st.Failure)
		}
	}
	return &world{chain: gen.Chain(), log: logFile, gen: gen}
}

// lines returns the log lines with the given prefix, pid stripped.
func (w *world) lines(t *testing.T, prefix string) []string {
	t.Helper()
	fh, err := os.Open(w.log)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out []string
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 3 && strings.HasPrefix(sc.Text(), prefix) {
			out = append(out, strings.Join(f[:len(f)-1], " "))
		}
	}
	return out
}

func toolBefore(cmd string) intercept.Call {
	return intercept.Call{Point: protocol.HookToolBefore, Payload: &protocol.ToolBeforePayload{
		Name: "run_command", Arguments: `{"command":"` + cmd + `"}`}}
}

func TestOrderIsPriorityThenName(t *testing.T) {
	t.Parallel()
	w := start(t,
		spec{name: "delta", priority: 10},
		spec{name: "alpha", priority: 0},
		spec{name: "charlie", priority: 0},
		spec{name: "bravo", priority: -5},
	)
	res, err := w.chain.Run(context.Background(), toolBefore("ls"))
	if err != nil || res.Verdict != intercept.Continue {
		t.Fatalf("%v %+v", err, res)
	}
	got := strings.Join(w.lines(t, "intercept"), ", ")
	want := "intercept tool.before bravo, intercept tool.before alpha, intercept tool.before charlie, intercept tool.before delta"
	if got != want {
		t.Fatalf("order\n got %s\nwant %s", got, want)
	}
}

func TestDecisions(t *testing.T) {
	t.Parallel()
	w := start(t,
		spec{name: "a-rewriter", priority: 1, decide: map[string]any{"tool.before": map[string]any{
			"decision": "replace", "replacement": map[string]any{"name": "run_command", "arguments": `{"command":"ls -la"}`}}}},
		spec{name: "b-blocker", priority: 2, points: []string{"tool.before", "permission.decision"}, decide: map[string]any{
			"tool.before":         map[string]any{"decision": "block", "reason": "no way, token=ghp_abcdefghijklmnopqrstuvwxyz0123456789"},
			"permission.decision": map[string]any{"decision": "allow", "reason": "trusted"}}},
		spec{name: "c-never", priority: 3},
	)
	res, err := w.chain.Run(context.Background(), toolBefore("rm -rf /"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != intercept.Blocked || res.Plugin != "b-blocker" {
		t.Fatalf("%+v", res)
	}
	if strings.Contains(res.Reason, "ghp_abcdefghijklmnopqrstuvwxyz0123456789") || !strings.Contains(res.Reason, "no way") {
		t.Fatalf("reason not redacted: %q", res.Reason)
	}
	for _, l := range w.lines(t, "intercept") {
		if strings.Contains(l, "c-never") {
			t.Fatal("an interceptor after the block ran")
		}
	}

	perm := intercept.Call{Point: protocol.HookPermissionDecision, Payload: &protocol.PermissionPayload{
		Name: "write_file", Arguments: `{"path":"/etc/x"}`, HostDecision: protocol.HostDeny}}
	res, err = w.chain.Run(context.Background(), perm)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != intercept.Allowed || res.Audit == nil || res.Audit.Plugin != "b-blocker" || res.Audit.Tool != "write_file" || len(res.Audit.ArgumentsSHA256) != 64 {
		t.Fatalf("allow over a host deny must be audited: %+v %+v", res, res.Audit)
	}
}

func TestReplaceIsSeenByTheNextInterceptor(t *testing.T) {
	t.Parallel()
	w := start(t,
		spec{name: "a", decide: map[string]any{"tool.before": map[string]any{
			"decision": "replace", "replacement": map[string]any{"name": "run_command", "arguments": `{"command":"echo safe"}`}}}},
		spec{name: "b", decide: map[string]any{"tool.before": map[string]any{"echo": true}}},
	)
	res, err := w.chain.Run(context.Background(), toolBefore("rm -rf /"))
	if err != nil {
		t.Fatal(err)
	}
	var p protocol.ToolBeforePayload
	if err := res.Decode(&p); err != nil {
		t.Fatal(err)
	}
	if !res.Replaced || string(p.Arguments) != `{"command":"echo safe"}` {
		t.Fatalf("final payload %s", res.Payload)
	}
}

// Not parallel: its plugin has a 200 ms timeout that the cases other than
// "timeout" must answer within, and runs alone before the parallel tests.
func TestFailurePolicy(t *testing.T) {
	badReplacement := map[string]any{"tool.before": map[string]any{"decision": "replace", "replacement": map[string]any{"name": ""}}}
	allowAtToolBefore := map[string]any{"tool.before": map[string]any{"decision": "allow"}}
	// Any delay past the 200 ms timeout times out, whatever the machine's
	// load; a longer one only keeps the plugin busy (its shutdown waits).
	slow := map[string]any{"tool.before": map[string]any{"decision": "continue", "delayMs": 500}}
	tests := []struct {
		name   string
		decide map[string]any
		reason protocol.Reason
	}{
		{"replacement fails re-validation", badReplacement, protocol.ReasonProtocolError},
		{"allow at the wrong point", allowAtToolBefore, protocol.ReasonProtocolError},
		{"timeout", slow, protocol.ReasonInterceptTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/optional", func(t *testing.T) {
			w := start(t, spec{name: "flaky", timeout: 200, decide: tt.decide}, spec{name: "good"})
			// The first failure opens the plugin's circuit: it is reported
			// once, with its reason, and never asked again this generation.
			res, err := w.chain.Run(context.Background(), toolBefore("ls"))
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != intercept.Continue || res.Replaced || len(res.Degraded) != 1 ||
				res.Degraded[0].Plugin != "flaky" || res.Degraded[0].Reason == "" {
				t.Fatalf("%+v", res)
			}
			for i := 0; i < 3; i++ {
				res, err = w.chain.Run(context.Background(), toolBefore("ls"))
				if err != nil || res.Verdict != intercept.Continue || len(res.Degraded) != 0 {
					t.Fatalf("run %d: %v %+v", i, err, res)
				}
			}
			if d, ok := w.chain.Degraded()["flaky"]; !ok || d.Point != protocol.HookToolBefore || !strings.Contains(d.String(), "flaky failed at tool.before") {
				t.Fatalf("Degraded() = %+v", w.chain.Degraded())
			}
			asked := 0
			for _, l := range w.lines(t, "intercept") {
				if strings.HasSuffix(l, " flaky") {
					asked++
				}
			}
			if asked != 1 {
				t.Fatalf("flaky was asked %d times, want 1", asked)
			}
		})
		t.Run(tt.name+"/required", func(t *testing.T) {
			w := start(t, spec{name: "strict", required: true, timeout: 200, decide: tt.decide})
			_, err := w.chain.Run(context.Background(), toolBefore("ls"))
			var fe *intercept.FailedError
			if !errors.As(err, &fe) || fe.Plugin != "strict" || protocol.ReasonOf(err) != tt.reason {
				t.Fatalf("err = %v (reason %q), want a FailedError naming strict with %s", err, protocol.ReasonOf(err), tt.reason)
			}
			if !strings.Contains(err.Error(), "strict") {
				t.Fatalf("message does not name the plugin: %v", err)
			}
		})
	}
}

func TestTimeoutDiscardsTheLateAnswer(t *testing.T) {
	t.Parallel()
	// A response the host no longer waits for has no method in the tap:
	// that is the late answer reaching the host.
	arrived := make(chan struct{})
	var once sync.Once
	tap := func(_ string, f ndjson.FrameInfo) {
		if f.Dir == ndjson.In && (f.Kind == "response" || f.Kind == "error") && f.Method == "" {
			once.Do(func() { close(arrived) })
		}
	}
	w := startWith(t, host.Config{OnFrame: tap}, spec{name: "late", timeout: 100, decide: map[string]any{"tool.before": map[string]any{
		"decision": "block", "reason": "too late", "delayMs": 400}}})
	// The 400 ms block arrives after the 100 ms timeout: the call is skipped
	// (optional plugin) instead of waiting for it.
	res, err := w.chain.Run(context.Background(), toolBefore("ls"))
	if err != nil || res.Verdict != intercept.Continue || len(res.Degraded) != 1 {
		t.Fatalf("%v %+v", err, res)
	}
	select { // the late block arrives and must change nothing
	case <-arrived:
	case <-time.After(testutil.WaitTimeout):
		t.Fatal("the late answer never arrived")
	}
	res, err = w.chain.Run(context.Background(), intercept.Call{Point: protocol.HookToolBefore,
		Payload: &protocol.ToolBeforePayload{Name: "read_file"}})
	if err != nil || res.Verdict != intercept.Continue {
		t.Fatalf("after the late answer: %v %+v", err, res)
	}
}

func TestSlotOwnerHasTheFinalSay(t *testing.T) {
	t.Parallel()
	sp := intercept.Call{Point: protocol.HookSystemPromptBuild, Payload: &protocol.SystemPromptPayload{Prompt: "base", WorkspaceRoot: "/w"}}
	w := start(t,
		spec{name: "chain", points: []string{"system_prompt.build"}, decide: map[string]any{"system_prompt.build": map[string]any{
			"decision": "replace", "replacement": map[string]any{"prompt": "from chain", "workspaceRoot": "/w"}}}},
		spec{name: "owner", points: []string{}, slots: []string{"system_prompt"}, decide: map[string]any{"system_prompt.build": map[string]any{
			"decision": "replace", "replacement": map[string]any{"prompt": "from owner", "workspaceRoot": "/w"}}}},
	)
	res, err := w.chain.Run(context.Background(), sp)
	if err != nil {
		t.Fatal(err)
	}
	var p protocol.SystemPromptPayload
	res.Decode(&p)
	if p.Prompt != "from owner" {
		t.Fatalf("prompt %q", p.Prompt)
	}
	order := strings.Join(w.lines(t, "intercept"), ", ")
	if order != "intercept system_prompt.build chain, intercept system_prompt.build owner" {
		t.Fatalf("order %s", order)
	}

	w = start(t, spec{name: "owner", points: []string{}, slots: []string{"system_prompt"}, decide: map[string]any{
		"system_prompt.build": map[string]any{"decision": "block", "reason": "no"}}})
	// A slot owner's block is its veto (the Reasonix host's strategy
	// dispatch): the operation stops with the owner's reason.
	if res, err := w.chain.Run(context.Background(), sp); err != nil || res.Verdict != intercept.Blocked || res.Plugin != "owner" || res.Reason != "no" {
		t.Fatalf("a blocking slot owner must stop the operation: %v %+v", err, res)
	}
	// An unowned slot keeps the host default.
	res, err = start(t, spec{name: "bystander"}).chain.Run(context.Background(), sp)
	if err != nil || res.Replaced {
		t.Fatalf("%v %+v", err, res)
	}
}

func TestToolSlotFollowsTheToolName(t *testing.T) {
	t.Parallel()
	w := start(t, spec{name: "owner", points: []string{}, slots: []string{"tool:run_command"}, decide: map[string]any{
		"tool.before": map[string]any{"decision": "replace", "replacement": map[string]any{"name": "run_command", "arguments": `{"command":"true"}`}}}})
	res, err := w.chain.Run(context.Background(), toolBefore("ls"))
	if err != nil || !res.Replaced {
		t.Fatalf("%v %+v", err, res)
	}
	res, err = w.chain.Run(context.Background(), intercept.Call{Point: protocol.HookToolBefore, Payload: &protocol.ToolBeforePayload{Name: "read_file"}})
	if err != nil || res.Replaced {
		t.Fatalf("the owner of tool:run_command ruled on read_file: %v %+v", err, res)
	}
}

// bigToolCall is a tool.before payload of exactly size bytes.
func bigToolCall(size int) intercept.Call {
	const prefix = `{"name":"write_file","arguments":"{\"path\":\"a\",\"content\":\"`
	const suffix = `\"}"}`
	pad := strings.Repeat("x", size-len(prefix)-len(suffix))
	return intercept.Call{Point: protocol.HookToolBefore, Payload: json.RawMessage(prefix + pad + suffix)}
}

func TestContentRefsRoundTripBothWays(t *testing.T) {
	t.Parallel()
	for _, size := range []int{100 << 10, 1 << 20, 79 << 20 / 10} {
		for _, byRef := range []bool{false, true} {
			name := map[bool]string{false: "inline back", true: "by reference back"}[byRef]
			t.Run(strings.Join([]string{humanSize(size), name}, "/"), func(t *testing.T) {
				// The round trip is under test, not the budget: 7.9 MiB each
				// way under -race on a loaded machine can take longer than
				// the default 5 s, so the plugin gets a hang guard's budget.
				w := start(t, spec{name: "echo", required: true, timeout: int(testutil.WaitTimeout / time.Millisecond),
					decide: map[string]any{"tool.before": map[string]any{"echo": true, "byRef": byRef}}})
				call := bigToolCall(size)
				res, err := w.chain.Run(context.Background(), call)
				if err != nil {
					t.Fatal(err)
				}
				if !res.Replaced || !jsonEqual(res.Payload, call.Payload.(json.RawMessage)) {
					t.Fatalf("payload of %d bytes did not round-trip (got %d bytes)", size, len(res.Payload))
				}
			})
		}
	}
}

func TestOversizedPayloadIsRefused(t *testing.T) {
	t.Parallel()
	w := start(t, spec{name: "echo", decide: map[string]any{"tool.before": map[string]any{"echo": true}}})
	_, err := w.chain.Run(context.Background(), bigToolCall(8<<20+1))
	if protocol.ReasonOf(err) != protocol.ReasonFrameTooLarge {
		t.Fatalf("8 MiB + 1: %v", err)
	}
}

func TestLyingChecksumIsAProtocolError(t *testing.T) {
	t.Parallel()
	w := start(t, spec{name: "liar", required: true, decide: map[string]any{"tool.before": map[string]any{"echo": true, "byRef": true, "lieSha": true}}})
	_, err := w.chain.Run(context.Background(), bigToolCall(100<<10))
	if protocol.ReasonOf(err) != protocol.ReasonProtocolError || !strings.Contains(err.Error(), "sha256") {
		t.Fatalf("err = %v", err)
	}
}

func TestEventsFanOutWithoutBlocking(t *testing.T) {
	t.Parallel()
	w := start(t,
		spec{name: "watcher", points: []string{"session.save"}},
		spec{name: "owner", points: []string{}, slots: []string{"session_policy"}},
		spec{name: "slowpoke", points: []string{"session.save"}, env: map[string]string{"MISBEHAVE_EVENT_DELAY_MS": "50"}},
		spec{name: "deaf", points: []string{"tool.before"}},
	)
	ev := intercept.Call{Point: protocol.HookSessionSave, Payload: &protocol.SessionPayload{SessionPath: "/s.json", Phase: "save"}}
	began := time.Now()
	for i := 0; i < 200; i++ {
		w.chain.Observe(ev)
	}
	// Delivering all 200 to slowpoke one by one takes 10 s: an Observe that
	// waited for it would take that long. Half of it is the bound, far
	// above what 200 queue sends take on any loaded machine.
	if d := time.Since(began); d > 5*time.Second {
		t.Fatalf("Observe blocked for %s", d)
	}
	count := func(who string) int {
		n := 0
		for _, l := range w.lines(t, "event") {
			if strings.HasSuffix(l, " "+who) {
				n++
			}
		}
		return n
	}
	// The plugins log what they got; the log is all there is to wait on.
	testutil.Eventually(t, "events at the subscriber and the observing slot owner", func() bool {
		return count("watcher") > 0 && count("owner") > 0
	})
	testutil.Eventually(t, "events at the slow subscriber", func() bool { return count("slowpoke") > 0 })
	if n := count("slowpoke"); n == 0 || n >= 200 {
		t.Fatalf("the slow subscriber got %d of 200 events; want some dropped, not all", n)
	}
	if count("deaf") != 0 {
		t.Fatal("an unsubscribed plugin got events")
	}
}

func humanSize(n int) string {
	switch {
	case n >= 1<<20:
		return strings.TrimSuffix(strings.TrimRight(jsonNum(float64(n)/(1<<20)), "0"), ".") + "MiB"
	default:
		return jsonNum(float64(n)/1024) + "KiB"
	}
}

func jsonNum(f float64) string { b, _ := json.Marshal(f); return string(b) }

func jsonEqual(a, b json.RawMessage) bool {
	// Byte-equal is equal, and cheap: decoding 7.9 MiB into values and
	// encoding them again took 3 s under -race, for every comparison.
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}

func TestAnEvictedRefIsAProtocolError(t *testing.T) {
	t.Parallel()
	w := start(t, spec{name: "hoarder", required: true, decide: map[string]any{"tool.before": map[string]any{"echo": true, "byRef": true, "firstRef": true}}})
	call := bigToolCall(70 << 10)
	for i := 0; i < 64; i++ { // the first ref stays in the store for 64 objects
		if _, err := w.chain.Run(context.Background(), call); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
	_, err := w.chain.Run(context.Background(), call)
	if protocol.ReasonOf(err) != protocol.ReasonProtocolError || !strings.Contains(err.Error(), "unknown or expired") {
		t.Fatalf("65th run with an evicted ref: %v", err)
	}
}
