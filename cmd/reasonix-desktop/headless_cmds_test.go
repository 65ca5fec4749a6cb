package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// headless runs `chat --headless` with args, stdin answering its questions
// (or, with --repl, carrying its lines).
func (h *host) headless(stdin string, args ...string) cliResult {
	h.t.Helper()
	return h.run(stdin, append([]string{"chat", "--headless"}, args...)...)
}

// installXext installs the scriptable xdev test extension under name with
// the given capabilities (a one-line sh wrapper execs it with its config).
func (h *host) installXext(name string, caps string) {
	h.t.Helper()
	dir := h.t.TempDir()
	cfg := filepath.Join(dir, name+".json")
	b, _ := json.Marshal(map[string]any{"name": name, "caps": json.RawMessage(caps)})
	if err := os.WriteFile(cfg, b, 0o644); err != nil {
		h.t.Fatal(err)
	}
	xext := testutil.Binary(h.t, "internal/extensions/xdev/testdata/xext")
	h.installExtension(name, []byte(fmt.Sprintf("#!/bin/sh\nexec '%s' '%s'\n", xext, cfg)))
}

// installRenderingExtension installs an xdev extension (a sh script) whose
// /ext:status answers with output for the table renderer it declares.
func (h *host) installRenderingExtension() {
	h.t.Helper()
	h.installExtension("ops.sh", []byte(`#!/bin/sh
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  case "$line" in
    *'"type":"hello"'*)
      echo '{"type":"capabilities","payload":{"commands":["status"],"renderers":[{"kind":"table","name":"hosts"}]}}' ;;
    *'"event":"command"'*)
      echo '{"type":"response","id":'"$id"',"patch":{"renderer":"hosts","data":{"columns":["host","state"],"rows":[["web-1","up"],["db-10","down"]]}}}' ;;
    *'"type":"event"'*)
      echo '{"type":"response","id":'"$id"',"allow":true}' ;;
  esac
done
`))
}

// Plugin UI actions run from the terminal as in the window: listed by
// /actions, invoked by name (any case, key=value arguments), their prompts
// answered on the terminal; what they change shows.
func TestHeadlessActions(t *testing.T) {
	h := newHost(t)
	h.installPlugins("hello-surfaces")
	cases := []struct {
		name, stdin string
		args        []string
		code        int
		stdout      []string
		stderr      []string
	}{
		{"list", "", []string{"--prompt", "/actions"}, 0,
			[]string{"/hello-surfaces:ask      Ask a question", "/hello-surfaces:refresh  Refresh the card"}, nil},
		// The card is published with refreshed 0 at start; the action
		// republishes it with 1.
		{"refresh changes the card", "", []string{"--prompt", "/hello-surfaces:refresh"}, 0,
			[]string{"/hello-surfaces:refresh: refreshed 1 times"}, []string{"[hello-surfaces] card: Hello from a plugin\n    refreshed: 1"}},
		{"any case, with arguments", "", []string{"--prompt", `/Hello-Surfaces:REFRESH reason="a test"`}, 0,
			[]string{"/hello-surfaces:refresh: refreshed 1 times"}, nil},
		{"its prompt answered", "y\n", []string{"--prompt", "/hello-surfaces:ask"}, 0,
			[]string{"/hello-surfaces:ask: answered yes"}, []string{"hello-surfaces asks: Proceed?", "[hello-surfaces] INFO: You answered: yes"}},
		{"its prompt declined", "n\n", []string{"--prompt", "/hello-surfaces:ask"}, 0,
			[]string{"/hello-surfaces:ask: answered no"}, nil},
		{"its prompt cancelled when not interactive", "", []string{"--non-interactive", "--prompt", "/hello-surfaces:ask"}, 0,
			[]string{"/hello-surfaces:ask: answered dismissed"}, []string{`! hello-surfaces asks "Proceed?"; cancelled (not interactive)`}},
		{"unknown action", "", []string{"--prompt", "/hello-surfaces:nope"}, 1,
			nil, []string{"error: no action /hello-surfaces:nope (/actions lists them)"}},
		{"bad arguments", "", []string{"--prompt", "/hello-surfaces:refresh loose"}, 1,
			nil, []string{`error: /hello-surfaces:refresh: "loose" is not key=value`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := h.headless(tc.stdin, tc.args...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s\n%s", r.code, tc.code, r.stdout, r.stderr)
			}
			for _, w := range tc.stdout {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, r.stdout)
				}
			}
			for _, w := range tc.stderr {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
		})
	}
}

// A plugin's form is filled on the terminal, field by field or inline;
// answers that do not fit are named, and the plugin receives the values
// (hello-surfaces answers a submission with a notification listing them).
func TestHeadlessForms(t *testing.T) {
	h := newHost(t)
	h.installPlugins("hello-surfaces")
	cases := []struct {
		name, stdin, line string
		extra             []string
		code              int
		out               []string // stdout and stderr together
	}{
		{"asked field by field", "\nAnn\npurple\n\n1,3\nmaybe\ny\n", "/form hello-form", nil, 0, []string{
			"hello-surfaces form: Tell us about you", "Name: is required", `Favourite color: "purple" is not one of the options (red, green, blue)`,
			`I like structured UI: "maybe" is not yes or no`, "form hello-surfaces/hello-form sent",
			"[hello-surfaces] INFO: Form submitted — agree=true, color=green, name=Ann, tags=[go plugins]"}},
		{"inline", "", "/form hello-surfaces/hello-form name=Bo color=3 agree=no", []string{"--non-interactive"}, 0, []string{
			"form hello-surfaces/hello-form sent", "Form submitted — agree=false, color=blue, name=Bo"}},
		{"inline, a required field missing", "", "/form hello-form color=red", nil, 1, []string{
			`error: form hello-surfaces/hello-form not sent: invalid value: field "name" is required`}},
		{"inline, an unknown field", "", "/form hello-form name=x colour=red", nil, 1, []string{
			`error: form hello-surfaces/hello-form not sent: the form has no field "colour" (fields: name, color, tags, agree)`}},
		{"input ends mid-form", "Ann\n", "/form hello-form", nil, 1, []string{
			"not sent: the input ended before every field was answered"}},
		{"nothing to ask on", "", "/form hello-form", []string{"--non-interactive"}, 1, []string{
			"give its values inline (field=value ...)"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := h.headless(tc.stdin, append(tc.extra, "--prompt", tc.line)...)
			all := r.stdout + r.stderr
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", r.code, tc.code, all)
			}
			for _, w := range tc.out {
				if !strings.Contains(all, w) {
					t.Errorf("output lacks %q:\n%s", w, all)
				}
			}
			if tc.code != 0 && strings.Contains(all, "Form submitted") {
				t.Errorf("a refused form reached the plugin:\n%s", all)
			}
		})
	}
}

// /form waits for a form its plugin has not published yet (a one-shot
// chat asks at once); /forms lists what was published, with its state.
func TestHeadlessFormWaitsForItsPlugin(t *testing.T) {
	h := newHost(t)
	h.installPlugins("hello-surfaces")
	r := h.headless("/form hello-form name=Cy\n/forms\n", "--repl")
	for _, w := range []string{"form hello-surfaces/hello-form sent", "hello-surfaces/hello-form — Tell us about you (sent)",
		"name: Name (input, required)", "color: Favourite color (select)"} {
		if r.code != 0 || !strings.Contains(r.stdout, w) {
			t.Errorf("exit %d; stdout lacks %q:\n%s\n%s", r.code, w, r.stdout, r.stderr)
		}
	}
}

// xdev extension commands run as /ext:<name>; an output naming a renderer
// the extension declared prints as that renderer (here, a table).
func TestHeadlessExtCommands(t *testing.T) {
	h := newHost(t)
	h.installXext("deployer", `{"commands":[{"name":"deploy","description":"deploy the app"}]}`)
	h.installRenderingExtension()
	cases := []struct {
		line string
		code int
		want string
	}{
		{"/actions", 0, "/ext:deploy  deploy the app"},
		{"/ext:deploy prod --dry-run", 0, `ran deploy with "prod --dry-run"`},
		{"/ext:status", 0, "[xdev ops] hosts (table)\n  host   state\n  web-1  up\n  db-10  down\n"},
		{"/ext:nope", 1, "error: no extension command /ext:nope (/actions lists them)"},
	}
	for _, tc := range cases {
		t.Run(tc.line, func(t *testing.T) {
			r := h.headless("", "--non-interactive", "--prompt", tc.line)
			if r.code != tc.code || !strings.Contains(r.stdout+r.stderr, tc.want) {
				t.Fatalf("exit %d (want %d), want %q in:\n%s\n%s", r.code, tc.code, tc.want, r.stdout, r.stderr)
			}
		})
	}
}

var idRE = regexp.MustCompile(`session ([0-9a-f-]{36})`)

// Saved sessions are listed and opened from the terminal, in one loop.
func TestHeadlessSessions(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	r := h.headless("", "--model", xdevEchoModel, "--prompt", "remember the walrus")
	m := idRE.FindStringSubmatch(r.stderr)
	if r.code != 0 || m == nil {
		t.Fatalf("first chat %d: %s", r.code, r.stderr)
	}
	id := m[1]
	r = h.headless("/sessions\n/new\n/open "+id[:8]+"\nand the carpenter\n/open nobody\n/quit\nnever read\n", "--repl")
	if r.code != 1 { // a line failed (/open nobody): the loop goes on, the exit status says so
		t.Fatalf("loop %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, w := range []string{id, "remember the walrus", "opened session " + id, "(2 messages)", "Echo: and the carpenter"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("stdout lacks %q:\n%s", w, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, `error: no saved session "nobody" (/sessions lists them)`) || strings.Contains(r.stdout+r.stderr, "never read") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	// The loop continued the saved session: it now holds both turns.
	b, err := os.ReadFile(filepath.Join(h.data, "sessions", id+".json"))
	if err != nil || !strings.Contains(string(b), "and the carpenter") || !strings.Contains(string(b), "remember the walrus") {
		t.Fatalf("session file: %v\n%s", err, b)
	}
}

// In a loop the same input carries the lines and the answers: a tool call
// asks for approval, the next line answers it, and the loop goes on.
func TestHeadlessLoopAnswersApprovals(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	r := h.headless(`call write_file {"path":"a.txt","content":"written"}`+"\no\n/quit\n", "--repl", "--model", xdevEchoModel)
	if r.code != 0 || !strings.Contains(r.stderr, "Allow write_file") {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(filepath.Join(h.workdir, "a.txt"))
	if err != nil || string(b) != "written" {
		t.Fatalf("the approved write did not happen: %v %q\n%s\n%s", err, b, r.stdout, r.stderr)
	}
	r = h.headless(`call write_file {"path":"b.txt","content":"no"}`+"\n\n", "--repl", "--model", xdevEchoModel)
	if _, err := os.Stat(filepath.Join(h.workdir, "b.txt")); err == nil {
		t.Fatalf("an empty answer approved a write:\n%s", r.stderr)
	}
}

// /plugins lists the plugins with their states; /doctor prints the same
// report as the window's Doctor button and `reasonix-desktop doctor`.
func TestHeadlessPluginsAndDoctor(t *testing.T) {
	h := newHost(t)
	h.installPlugins("hello-surfaces")
	cases := []struct {
		line string
		code int
		want []string
	}{
		{"/plugins", 0, []string{"PLUGIN          VERSION  STATE", "hello-surfaces  0.1.0    Active"}},
		{"/doctor hello-surfaces", 0, []string{"plugin hello-surfaces 0.1.0", "running:     Active in generation 1", "handshake:   ok in",
			"ui actions:    refresh, ask", "doctor: all checks passed"}},
		{"/doctor nobody", 1, []string{"error: doctor nobody: "}},
		{"/doctor", 1, []string{"error: /doctor needs a plugin (/plugins lists them)"}},
	}
	for _, tc := range cases {
		t.Run(tc.line, func(t *testing.T) {
			r := h.headless("", "--prompt", tc.line)
			for _, w := range tc.want {
				if r.code != tc.code || !strings.Contains(r.stdout+r.stderr, w) {
					t.Errorf("exit %d (want %d), want %q in:\n%s\n%s", r.code, tc.code, w, r.stdout, r.stderr)
				}
			}
		})
	}
	// The same report as the doctor command prints, plus the running
	// core's line (the chat has the plugin running; the command has none).
	want := h.run("", "doctor", "hello-surfaces")
	got := h.headless("", "--prompt", "/doctor hello-surfaces")
	times := regexp.MustCompile(`[0-9.]+(µs|ms|s)\b`)
	running := regexp.MustCompile(`(?m)^running: .*\n`)
	w := times.ReplaceAllString(want.stdout, "T")
	g := times.ReplaceAllString(running.ReplaceAllString(got.stdout, ""), "T")
	if want.code != 0 || w != g {
		t.Fatalf("doctor command (%d):\n%s\n/doctor:\n%s", want.code, w, g)
	}
}

// What the core's command layer decides, seen from the terminal: a path
// is a message for the model, an unknown command is refused by name (never
// sent), and /plugins lists the xdev extensions with the plugins.
func TestHeadlessCommandLayer(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	h.installXext("deployer", `{"commands":[{"name":"deploy","description":"deploy the app"}]}`)
	cases := []struct {
		line string
		code int
		want []string
		not  string
	}{
		{"/usr/bin is on my PATH", 0, []string{"Echo: /usr/bin is on my PATH"}, ""},
		{"/etc is a folder", 1, []string{"error: unknown command /etc (/help lists the commands"}, "Echo:"},
		{"/", 1, []string{"error: a command name must follow /"}, "Echo:"},
		{"/plugins", 0, []string{"echo-provider", "deployer", "xdev v1", "Active"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.line, func(t *testing.T) {
			r := h.headless("", "--non-interactive", "--model", xdevEchoModel, "--prompt", tc.line)
			all := r.stdout + r.stderr
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", r.code, tc.code, all)
			}
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("output lacks %q:\n%s", w, all)
				}
			}
			if tc.not != "" && strings.Contains(all, tc.not) {
				t.Errorf("output has %q:\n%s", tc.not, all)
			}
		})
	}
}
