package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// mcpChatHost is a host with the echo model and server-everything over
// stdio as "ev".
func mcpChatHost(t *testing.T) *host {
	t.Helper()
	t.Setenv("REASONIX_MCP_HANDSHAKE_TIMEOUT", "60s")
	h := newHost(t)
	node, srv := testutil.Node(t), testutil.MCPServer(t, "server-everything")
	if r := h.run("", "plugin", "install", "--yes", "--link", testutil.ExamplePlugin(t, "echo-provider")); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if r := h.run("", "mcp", "add", "ev", "--", node, srv, "stdio"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	return h
}

func (h *host) echoChat(stdin string, args ...string) cliResult {
	h.t.Helper()
	return h.run(stdin, append([]string{"chat", "--headless", "--model", "plugin/echo-provider/echo/echo-1"}, args...)...)
}

// A server's prompts are slash commands whose expansion the model gets as
// the user's message; a resource referenced as @server:uri is attached to
// the message; both through the real binary against server-everything.
func TestHeadlessChatMCPPromptsAndResources(t *testing.T) {
	h := mcpChatHost(t)
	for _, c := range []struct {
		name, prompt string
		want         []string
		code         int
	}{
		{"no arguments", "/mcp__ev__simple-prompt", []string{"Echo: This is a simple prompt without arguments."}, 0},
		{"positional", "/mcp__ev__args-prompt Paris Texas", []string{"Echo: What's weather in Paris, Texas?"}, 0},
		{"key=value, quoted", `/mcp__ev__args-prompt state=Oregon city="Hood River"`, []string{"Echo: What's weather in Hood River, Oregon?"}, 0},
		{"missing required", "/mcp__ev__args-prompt", []string{`argument "city" is required`}, 1},
		{"resource", "summarise @ev:demo://resource/static/document/architecture.md please",
			[]string{"Echo: summarise @ev:demo://resource/static/document/architecture.md please", `<resource server="ev" uri="demo://resource/static/document/architecture.md">`, "</resource>"}, 0},
		{"unknown resource", "read @ev:demo://resource/static/document/nope.md", []string{"message not sent: @ev:demo://resource/static/document/nope.md: resources/read"}, 1},
		{"not a server", "mail @alice:home is text", []string{"Echo: mail @alice:home is text"}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := h.echoChat("", "--non-interactive", "--prompt", c.prompt)
			out := r.stdout + r.stderr
			if r.code != c.code {
				t.Fatalf("exit %d, want %d\n%s", r.code, c.code, out)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
	// /actions lists the prompts with their arguments.
	r := h.echoChat("", "--non-interactive", "--prompt", "/actions")
	if !strings.Contains(r.stdout+r.stderr, "/mcp__ev__args-prompt city [state]") {
		t.Errorf("/actions lacks the prompt command:\n%s%s", r.stdout, r.stderr)
	}
}

// An elicitation is asked on the terminal, naming the server, and the
// answers reach the server (its tool result repeats them).
func TestHeadlessChatAnswersAnMCPElicitation(t *testing.T) {
	h := mcpChatHost(t)
	// The tool is not read-only: approve once, then one line per field in
	// the schema's (alphabetical) order.
	answers := strings.Join([]string{"o",
		"1986-04-01",          // birthdate
		"y",                   // check
		"ann@example.com",     // email
		"",                    // firstLine: the default
		"https://ann.example", // homepage
		"7",                   // integer
		"",                    // legacyTitledEnum: the default
		"Ann Example",         // name
		"",                    // number: the default
		"2",                   // titledMultipleSelectEnum
		"",                    // titledSingleSelectEnum: the default
		"1,3",                 // untitledMultipleSelectEnum
		"Joey",                // untitledSingleSelectEnum
	}, "\n") + "\n"
	r := h.echoChat(answers, "--prompt", `call mcp__ev__trigger-elicitation-request {}`)
	out := r.stdout + r.stderr
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, out)
	}
	for _, w := range []string{"MCP server ev asks", "Please provide inputs for the following fields",
		"User provided the requested information", "Name: Ann Example", "Agreed to terms: true", "Favorite Integer: 7"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

// A long MCP call's progress notifications are tool_progress events of
// its card in --json (each fits the documented schema) and lines on the
// terminal, all before the card's end.
func TestHeadlessChatShowsMCPProgress(t *testing.T) {
	h := mcpChatHost(t)
	schema, err := testutil.LoadJSONSchema(filepath.Join(testutil.ModuleRoot(t), "docs", "chat-events.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	call := `call mcp__ev__trigger-long-running-operation {"duration":0.3,"steps":3}`
	r := h.echoChat("o\n", "--json", "--prompt", call)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var steps []float64
	done := false
	for _, ev := range jsonLines(t, schema, r.stdout) {
		c, _ := ev["call"].(map[string]any)
		switch {
		case ev["kind"] == "tool_progress":
			if done {
				t.Errorf("progress after the call ended:\n%s", r.stdout)
			}
			p := c["progress"].(map[string]any)
			if p["total"] != 3.0 || c["state"] != "running" {
				t.Errorf("progress %v of a %v card", p, c["state"])
			}
			steps = append(steps, p["progress"].(float64))
		case ev["kind"] == "tool_call" && c["state"] == "done":
			done = true
		}
	}
	// The last notification may be handled after the result (the SDK
	// dispatches them concurrently) and is then dropped: the first two
	// steps, increasing, are always there.
	if len(steps) < 2 || steps[0] != 1 || steps[1] != 2 {
		t.Errorf("progress steps %v, want 1, 2[, 3]\n%s", steps, r.stdout)
	}
	r = h.echoChat("o\n", "--prompt", call)
	if !strings.Contains(r.stdout, "[tool] mcp__ev__trigger-long-running-operation — 1/3") {
		t.Errorf("no progress line on the terminal:\n%s%s", r.stdout, r.stderr)
	}
}

// server-filesystem over stdio lists the workspace and reads a file in a
// headless chat (read-only tools of a server whose hints the user trusts:
// no approval asked): the host offers the
// workspace as the roots, which replace the folder on the server's command
// line; server-everything over Streamable HTTP answers a tool call and a
// prompt in the same chat.
func TestHeadlessChatFilesystemAndHTTPServers(t *testing.T) {
	h := mcpChatHost(t)
	node := testutil.Node(t)
	files, elsewhere := h.workdir, t.TempDir()
	if err := os.WriteFile(filepath.Join(files, "notes.txt"), []byte("the plan is in the notes"), 0o600); err != nil {
		t.Fatal(err)
	}
	// --trust-hints: the user lets fs's read-only claims skip approval
	// (without it every call is asked: trust_mcp_test.go).
	if r := h.run("", "mcp", "add", "fs", "--trust-hints", "--", node, testutil.MCPServer(t, "server-filesystem"), elsewhere); r.code != 0 {
		t.Fatal(r.stderr)
	}
	port := freeTCPPort(t)
	web := exec.Command(node, testutil.MCPServer(t, "server-everything"), "streamableHttp")
	web.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	if err := web.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { web.Process.Kill(); web.Wait() })
	testutil.WaitUntil(t, "the HTTP server", func() bool {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	if r := h.run("", "mcp", "add", "web", "--type", "http", "--url", fmt.Sprintf("http://127.0.0.1:%d/mcp", port)); r.code != 0 {
		t.Fatal(r.stderr)
	}
	for _, c := range []struct {
		name, prompt, stdin string
		want                string
	}{
		{"list a dir", fmt.Sprintf(`call mcp__fs__list_directory {"path":%q}`, files), "", "[FILE] notes.txt"},
		{"read a file", fmt.Sprintf(`call mcp__fs__read_text_file {"path":%q}`, filepath.Join(files, "notes.txt")), "", "the plan is in the notes"},
		{"outside the roots", fmt.Sprintf(`call mcp__fs__list_directory {"path":%q}`, elsewhere), "", "Access denied - path outside allowed directories"},
		{"a call over HTTP", `call mcp__web__echo {"message":"over http"}`, "o\n", "Echo: over http"},
		{"a prompt over HTTP", "/mcp__web__args-prompt Oslo", "", "Echo: What's weather in Oslo?"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := h.echoChat(c.stdin, "--prompt", c.prompt)
			if r.code != 0 || !strings.Contains(r.stdout, c.want) {
				t.Fatalf("exit %d, want %q in\n%s%s", r.code, c.want, r.stdout, r.stderr)
			}
		})
	}
}

func freeTCPPort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
