package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// everything is server-everything over stdio, as a package entry names it.
func everything(t *testing.T) Server {
	return Server{Name: "everything", Server: mcpspec.Server{Command: testutil.Node(t), Args: []string{testutil.MCPServer(t, "server-everything"), "stdio"}}}
}

func started(t *testing.T, opts Options, servers ...Server) *Manager {
	t.Helper()
	m := NewManager(opts)
	t.Cleanup(m.Close)
	m.Start(servers)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := m.WaitStarted(ctx); err != nil {
		t.Fatal(err)
	}
	return m
}

func tool(m *Manager, name string) (Tool, bool) {
	for _, t := range m.Tools() {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// slow starts: node under -race next to a CPU hog can take seconds.
var slow = Options{Handshake: 60 * time.Second}

// The tests that start real servers run in parallel (marked so where they
// begin): each has its own Manager, servers and folders, and most of their
// time is spent waiting for node to start and answer, one after another.

func TestEverythingOverStdio(t *testing.T) {
	t.Parallel() // its own Manager and processes: see slow
	m := started(t, slow, everything(t))
	st := m.Servers()
	if len(st) != 1 || st[0].State != StateReady || st[0].Tools == 0 {
		t.Fatalf("status %+v", st)
	}
	echo, ok := tool(m, "mcp__everything__echo")
	if !ok {
		t.Fatalf("no echo tool in %v", m.Tools())
	}
	if !strings.Contains(string(echo.InputSchema), `"message"`) {
		t.Errorf("echo's schema lacks its argument: %s", echo.InputSchema)
	}
	env, _ := tool(m, "mcp__everything__get-env")
	if !env.ReadOnly || env.Destructive {
		t.Errorf("get-env annotations: readOnly %v destructive %v", env.ReadOnly, env.Destructive)
	}
	res, err := m.Call(context.Background(), "mcp__everything__echo", json.RawMessage(`{"message":"hello there"}`), nil)
	if err != nil || res.IsError || !strings.Contains(res.Text, "hello there") {
		t.Fatalf("echo: %+v %v", res, err)
	}
	// A call the server rejects is a tool error, not a transport failure.
	res, err = m.Call(context.Background(), "mcp__everything__get-sum", json.RawMessage(`{"a":"x"}`), nil)
	if err == nil && !res.IsError {
		t.Fatalf("a bad argument passed: %+v", res)
	}
}

// A server's text is redacted before anyone sees it: get-env returns the
// server's whole environment, a token included.
func TestServerTextIsRedacted(t *testing.T) {
	t.Parallel() // its own Manager and processes: see slow
	token := "gh" + "p_" + "Zq9Xw2Lp8Kr5Mt3Nv7Bc4Hd6Jf1Gs0Ay5Ue3Io"
	s := everything(t)
	s.Env = map[string]string{"SOME_VALUE": token}
	m := started(t, slow, s)
	res, err := m.Call(context.Background(), "mcp__everything__get-env", nil, nil)
	if err != nil || !strings.Contains(res.Text, "SOME_VALUE") {
		t.Fatalf("get-env: %v %.200s", err, res.Text)
	}
	if strings.Contains(res.Text, token[4:20]) {
		t.Fatal("the token reached the result")
	}
}

func TestProgressAndCancel(t *testing.T) {
	t.Parallel() // its own Manager and processes: see slow
	m := started(t, slow, everything(t))
	var mu sync.Mutex
	var seen []Progress
	res, err := m.Call(context.Background(), "mcp__everything__trigger-long-running-operation",
		json.RawMessage(`{"duration":0.4,"steps":4}`), func(p Progress) {
			mu.Lock()
			seen = append(seen, p)
			mu.Unlock()
		})
	if err != nil || !strings.Contains(res.Text, "completed") {
		t.Fatalf("long operation: %+v %v", res, err)
	}
	// The SDK hands notifications to the handler concurrently with the
	// result: the last progress may land after the call returned (and is
	// then dropped), so the earlier steps are what a call surely sees.
	mu.Lock()
	if len(seen) < 3 || len(seen) > 4 || seen[0].Total != 4 {
		t.Errorf("progress %+v", seen)
	}
	for i := 1; i < len(seen); i++ {
		if seen[i].Progress <= seen[i-1].Progress {
			t.Errorf("progress went back: %+v", seen)
		}
	}
	mu.Unlock()

	// Stop: the call ends at once with the cancellation, long before the
	// operation's 60 s, and the server stays usable.
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan struct{})
	var once sync.Once
	done := make(chan error, 1)
	go func() {
		_, err := m.Call(ctx, "mcp__everything__trigger-long-running-operation",
			json.RawMessage(`{"duration":60,"steps":600}`), func(Progress) { once.Do(func() { close(first) }) })
		done <- err
	}()
	select {
	case <-first:
	case <-time.After(30 * time.Second):
		t.Fatal("no progress from the long operation")
	}
	cancel()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "context canceled") {
			t.Fatalf("cancelled call returned %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a cancelled call did not end")
	}
	if res, err := m.Call(context.Background(), "mcp__everything__echo", json.RawMessage(`{"message":"still here"}`), nil); err != nil || !strings.Contains(res.Text, "still here") {
		t.Fatalf("after the cancel: %+v %v", res, err)
	}
}

type answer struct{ server string }

func (a *answer) Elicit(_ context.Context, server string, req *sdk.ElicitParams) (*sdk.ElicitResult, error) {
	a.server = server
	if !strings.Contains(req.Message, "provide inputs") {
		return nil, fmt.Errorf("unexpected elicitation %q", req.Message)
	}
	return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada Lovelace", "check": true}}, nil
}

// Elicitation and roots: server-everything registers its tools for them
// once it knows the client supports them, announcing them with
// tools/list_changed, which the Manager follows.
func TestElicitationRootsAndListChanged(t *testing.T) {
	t.Parallel() // its own Manager and processes: see slow
	ws := t.TempDir()
	a := &answer{}
	m := started(t, Options{Handshake: 60 * time.Second, Elicit: a, Roots: []string{ws}}, everything(t))
	testutil.WaitUntil(t, "the conditional tools", func() bool {
		_, ok := tool(m, "mcp__everything__trigger-elicitation-request")
		return ok
	})
	res, err := m.Call(context.Background(), "mcp__everything__trigger-elicitation-request", nil, nil)
	if err != nil || !strings.Contains(res.Text, "Ada Lovelace") || a.server != "everything" {
		t.Fatalf("elicitation: %+v %v (asked for %q)", res, err, a.server)
	}
	res, err = m.Call(context.Background(), "mcp__everything__get-roots-list", nil, nil)
	if err != nil || !strings.Contains(res.Text, filepath.ToSlash(ws)) {
		t.Fatalf("roots: %+v %v", res, err)
	}
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Streamable HTTP: server-everything serves it on PORT; the test owns that
// process, the Manager only connects.
func TestEverythingOverStreamableHTTP(t *testing.T) {
	t.Parallel() // its own Manager and processes: see slow
	port := freePort(t)
	cmd := exec.Command(testutil.Node(t), testutil.MCPServer(t, "server-everything"), "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	testutil.WaitUntil(t, "the HTTP server", func() bool {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	m := started(t, slow, Server{Name: "web", Server: mcpspec.Server{Type: TypeHTTP, URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port),
		Headers: map[string]string{"X-Test": "1"}}})
	if st := m.Servers(); st[0].State != StateReady {
		t.Fatalf("status %+v", st)
	}
	res, err := m.Call(context.Background(), "mcp__web__echo", json.RawMessage(`{"message":"over http"}`), nil)
	if err != nil || !strings.Contains(res.Text, "over http") {
		t.Fatalf("echo over http: %+v %v", res, err)
	}
}

// A server that never answers costs one handshake timeout and is named; one
// that crashes is named with its exit and its stderr; neither holds up a
// good server started beside them.
func TestHangingAndCrashingServersAreNamed(t *testing.T) {
	t.Parallel() // its own Manager and processes: see slow
	node := testutil.Node(t)
	hang := Server{Name: "hangs", Server: mcpspec.Server{Command: node, Args: []string{"-e", "setInterval(() => {}, 1000)"}}}
	crash := Server{Name: "crashes", Server: mcpspec.Server{Command: node, Args: []string{"-e", "console.error('fatal: config broken'); process.exit(3)"}}}
	// The crashing one gets a long bound: node itself may take seconds to
	// start on a loaded machine, and it must be seen exiting, not timing out.
	// The hanging one never answers however long it is given, so its bound
	// is short: the test waits it out in real time (a real process's pipes
	// are not a synctest bubble's), and any bound proves the same.
	// One attempt each: the retries (TestStartIsRetriedWithBackoff) would
	// only repeat what is checked here.
	m := NewManager(Options{Handshake: 500 * time.Millisecond, StartAttempts: 1})
	t.Cleanup(m.Close)
	m.Start([]Server{hang})
	crashes := started(t, Options{Handshake: slow.Handshake, StartAttempts: 1}, crash)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := m.WaitStarted(ctx); err != nil {
		t.Fatal(err)
	}
	byName := map[string]Status{}
	for _, s := range append(m.Servers(), crashes.Servers()...) {
		byName[s.Name] = s
	}
	if s := byName["hangs"]; s.State != StateFailed || !strings.Contains(s.Err, "no answer within 500ms") {
		t.Errorf("hanging server: %+v", s)
	}
	if s := byName["crashes"]; s.State != StateFailed || !strings.Contains(s.Err, "exit status 3") || !strings.Contains(s.Err, "fatal: config broken") {
		t.Errorf("crashing server: %+v", s)
	}
	if len(m.Tools()) != 0 {
		t.Errorf("failed servers listed tools: %v", m.Tools())
	}
	if _, err := m.Call(context.Background(), "mcp__hangs__x", nil, nil); !errors.Is(err, ErrNotReady) && (err == nil || !strings.Contains(err.Error(), "not ready")) {
		t.Errorf("call to a failed server: %v", err)
	}
}

// A server killed while ready is marked failed with how it ended.
func TestCrashAfterStartIsNamed(t *testing.T) {
	t.Parallel() // its own Manager and processes: see slow
	m := started(t, slow, everything(t))
	s := m.get("everything")
	s.mu.Lock()
	pid := s.child.Pid()
	s.mu.Unlock()
	p, _ := os.FindProcess(pid)
	p.Kill()
	testutil.WaitUntil(t, "the server marked failed", func() bool { return m.Servers()[0].State == StateFailed })
	if st := m.Servers()[0]; !strings.Contains(st.Err, "connection closed") {
		t.Errorf("status %+v", st)
	}
	if err := m.Restart("everything"); err != nil {
		t.Fatal(err)
	}
	testutil.WaitUntil(t, "the server restarted", func() bool { return m.Servers()[0].State == StateReady })
}

func TestDecodeServers(t *testing.T) {
	for _, tc := range []struct {
		name, in, err string
		want          []string
	}{
		{"stdio and http", `{"b":{"command":"npx","args":["-y","x"]},"a":{"type":"http","url":"https://h/mcp","headers":{"Authorization":"Bearer x"}}}`, "", []string{"a", "b"}},
		{"camelCase autoStart", `{"a":{"command":"x","autoStart":false}}`, `mcpServers.a: json: unknown field "autoStart"`, nil},
		// What the package loader writes for a Claude Code .mcp.json server:
		// one shape (mcpspec.Server), so the runtime reads every field of it.
		{"imported from .mcp.json", `{"a":{"type":"stdio","command":"x","auto_start":false,"display_name":"A","imported":true}}`, "", []string{"a"}},
		{"no command", `{"a":{"args":["x"]}}`, `command: required`, nil},
		{"bad type", `{"a":{"type":"websocket","url":"ws://h"}}`, `type: "websocket"`, nil},
		{"bad url", `{"a":{"type":"sse","url":"file:///x"}}`, `url: want an http(s) URL`, nil},
		{"double underscore", `{"a__b":{"command":"x"}}`, `no "__"`, nil},
		{"not an object", `[1]`, `mcpServers: json`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeServers(json.RawMessage(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, s := range got {
				names = append(names, s.Name)
			}
			if !slices.Equal(names, tc.want) {
				t.Fatalf("names %v", names)
			}
		})
	}
}

func TestToolNames(t *testing.T) {
	s, tl, err := SplitToolName(ToolName("fs", "read_file"))
	if err != nil || s != "fs" || tl != "read_file" {
		t.Fatal(s, tl, err)
	}
	for _, bad := range []string{"read_file", "mcp__fs", "mcp____x", "mcp__fs__"} {
		if _, _, err := SplitToolName(bad); err == nil {
			t.Errorf("%q split", bad)
		}
	}
}

func TestStore(t *testing.T) {
	st := Store{Path: filepath.Join(t.TempDir(), FileName)}
	if got, err := st.Load(); err != nil || got != nil {
		t.Fatalf("missing file: %v %v", got, err)
	}
	if err := st.Put(Server{Name: "fs", Server: mcpspec.Server{Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "."}}}); err != nil {
		t.Fatal(err)
	}
	if err := st.Put(Server{Name: "web", Server: mcpspec.Server{Type: TypeHTTP, URL: "https://example.invalid/mcp", Headers: map[string]string{"Authorization": "Bearer x"}}}); err != nil {
		t.Fatal(err)
	}
	if err := st.Put(Server{Name: "bad", Server: mcpspec.Server{Type: TypeHTTP}}); err == nil {
		t.Fatal("an invalid entry was saved")
	}
	got, err := st.Load()
	if err != nil || len(got) != 2 || got[0].Name != "fs" || got[0].Source != "settings" || got[1].Headers["Authorization"] != "Bearer x" {
		t.Fatalf("%+v %v", got, err)
	}
	if fi, err := os.Stat(st.Path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v %v", fi.Mode(), err)
	}
	if err := st.Remove("fs"); err != nil {
		t.Fatal(err)
	}
	if err := st.Remove("fs"); err == nil || !strings.Contains(err.Error(), `no mcp server "fs"`) {
		t.Fatalf("second remove: %v", err)
	}
	for _, tc := range []struct{ body, want string }{
		{`{"mcpServers": {`, "unexpected EOF"},
		{`{"servers": {}}`, `unknown field "servers"`},
		{`{"mcpServers": {"a": {"command": 1}}}`, "mcpServers.a"},
	} {
		os.WriteFile(st.Path, []byte(tc.body), 0o600)
		if _, err := st.Load(); err == nil || !strings.Contains(err.Error(), st.Path) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v", tc.body, err)
		}
	}
}

// The core sees MCP tools as extension tools: the schema the model gets,
// the approval flags, Run calling the server.
func TestSetOffersToolsToTheCore(t *testing.T) {
	t.Parallel() // its own Manager and processes: see slow
	m := started(t, slow, everything(t))
	tools := Set{M: m}.Tools()
	byName := map[string]int{}
	for i, tl := range tools {
		byName[tl.Name] = i
	}
	i, ok := byName["mcp__everything__echo"]
	if !ok {
		t.Fatalf("no echo in %d tools", len(tools))
	}
	echo := tools[i]
	// echo says it is read-only, but the user has not chosen to trust the
	// server's hints (TestReadOnlyHintNeedsTheUsersTrust): it is approved.
	if echo.ReadOnly || echo.AlwaysAsk || !strings.Contains(string(echo.Schema().Parameters), "message") {
		t.Fatalf("echo offered as %+v", echo.Schema())
	}
	out, err := echo.Run(context.Background(), t.TempDir(), json.RawMessage(`{"message":"via the core"}`))
	if err != nil || !strings.Contains(out, "via the core") {
		t.Fatalf("run: %q %v", out, err)
	}
	if _, err := tools[byName["mcp__everything__get-sum"]].Run(context.Background(), "", json.RawMessage(`{"a":"x"}`)); err == nil {
		t.Fatal("a tool error was not an error")
	}
}
