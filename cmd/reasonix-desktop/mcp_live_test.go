package main

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// `mcp add` on a data dir that does not exist yet creates it (it failed
// "open …/.tmp-mcp.json-…: no such file"), and the server is listed.
func TestMCPAddCreatesTheDataDir(t *testing.T) {
	h := newHost(t)
	h.data = filepath.Join(h.data, "first", "use")
	if r := h.run("", "mcp", "add", "x", "--", "srv", "a"); r.code != 0 {
		t.Fatalf("add: %d %s", r.code, r.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(h.data, "mcp.json")); err != nil || !strings.Contains(string(b), `"command": "srv"`) {
		t.Fatalf("mcp.json: %s %v", b, err)
	}
}

// replOutput is a running chat's stdout, line by line.
type replOutput struct {
	t     *testing.T
	lines chan string
	seen  strings.Builder
}

func readLines(t *testing.T, r io.Reader) *replOutput {
	o := &replOutput{t: t, lines: make(chan string, 1024)}
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			o.lines <- sc.Text()
		}
		close(o.lines)
	}()
	return o
}

// waitFor reads lines until one contains want (the chat's reply), failing
// when the output ends first; the guard only bounds a hang.
func (o *replOutput) waitFor(want string) {
	o.t.Helper()
	guard := time.After(runGuard)
	for {
		select {
		case line, ok := <-o.lines:
			if !ok {
				o.t.Fatalf("the chat's output ended before %q:\n%s", want, o.seen.String())
			}
			o.seen.WriteString(line + "\n")
			if strings.Contains(line, want) {
				return
			}
		case <-guard:
			o.t.Fatalf("no %q within %v:\n%s", want, runGuard, o.seen.String())
		}
	}
}

// A server added with `mcp add` from another terminal while a chat runs is
// usable in that chat's next message, without a relaunch; removed, its
// tool is gone from the message after.
func TestServerAddedWhileAChatRunsIsUsable(t *testing.T) {
	slowStarts(t)
	h := newHost(t)
	node, srv := testutil.Node(t), testutil.MCPServer(t, "server-everything")
	if r := h.run("", "plugin", "install", "--yes", "--link", testutil.ExamplePlugin(t, "echo-provider")); r.code != 0 {
		t.Fatal(r.stderr)
	}
	cmd := h.command("chat", "--headless", "--repl", "--model", "plugin/echo-provider/echo/echo-1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	out := readLines(t, stdout)

	io.WriteString(stdin, "before\n")
	out.waitFor("Echo: before") // the chat runs, with no MCP server
	// Trusted hints: echo says it is read-only, so it runs without asking.
	if r := h.run("", "mcp", "add", "--trust-hints", "ev", "--", node, srv, "stdio"); r.code != 0 {
		t.Fatalf("add: %s", r.stderr)
	}
	// The marker's reply comes after the call's: a call that failed shows
	// at once instead of leaving the test to its guard.
	io.WriteString(stdin, `call mcp__ev__echo {"message":"added live"}`+"\n")
	io.WriteString(stdin, "marker\n")
	out.waitFor("Echo: marker")
	if !strings.Contains(out.seen.String(), "Echo: added live") {
		t.Fatalf("the server added while the chat ran was not usable in it:\n%s\n%s", out.seen.String(), stderr.String())
	}

	if r := h.run("", "mcp", "remove", "ev"); r.code != 0 {
		t.Fatalf("remove: %s", r.stderr)
	}
	io.WriteString(stdin, `call mcp__ev__echo {"message":"after removal"}`+"\n")
	io.WriteString(stdin, "last\n")
	out.waitFor("Echo: last")
	stdin.Close()
	if err := <-exited; err != nil {
		t.Fatalf("the chat: %v\n%s", err, stderr.String())
	}
	exited <- nil // for the cleanup
	for line := range out.lines {
		out.seen.WriteString(line + "\n")
	}
	if strings.Contains(out.seen.String(), "Echo: after removal") {
		t.Errorf("the removed server's tool still ran:\n%s", out.seen.String())
	}
}

// mcp call asks a server's elicitation on the terminal, one question per
// field, and the answers reach the server (before, every one was declined).
func TestMCPCallAsksElicitations(t *testing.T) {
	slowStarts(t)
	h := newHost(t)
	node, srv := testutil.Node(t), testutil.MCPServer(t, "server-everything")
	if r := h.run("", "mcp", "add", "ev", "--", node, srv, "stdio"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	answers := strings.Join([]string{"1986-04-01", "y", "ann@example.com", "", "https://ann.example", "7", "",
		"Ann Example", "", "2", "", "1,3", "Joey"}, "\n") + "\n"
	r := h.run(answers, "mcp", "call", "mcp__ev__trigger-elicitation-request", "{}")
	out := r.stdout + r.stderr
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, out)
	}
	for _, w := range []string{"MCP server ev asks", "Please provide inputs for the following fields",
		"User provided the requested information", "Name: Ann Example", "Favorite Integer: 7"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	// No input to answer from: cancelled, and the tool says so.
	r = h.run("", "mcp", "call", "mcp__ev__trigger-elicitation-request", "{}")
	if r.code != 0 || strings.Contains(r.stdout, "User provided") {
		t.Errorf("without input: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// mcp import adds a Claude Desktop config's servers, keeps the user's
// entry on a clash and says so; --dry-run changes nothing.
func TestMCPImport(t *testing.T) {
	h := newHost(t)
	if r := h.run("", "mcp", "add", "fs", "--", "mine"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	file := filepath.Join(t.TempDir(), "claude_desktop_config.json")
	os.WriteFile(file, []byte(`{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "x"]},
		"weather": {"command": "uvx", "args": ["weather"]}}}`), 0o600)
	r := h.run("", "mcp", "import", "--dry-run", file)
	if r.code != 0 || !strings.Contains(r.stdout, "will be added:\n  weather (stdio) uvx weather") ||
		!strings.Contains(r.stdout, "already in your mcp.json (yours is kept):\n  fs (stdio) npx -y x") {
		t.Fatalf("dry run: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(h.data, "mcp.json")); strings.Contains(string(b), "weather") {
		t.Fatalf("--dry-run changed mcp.json:\n%s", b)
	}
	if r := h.run("", "mcp", "import", file); r.code != 0 || !strings.Contains(r.stdout, "added:\n  weather") {
		t.Fatalf("import: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	b, _ := os.ReadFile(filepath.Join(h.data, "mcp.json"))
	if !strings.Contains(string(b), `"command": "uvx"`) || !strings.Contains(string(b), `"command": "mine"`) {
		t.Fatalf("mcp.json after the import:\n%s", b)
	}
	// disable keeps the entry, not started; enable starts it again.
	if r := h.run("", "mcp", "disable", "weather"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(h.data, "mcp.json")); !strings.Contains(string(b), `"auto_start": false`) || !strings.Contains(string(b), `"uvx"`) {
		t.Fatalf("mcp.json after disable:\n%s", b)
	}
	if r := h.run("", "mcp", "enable", "weather"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(h.data, "mcp.json")); strings.Contains(string(b), "auto_start") {
		t.Fatalf("mcp.json after enable:\n%s", b)
	}
}

// A server's sampling request reaches the chat's model only when the user
// approves it: the question names the server and shows its messages, the
// model's reply goes back to the server; declined, the server is told so
// and the model is not asked.
func TestHeadlessChatRoutesSamplingToTheModelWithApproval(t *testing.T) {
	h := mcpChatHost(t)
	call := `call mcp__ev__trigger-sampling-request {"prompt":"hello sampler","maxTokens":50}`
	// The tool call's approval, then the sampling request's.
	r := h.echoChat("o\no\n", "--prompt", call)
	out := r.stdout + r.stderr
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, out)
	}
	for _, w := range []string{"Allow MCP server ev to use the model plugin/echo-provider/echo/echo-1 with",
		"system: You are a helpful test server.", "user: Resource trigger-sampling-request context: hello sampler",
		"LLM sampling result:", `"text": "Echo: Resource trigger-sampling-request context: hello sampler"`} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	r = h.echoChat("o\nn\n", "--prompt", call)
	out = r.stdout + r.stderr
	if strings.Contains(out, "LLM sampling result:") || !strings.Contains(out, "declined the sampling request") {
		t.Errorf("a declined sampling request: %d\n%s", r.code, out)
	}
}

// mcp login says when there is nothing to sign in to: a server that runs
// on this machine, or a name that is not configured.
func TestMCPLoginNamesWhatCannotSignIn(t *testing.T) {
	h := newHost(t)
	if r := h.run("", "mcp", "add", "local", "--", "srv"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if r := h.run("", "mcp", "login", "local"); r.code != 1 || !strings.Contains(r.stderr, "runs on this machine (stdio): there is nothing to sign in to") {
		t.Errorf("login to a stdio server: %d %s", r.code, r.stderr)
	}
	if r := h.run("", "mcp", "logout", "nope"); r.code != 1 || !strings.Contains(r.stderr, `no mcp server "nope"`) {
		t.Errorf("logout of an unknown server: %d %s", r.code, r.stderr)
	}
}
