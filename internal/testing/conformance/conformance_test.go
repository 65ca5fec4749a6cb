package conformance

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/intercept"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata/")

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// session is the fixed session context of every transcript, so the bytes
// are reproducible.
var session = protocol.SessionContext{SessionID: "sess-1", WorkspaceRoot: "/workspace", Generation: 1, Epoch: "epoch-1"}

// peer is the raw Reasonix-shaped peer running as a child process, with the
// host's real client, chain and stream hub in front of it.
type peer struct {
	cl    *sidecar.Client
	chain *intercept.Chain
	hub   *providers.Hub
	log   string
}

func startPeer(t *testing.T, provider bool, replace map[protocol.HookPoint]string) *peer {
	t.Helper()
	logFile := filepath.Join(t.TempDir(), "peer.log")
	points := protocol.HookPoints()
	names := make([]string, len(points))
	for i, p := range points {
		names[i] = string(p)
	}
	replacements := map[string]json.RawMessage{}
	for p, r := range replace {
		replacements[string(p)] = json.RawMessage(r)
	}
	rj, _ := json.Marshal(replacements)
	env := map[string]any{"PEER_LOG": logFile, "PEER_RECORD": "1", "PEER_SUBSCRIBE": strings.Join(names, ","),
		"PEER_REPLACE": string(rj)}
	manifest := map[string]any{"runtime": map[string]any{"capabilities": []string{"interceptors"}, "intercepts": names, "env": env}}
	if provider {
		env["PEER_PROVIDER"] = "1"
		manifest["runtime"].(map[string]any)["capabilities"] = []string{"interceptors", "providers"}
		manifest["provides"] = []map[string]any{{"kind": "provider", "id": "peer"}}
	}
	root := testutil.PluginDir(t, "rxpeer", testutil.Binary(t, "internal/testing/testplugins/reasonixpeer"), manifest)
	m, err := plugin.LoadManifest(root)
	if err != nil {
		t.Fatal(err)
	}
	p := &peer{hub: providers.NewHub(nil), log: logFile}
	p.cl, err = sidecar.Start(context.Background(), sidecar.Options{Name: "rxpeer", Root: root, Manifest: m,
		Session: session, UIHost: protocol.UIHostDesktop,
		Bind: func(c *sidecar.Client, conn *ndjson.Conn) { p.hub.Bind(c.Name(), conn) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.cl.Shutdown(context.Background()) })
	p.chain, err = intercept.NewChain([]*intercept.Member{{Plugin: "rxpeer", Points: points, Timeout: m.Timeout, Client: p.cl}}, intercept.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.chain.Close)
	return p
}

// lines are the peer's log lines with a prefix, prefix removed.
func (p *peer) lines(t *testing.T, prefix string) []string {
	t.Helper()
	data, err := os.ReadFile(p.log)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), prefix); ok {
			out = append(out, rest)
		}
	}
	return out
}

// frame waits for the one recorded host frame containing every marker. The
// peer is another process recording what it received in a file: there is
// no event to wait on but the file's content.
func (p *peer) frame(t *testing.T, markers ...string) string {
	t.Helper()
	defer func() {
		if t.Failed() {
			t.Logf("frames received:\n%s", strings.Join(p.lines(t, "recv "), "\n"))
		}
	}()
	var found []string
	testutil.Eventually(t, fmt.Sprintf("a frame with %q", markers), func() bool {
		found = found[:0]
	next:
		for _, l := range p.lines(t, "recv ") {
			for _, m := range markers {
				if !strings.Contains(l, m) {
					continue next
				}
			}
			found = append(found, l)
		}
		if len(found) > 1 {
			t.Fatalf("%d frames match %q", len(found), markers)
		}
		return len(found) == 1
	})
	return found[0]
}

func TestHandshakeTranscript(t *testing.T) {
	p := startPeer(t, false, nil)
	p.frame(t, `"method":"extension/initialized"`) // Start returns once it is written, not read
	recv := p.lines(t, "recv ")
	if len(recv) < 2 {
		t.Fatalf("frames %q", recv)
	}
	// The barrier: initialized is the host's very next frame after the
	// initialize answer, before any other traffic.
	if !strings.Contains(recv[0], `"method":"extension/initialize"`) || !strings.Contains(recv[1], `"method":"extension/initialized"`) {
		t.Fatalf("handshake order %q", recv[:2])
	}
	testutil.Golden(t, filepath.Join("testdata", "handshake.txtar"), *update, map[string]string{
		"host initialize": recv[0], "host initialized": recv[1]})
}

// payloads are the host DTOs each point is run with.
func payloads() map[protocol.HookPoint]protocol.HookPayload {
	msgs := []protocol.ProviderMessage{{Role: protocol.RoleSystem, Content: "You are helpful."}, {Role: protocol.RoleUser, Content: "list files"}}
	call := protocol.ProviderToolCall{ID: "call_1", Name: "run_command", Arguments: `{"command":"ls -la"}`}
	session := func(phase string) *protocol.SessionPayload {
		return &protocol.SessionPayload{SessionPath: "/data/sessions/sess-1.json", Phase: phase}
	}
	return map[protocol.HookPoint]protocol.HookPayload{
		protocol.HookInputReceive:      &protocol.InputReceivePayload{Text: "list files"},
		protocol.HookAgentBeforeStart:  &protocol.AgentBeforeStartPayload{Model: "plugin/echo-provider/echo/echo-1", ToolCount: 4, SessionID: "sess-1"},
		protocol.HookSystemPromptBuild: &protocol.SystemPromptPayload{Prompt: "You are helpful.", WorkspaceRoot: "/workspace"},
		protocol.HookContextPrepare:    &protocol.ContextPreparePayload{Messages: msgs},
		protocol.HookProviderRequest: &protocol.ProviderRequestPayload{Request: protocol.ProviderRequest{Messages: msgs,
			Tools: []protocol.ProviderToolSchema{{Name: "run_command", Description: "Run a command",
				Parameters: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)}}}},
		protocol.HookProviderResponse: &protocol.ProviderResponsePayload{Text: "Listing.", Reasoning: "The user wants files.",
			Calls: []protocol.ProviderToolCall{call}, Usage: &protocol.ProviderUsage{PromptTokens: 12, CompletionTokens: 5, TotalTokens: 17, CacheMissTokens: 12}},
		protocol.HookToolBefore: &protocol.ToolBeforePayload{Name: "run_command", Arguments: `{"command":"ls -la"}`},
		protocol.HookToolAfter:  &protocol.ToolAfterPayload{Name: "run_command", Arguments: `{"command":"ls -la"}`, Result: "total 0\n"},
		protocol.HookPermissionDecision: &protocol.PermissionPayload{Name: "run_command", Arguments: `{"command":"ls -la"}`,
			HostDecision: protocol.HostDeny},
		protocol.HookCompactionPrepare:  &protocol.CompactionPreparePayload{Messages: msgs, Guidance: "Summarise."},
		protocol.HookCompactionComplete: &protocol.CompactionCompletePayload{Summary: "The user listed files."},
		protocol.HookSessionStart:       session(protocol.PhaseStart),
		protocol.HookSessionEnd:         session(protocol.PhaseEnd),
		protocol.HookSessionLoad:        session(protocol.PhaseLoad),
		protocol.HookSessionSave:        session(protocol.PhaseSave),
		protocol.HookSessionRotate:      session(protocol.PhaseRotate),
		protocol.HookFrontendEvent:      &protocol.FrontendEventPayload{Kind: "model_picked", Text: "plugin/echo-provider/echo/echo-1", Detail: "high"},
	}
}

// replacements are valid replacements in the real shapes, one per point,
// as a Reasonix plugin would send them.
var replacements = map[protocol.HookPoint]string{
	protocol.HookInputReceive:       `{"text":"list files, please"}`,
	protocol.HookAgentBeforeStart:   `{"model":"plugin/echo-provider/echo/echo-1","toolCount":3,"sessionId":"sess-1"}`,
	protocol.HookSystemPromptBuild:  `{"prompt":"Be brief.","workspaceRoot":"/workspace"}`,
	protocol.HookContextPrepare:     `{"messages":[{"role":"user","content":"only this"}]}`,
	protocol.HookProviderRequest:    `{"request":{"messages":[{"role":"user","content":"hi"}],"tools":[],"maxTokens":256}}`,
	protocol.HookProviderResponse:   `{"text":"Replaced.","calls":[{"id":"call_9","name":"read_file","arguments":"{\"path\":\"README.md\"}"}]}`,
	protocol.HookToolBefore:         `{"name":"run_command","arguments":"{\"command\":\"ls\"}"}`,
	protocol.HookToolAfter:          `{"name":"run_command","arguments":"{\"command\":\"ls\"}","result":"[withheld]","isError":true}`,
	protocol.HookPermissionDecision: `{"name":"run_command","arguments":"{\"command\":\"ls\"}","readOnly":true,"hostDecision":"deny"}`,
	protocol.HookCompactionPrepare:  `{"messages":[],"guidance":"Shorter."}`,
	protocol.HookCompactionComplete: `{"summary":"Replaced summary."}`,
	protocol.HookSessionStart:       `{"sessionPath":"/elsewhere/start.json","phase":"start"}`,
	protocol.HookSessionEnd:         `{"sessionPath":"/elsewhere/end.json","phase":"end"}`,
	protocol.HookSessionLoad:        `{"sessionPath":"/elsewhere/load.json","phase":"load"}`,
	protocol.HookSessionSave:        `{"phase":"save"}`,
	protocol.HookSessionRotate:      `{"sessionPath":"/elsewhere/rotate.json","phase":"rotate"}`,
	protocol.HookFrontendEvent:      `{"kind":"model_picked","text":"replaced"}`,
}

// TestPointTranscripts runs each of the 17 points through the real chain:
// the intercept and event params must be the golden bytes, the peer must
// decode both into the real DTO, and its replacement must be what the point
// ends with.
func TestPointTranscripts(t *testing.T) {
	p := startPeer(t, false, replacements)
	dtos := payloads()
	got := map[string]string{}
	for _, point := range protocol.HookPoints() {
		res, err := p.chain.Run(context.Background(), intercept.Call{Point: point, Payload: dtos[point]})
		if err != nil {
			t.Fatalf("%s: %v", point, err)
		}
		if !res.Replaced || !jsonEqual(res.Payload, []byte(replacements[point])) {
			t.Errorf("%s: the replacement was not taken: %s", point, res.Payload)
		}
		p.chain.Observe(intercept.Call{Point: point, Payload: dtos[point]})
		ev := fmt.Sprintf(`"event":%q`, point)
		got["intercept "+string(point)] = p.frame(t, `"method":"extension/intercept"`, ev)
		got["event "+string(point)] = p.frame(t, `"method":"extension/event"`, ev)
	}
	ok := strings.Join(p.lines(t, "ok "), "\n")
	for _, point := range protocol.HookPoints() {
		for _, kind := range []string{"intercept", "event"} {
			if !strings.Contains(ok+"\n", kind+" "+string(point)+"\n") {
				t.Errorf("the peer did not decode the %s of %s: %v", kind, point, p.lines(t, "bad "))
			}
		}
	}
	testutil.Golden(t, filepath.Join("testdata", "points.txtar"), *update, got)
}

// TestInvalidReplacementsAreRejected: a replacement in a shape the real host
// would refuse is refused here too, whatever the point.
func TestInvalidReplacementsAreRejected(t *testing.T) {
	bad := map[protocol.HookPoint]string{
		protocol.HookToolBefore:         `{"name":"run_command","arguments":{"command":"ls"}}`,
		protocol.HookToolAfter:          `{"name":"run_command","callId":"c1"}`,
		protocol.HookPermissionDecision: `{"name":"run_command","hostDecision":"maybe"}`,
		protocol.HookSessionSave:        `{"phase":"start"}`,
		protocol.HookInputReceive:       `{"text":""}`,
		protocol.HookContextPrepare:     `{}`,
		protocol.HookCompactionComplete: `{"summary":"x"} {"summary":"y"}`,
	}
	for point, raw := range bad {
		if _, err := protocol.DecodeHookPayload(point, []byte(raw)); err == nil {
			t.Errorf("%s: %s accepted", point, raw)
		}
	}
}

var streamID = regexp.MustCompile(`es_[0-9a-f]{24}`)

// TestStreamTranscript opens a stream on the peer's provider: the open
// params are golden, and the reassembled events carry the peer's text,
// reasoning, the tool call (its argument deltas without a toolCall are
// progress, not errors) and usage.
func TestStreamTranscript(t *testing.T) {
	p := startPeer(t, true, nil)
	req := protocol.ProviderRequest{Messages: []protocol.ProviderMessage{{Role: protocol.RoleUser, Content: `call read_file {"path":"a"}`}},
		Tools: []protocol.ProviderToolSchema{}}
	s, err := p.hub.Open(context.Background(), p.cl, providers.ModelID{Plugin: "rxpeer", Provider: "peer", Model: "m1"}, "high", req)
	if err != nil {
		t.Fatal(err)
	}
	var events []string
	timeout := time.After(testutil.WaitTimeout)
	for done := false; !done; {
		select {
		case ev, ok := <-s.Events():
			if !ok {
				done = true
				break
			}
			call := ""
			if ev.ToolCall != nil {
				b, _ := json.Marshal(ev.ToolCall)
				call = " " + string(b)
			}
			events = append(events, fmt.Sprintf("%s %q argChars=%d%s", ev.Type, ev.Text, ev.ArgChars, call))
		case <-timeout:
			t.Fatal("the stream did not end")
		}
	}
	if err := s.Err(); err != nil {
		t.Fatalf("stream: %v", err)
	}
	open := streamID.ReplaceAllString(p.frame(t, `"method":"extension/provider/stream/open"`), "es_$$STREAM")
	testutil.Golden(t, filepath.Join("testdata", "stream.txtar"), *update, map[string]string{
		"host stream/open": open, "host events": strings.Join(events, "\n")})
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}
