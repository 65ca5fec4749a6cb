package agent_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// The command layer runs every command once for both front ends, against
// real plugins: an action's arguments reach the plugin, forms are filled
// inline (or handed back to be asked), sessions switch, and what is not a
// command says so.
func TestExecRunsCommands(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	e.example(t, "hello-surfaces")
	e.install(t, testutil.PluginDir(t, "actionecho", testutil.Binary(t, "internal/core/agent/testdata/actionecho"), map[string]any{
		"provides": []map[string]any{{"kind": "uiaction", "id": "echo"}},
		"runtime":  map[string]any{"capabilities": []string{"ui"}},
	}))
	c := e.open(t, &recorder{})
	ctx := context.Background()
	c.SetModel(ctx, echoModel, "")
	if err := c.Send(ctx, "a saved chat"); err != nil {
		t.Fatal(err)
	}
	saved := c.Session().ID

	steps := []struct {
		line  string
		kind  agent.CommandKind
		err   string // a substring of the error, "" for none
		check func(t *testing.T, res agent.CommandResult)
		// unpublished: the form is never published, so the step runs with
		// its context already done instead of waiting out FormWait's 5 s;
		// TestFormWaitEndsAtItsBound checks that bound on a fake clock.
		unpublished bool
	}{
		{line: "/help", kind: agent.CommandHelp, check: func(t *testing.T, r agent.CommandResult) {
			if !strings.Contains(r.Text, "/new, /clear") || !strings.Contains(r.Text, "/<plugin>:<action> [k=v ...]") {
				t.Fatalf("help:\n%s", r.Text)
			}
		}},
		{line: `/actionecho:echo who="Ann Lee" n=2 empty=`, kind: agent.CommandAction, check: func(t *testing.T, r agent.CommandResult) {
			if r.Action == nil || !r.Action.Accepted || r.Action.Message != "args: empty=,n=2,who=Ann Lee" || r.Action.Plugin != "actionecho" {
				t.Fatalf("action %+v: the arguments did not reach the plugin", r.Action)
			}
		}},
		{line: "/ActionEcho:ECHO", kind: agent.CommandAction, check: func(t *testing.T, r agent.CommandResult) {
			if r.Name != "/actionecho:echo" || r.Action.Message != "args: " {
				t.Fatalf("action %+v named %s", r.Action, r.Name)
			}
		}},
		{line: "/actionecho:echo loose", err: `/actionecho:echo: "loose" is not key=value`},
		{line: `/actionecho:echo a="open`, err: "quote is not closed"},
		{line: "/actionecho:nope", err: "no action /actionecho:nope (/actions lists them)"},
		{line: "/ext:deploy prod", err: "no extension command /ext:deploy"},
		{line: "/etc is a folder", err: "unknown command /etc (/help lists the commands"},
		{line: "/", err: "a command name must follow /"},
		{line: "/usr/bin is on my PATH", err: agent.ErrNotCommand.Error()},
		{line: "hello", err: agent.ErrNotCommand.Error()},
		{line: "/actions", kind: agent.CommandActions, check: func(t *testing.T, r agent.CommandResult) {
			var names []string
			for _, a := range r.Actions {
				names = append(names, a.Name)
			}
			if got := strings.Join(names, " "); !strings.Contains(got, "/actionecho:echo") || !strings.Contains(got, "/hello-surfaces:refresh") {
				t.Fatalf("actions %s", got)
			}
		}},
		{line: "/plugins", kind: agent.CommandPlugins, check: func(t *testing.T, r agent.CommandResult) {
			if len(r.Plugins) != 3 {
				t.Fatalf("plugins %+v", r.Plugins)
			}
		}},
		{line: "/form hello-form", kind: agent.CommandFormFill, check: func(t *testing.T, r agent.CommandResult) {
			if r.Form == nil || agent.FormKey(r.Form.Key) != "hello-surfaces/hello-form" || len(r.Form.Form.Fields) == 0 {
				t.Fatalf("form %+v", r.Form)
			}
		}},
		{line: "/form hello-form colour=red", err: `form hello-surfaces/hello-form not sent: the form has no field "colour"`},
		{line: `/form hello-form name="Ann Lee" color=2`, kind: agent.CommandFormSent},
		{line: "/forms", kind: agent.CommandForms, check: func(t *testing.T, r agent.CommandResult) {
			if len(r.Forms) != 1 || r.Forms[0].Submit != surfaces.SubmitSent {
				t.Fatalf("forms %+v", r.Forms)
			}
		}},
		{line: "/form hello-form name=x", err: "was already submitted"},
		{line: "/form nothing-here", err: `no form "nothing-here" (published: hello-surfaces/hello-form)`, unpublished: true},
		{line: "/doctor", err: "/doctor needs a plugin"},
		{line: "/doctor actionecho", kind: agent.CommandDoctor, check: func(t *testing.T, r agent.CommandResult) {
			if r.Doctor == nil || !r.Doctor.OK() {
				t.Fatalf("doctor %+v", r.Doctor)
			}
		}},
		{line: "/new", kind: agent.CommandNewChat, check: func(t *testing.T, r agent.CommandResult) {
			if r.SessionID == saved || r.SessionID != c.Session().ID {
				t.Fatalf("new chat %s, current %s, old %s", r.SessionID, c.Session().ID, saved)
			}
		}},
		{line: "/sessions", kind: agent.CommandSessions, check: func(t *testing.T, r agent.CommandResult) {
			if len(r.Sessions) != 1 || r.Sessions[0].ID != saved || r.SessionID != c.Session().ID {
				t.Fatalf("sessions %+v (current %s)", r.Sessions, r.SessionID)
			}
		}},
		{line: "/open", err: "/open needs a session id"},
		{line: "/open ffffffff", err: `no saved session "ffffffff"`},
		{line: "/open " + saved[:8], kind: agent.CommandOpened, check: func(t *testing.T, r agent.CommandResult) {
			if r.SessionID != saved || c.Session().ID != saved || len(c.Session().Messages) != 2 {
				t.Fatalf("opened %s; current %s", r.SessionID, c.Session().ID)
			}
		}},
		{line: "/clear", kind: agent.CommandNewChat},
		{line: "/exit", kind: agent.CommandQuit},
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	for _, st := range steps {
		stepCtx := ctx
		if st.unpublished {
			stepCtx = done
		}
		res, err := c.Exec(stepCtx, st.line)
		if st.err != "" {
			if err == nil || !strings.Contains(err.Error(), st.err) {
				t.Fatalf("%s: error %v, want %q", st.line, err, st.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", st.line, err)
		}
		if res.Kind != st.kind || res.Text == "" {
			t.Fatalf("%s: kind %q text %q, want %q", st.line, res.Kind, res.Text, st.kind)
		}
		if st.check != nil {
			st.check(t, res)
		}
	}
}

// The errors are typed: a front end tells a message from a typo without
// reading the text.
func TestExecErrorsAreTyped(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.open(t, &recorder{})
	tests := []struct {
		line string
		want error
	}{
		{"/usr/bin", agent.ErrNotCommand},
		{"/", agent.ErrNoCommandName},
		{"/nope", agent.ErrUnknownCommand},
		{"/p:a", agent.ErrUnknownCommand},
		{"/ext:x", agent.ErrUnknownCommand},
	}
	for _, tt := range tests {
		if _, err := c.Exec(context.Background(), tt.line); !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.line, err, tt.want)
		}
	}
}
