package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// hostile is the hostilemcp test server (testdata/hostilemcp) as the
// server name, which it also uses as the label its tools answer with.
func hostile(t *testing.T, name string, env map[string]string) Server {
	t.Helper()
	return Server{Name: name, Server: mcpspec.Server{Command: testutil.Binary(t, "internal/extensions/mcp/testdata/hostilemcp"), Args: []string{name}, Env: env}}
}

// A server name that could make one host tool name mean two tools is
// refused: with no "__" and no '_' at either end, the first "__" after
// mcp__ ends the server's name whatever the tool is called.
func TestServerNamesThatCouldCollideAreRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"a", true}, {"a_b", true}, {"a.b-c", true}, {"A9", true},
		{"a_", false}, {"a__b", false}, {"_a", false}, {"a-_", false}, {"", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Server{Name: tc.name, Server: mcpspec.Server{Command: "x"}}.Validate()
			if (err == nil) != tc.ok {
				t.Fatalf("Validate(%q) = %v, want ok %v", tc.name, err, tc.ok)
			}
			if err != nil && !strings.Contains(err.Error(), "no '_' at the end") {
				t.Errorf("the error does not say what is wrong: %v", err)
			}
		})
	}
	for _, tc := range []struct{ server, tool string }{
		{"a", "_x"}, {"a", "x"}, {"a_b", "__"}, {"a", "x__y"}, {"a.b", "_"},
	} {
		s, tl, err := SplitToolName(ToolName(tc.server, tc.tool))
		if err != nil || s != tc.server || tl != tc.tool {
			t.Errorf("%s/%s splits into %q %q %v", tc.server, tc.tool, s, tl, err)
		}
	}
}

// FuzzToolName: for every server name Validate accepts and any tool name,
// SplitToolName gives back the pair ToolName was made of, so two pairs
// never share a name.
func FuzzToolName(f *testing.F) {
	f.Add("a", "_x")
	f.Add("a_b", "__c")
	f.Add("a.b", "x__")
	f.Fuzz(func(t *testing.T, server, tool string) {
		if (Server{Name: server, Server: mcpspec.Server{Command: "x"}}).Validate() != nil || tool == "" {
			return
		}
		s, tl, err := SplitToolName(ToolName(server, tool))
		if err != nil || s != server || tl != tool {
			t.Fatalf("%q/%q splits into %q/%q (%v)", server, tool, s, tl, err)
		}
	})
}

// The attack: server "a" with tool "_x" and server "a_" with tool "x" were
// both mcp__a___x, listed twice, and the call went to the first. Now "a_"
// does not start (its name is refused), the name is listed once and the
// call reaches the tool it was listed for.
func TestCollidingServersOneNameOneTool(t *testing.T) {
	t.Parallel() // its own Manager and processes: see slow in manager_test.go
	m := started(t, slow, hostile(t, "a", nil), hostile(t, "a_", nil))
	var listed []Tool
	for _, tl := range m.Tools() {
		if tl.Name == "mcp__a___x" {
			listed = append(listed, tl)
		}
	}
	if len(listed) != 1 || listed[0].Server != "a" || listed[0].Tool != "_x" {
		t.Fatalf("mcp__a___x listed as %+v", listed)
	}
	for _, st := range m.Servers() {
		if st.Name == "a_" && (st.State != StateFailed || !strings.Contains(st.Err, `"a_"`)) {
			t.Errorf("server a_ is %s (%s), want failed naming it", st.State, st.Err)
		}
	}
	res, err := m.Call(context.Background(), "mcp__a___x", nil, nil)
	if err != nil || res.Text != "ran _x of a" {
		t.Fatalf("call: %+v %v", res, err)
	}
}

// A server that lists one tool twice (the copy with other hints) offers it
// once, as first listed, and says so in its status.
func TestToolListedTwiceIsOfferedOnce(t *testing.T) {
	t.Parallel() // its own Manager and processes: see slow in manager_test.go
	m := started(t, slow, hostile(t, "dup", map[string]string{"HOSTILEMCP_DUP": "1"}))
	n := 0
	for _, tl := range m.Tools() {
		if tl.Name == "mcp__dup__x" {
			n++
			if tl.ReadOnly {
				t.Errorf("the copy's hints won: %+v", tl)
			}
		}
	}
	if n != 1 {
		t.Fatalf("mcp__dup__x offered %d times", n)
	}
	st := m.Servers()
	if len(st) != 1 || len(st[0].Warnings) != 1 || !strings.Contains(st[0].Warnings[0], `mcp server dup lists the tool "x" more than once`) {
		t.Fatalf("status %+v", st)
	}
}

// readOnlyHint skips approval only for a server whose hints the user
// trusts; the hint itself stays on the tool for the user to see.
func TestReadOnlyHintNeedsTheUsersTrust(t *testing.T) {
	t.Parallel() // its own Manager and processes: see slow in manager_test.go
	trusted := hostile(t, "trusted", nil)
	trusted.TrustHints = true
	m := started(t, slow, hostile(t, "plain", nil), trusted)
	for _, tc := range []struct {
		name     string
		readOnly bool
	}{
		{"mcp__plain__x", false},
		{"mcp__trusted__x", true},
		{"mcp__plain__flood", false},
		{"mcp__trusted__flood", false}, // no hint: trust adds nothing
	} {
		t.Run(tc.name, func(t *testing.T) {
			found, got := false, false
			for _, gt := range (Set{M: m}).Tools() {
				if gt.Name == tc.name {
					found, got = true, gt.ReadOnly
				}
			}
			if !found || got != tc.readOnly {
				t.Fatalf("offered %v, gate ReadOnly %v, want %v", found, got, tc.readOnly)
			}
			if info, _ := tool(m, tc.name); info.ReadOnly != strings.HasSuffix(tc.name, "__x") {
				t.Errorf("the server's claim is not kept for the user to see: %+v", info)
			}
		})
	}
}

// Trust is the user's: trust_hints is read from the user's file and saved
// back, and a package's entry holding it is refused as an unknown field.
func TestTrustHintsOnlyFromTheUsersFile(t *testing.T) {
	st := Store{Path: filepath.Join(t.TempDir(), FileName)}
	for _, tc := range []struct {
		name, file, err string
		trusted         bool
	}{
		{"trusted", `{"mcpServers":{"fs":{"command":"x","trust_hints":true}}}`, "", true},
		{"not said", `{"mcpServers":{"fs":{"command":"x"}}}`, "", false},
		{"false", `{"mcpServers":{"fs":{"command":"x","trust_hints":false}}}`, "", false},
		{"not a bool", `{"mcpServers":{"fs":{"command":"x","trust_hints":"yes"}}}`, `mcpServers.fs.trust_hints: want true or false, got "yes"`, false},
		{"other fields still strict", `{"mcpServers":{"fs":{"command":"x","trust_hints":true,"autoStart":false}}}`, `unknown field "autoStart"`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(st.Path, []byte(tc.file), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := st.Load()
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), st.Path) {
					t.Fatalf("error %v, want %q naming the file", err, tc.err)
				}
				return
			}
			if err != nil || len(got) != 1 || got[0].TrustHints != tc.trusted {
				t.Fatalf("%+v %v", got, err)
			}
		})
	}
	if err := os.WriteFile(st.Path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := st.Put(Server{Name: "web", Server: mcpspec.Server{Command: "y"}, TrustHints: true}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(st.Path)
	if !strings.Contains(string(b), `"trust_hints": true`) {
		t.Errorf("the file lacks the user's trust:\n%s", b)
	}
	_, err := PackageServers("evil", t.TempDir(), json.RawMessage(`{"s":{"command":"x","trust_hints":true}}`))
	if err == nil || !strings.Contains(err.Error(), `unknown field "trust_hints"`) || !strings.Contains(err.Error(), "plugin evil") {
		t.Fatalf("a package set its own trust: %v", err)
	}
}

// counting accepts every elicitation and counts them.
type counting struct{ n atomic.Int64 }

func (c *counting) Elicit(context.Context, string, *sdk.ElicitParams) (*sdk.ElicitResult, error) {
	c.n.Add(1)
	return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"answer": "yes"}}, nil
}

// The flood: one call asks 50 times. Three reach the user, the rest are
// declined unasked and the result says so naming the server; the next
// calls in the same minute share ten.
func TestElicitationFloodIsBounded(t *testing.T) {
	t.Parallel() // its own Manager and processes: see slow in manager_test.go
	c := &counting{}
	m := started(t, Options{Handshake: 60 * time.Second, Elicit: c}, hostile(t, "flood", nil))
	for i, want := range []string{"accepted=3 declined=47", "accepted=3 declined=47", "accepted=3 declined=47", "accepted=1 declined=49"} {
		res, err := m.Call(context.Background(), "mcp__flood__flood", json.RawMessage(`{"n":50}`), nil)
		if err != nil || !strings.HasPrefix(res.Text, want) {
			t.Fatalf("call %d: %+v %v, want %q", i+1, res, err, want)
		}
		if !strings.Contains(res.Text, "declined 47 elicitation request(s) from MCP server flood") && !strings.Contains(res.Text, "declined 49 elicitation request(s) from MCP server flood") {
			t.Errorf("call %d: no notice naming the server: %s", i+1, res.Text)
		}
	}
	if got := c.n.Load(); got != ElicitPerMinute {
		t.Fatalf("the user was asked %d times, want %d", got, ElicitPerMinute)
	}
}

// The same flood from a server on the TypeScript SDK, whose elicitations
// are requests of their own (the older protocol's way, which the issue's
// 32,397 in 15 s used): three reach the user, the rest are declined.
func TestElicitationFloodOfRequestsIsBounded(t *testing.T) {
	t.Parallel() // its own Manager and processes: see slow in manager_test.go
	sdkDir := filepath.Join(testutil.ModuleRoot(t), "testdata", "mcp-servers", "node_modules", "@modelcontextprotocol", "sdk")
	if _, err := os.Stat(sdkDir); err != nil {
		t.Fatalf("the TypeScript MCP SDK is not installed (run `make mcp-servers`): %v", err)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "floodmcp.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	c := &counting{}
	m := started(t, Options{Handshake: 60 * time.Second, Elicit: c},
		Server{Name: "ts", Server: mcpspec.Server{Command: testutil.Node(t), Args: []string{script, sdkDir}}})
	res, err := m.Call(context.Background(), "mcp__ts__flood", json.RawMessage(`{"n":50}`), nil)
	if err != nil || !strings.HasPrefix(res.Text, "accepted=3 declined=47 ") ||
		!strings.Contains(res.Text, "declined 47 elicitation request(s) from MCP server ts") {
		t.Fatalf("call: %+v %v", res, err)
	}
	if got := c.n.Load(); got != 3 {
		t.Fatalf("the user was asked %d times, want 3", got)
	}
}

// Two calls flooding at once each get their own three: an elicitation a
// call's result asks for is charged to that call.
func TestConcurrentFloodsEachGetTheirOwnAllowance(t *testing.T) {
	t.Parallel() // its own Manager and processes: see slow in manager_test.go
	c := &counting{}
	m := started(t, Options{Handshake: 60 * time.Second, Elicit: c}, hostile(t, "flood", nil))
	results := make(chan string, 2)
	for range 2 {
		go func() {
			res, err := m.Call(context.Background(), "mcp__flood__flood", json.RawMessage(`{"n":20}`), nil)
			if err != nil {
				results <- err.Error()
				return
			}
			results <- res.Text
		}()
	}
	for range 2 {
		if got := <-results; !strings.HasPrefix(got, "accepted=3 declined=17 ") {
			t.Errorf("a call got %q, want its own 3", got)
		}
	}
	if got := c.n.Load(); got != 6 {
		t.Fatalf("the user was asked %d times, want 6", got)
	}
}

// ${CLAUDE_PLUGIN_ROOT} becomes the package's root as text and the server
// is exec'd with its arguments as a list: a root holding spaces, quotes,
// $(...) and non-ASCII reaches the server as one argument and runs
// nothing.
func TestPluginRootIsTextInCommandAndArgs(t *testing.T) {
	t.Parallel() // its own Manager and processes: see slow in manager_test.go
	name := "my plugin $(touch PWN) 'q' é %PATH%"
	if runtime.GOOS != "windows" {
		name += ` "dq"`
	}
	root := filepath.Join(t.TempDir(), name)
	bin := filepath.Join(root, "bin", "srv")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	b, err := os.ReadFile(testutil.Binary(t, "internal/extensions/mcp/testdata/hostilemcp"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	// Written while no process is forked: the other tests start servers
	// in parallel, and a child forked while the file is open for writing
	// holds it open until its exec, failing this one's with "text file
	// busy" (golang/go#22315).
	syscall.ForkLock.Lock()
	err = os.WriteFile(bin, b, 0o755)
	syscall.ForkLock.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	servers, err := PackageServers("kit", root, json.RawMessage(`{"srv":{"command":"${CLAUDE_PLUGIN_ROOT}/bin/srv","args":["${REASONIX_PLUGIN_ROOT}/label"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	m := started(t, slow, servers...)
	res, err := m.Call(context.Background(), "mcp__srv__x", nil, nil)
	if want := "ran x of " + root + "/label"; err != nil || res.Text != want {
		t.Fatalf("call: %+v %v, want %q", res, err, want)
	}
	if _, err := os.Stat(filepath.Join(root, "PWN")); err == nil {
		t.Fatal("the root's $(touch PWN) ran")
	}
}

// A .bat or .cmd program runs through cmd.exe on Windows: an argument or a
// path cmd.exe would read as its own is refused, naming it.
func TestBatchProgramArgumentsAreChecked(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		args       []string
		err        string
	}{
		{"exe with anything", `C:\p\srv.exe`, []string{`a&calc`, `%PATH%`}, ""},
		{"cmd with plain args", `C:\nodejs\npx.cmd`, []string{"-y", `C:\Users\Ann Lee\pkg`}, ""},
		{"ampersand", `C:\nodejs\npx.cmd`, []string{"-y", `x&calc`}, `argument 2 ("x&calc")`},
		{"variable", `C:\nodejs\npx.CMD`, []string{`%USERPROFILE%`}, `argument 1 ("%USERPROFILE%")`},
		{"quote", `C:\p\run.bat`, []string{`a"b`}, `argument 1`},
		{"root in the path", `C:\R&D\plugin\run.cmd`, nil, `command "C:\\R&D\\plugin\\run.cmd": a .cmd file runs through cmd.exe`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := batchSafe(tc.path, tc.args)
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
		})
	}
}
