package desktop

import (
	"context"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// Exec answers the extension commands the fake offers (RunCommand's
// output) and refuses every other command, as the core's layer does for
// a command nobody offers.
func (f *fakeCore) Exec(ctx context.Context, line string) (agent.CommandResult, error) {
	cl, err := agent.ParseCommand(line)
	if err != nil {
		return agent.CommandResult{}, err
	}
	if cl.Name == "/rewind" && f.rewindCmd != nil {
		f.mu.Lock()
		f.messages = nil // the conversation rewound to its first message
		f.mu.Unlock()
		return *f.rewindCmd, nil
	}
	if strings.HasPrefix(cl.Name, "/ext:") && f.cmdOut != "" {
		out, err := f.RunCommand(ctx, line)
		if err != nil {
			return agent.CommandResult{}, err
		}
		return agent.CommandResult{Kind: agent.CommandRan, Name: cl.Name, Text: out, Output: &agent.CommandOutput{Text: out}}, nil
	}
	return agent.CommandResult{}, &agent.UnknownCommandError{Name: cl.Name, Kind: "command"}
}

// chatReady opens a real core with the echo model and waits for the
// composer to take a message.
func (h *harness) chatReady() *agent.Core {
	h.t.Helper()
	c := h.openCore()
	if err := c.SetModel(context.Background(), echoModel, ""); err != nil {
		h.t.Fatal(err)
	}
	h.waitFor("composer ready", func() bool { return !h.d.composer.sendBtn.Disabled() })
	return c
}

func TestSlashNewTypedInTheWindowStartsANewChat(t *testing.T) {
	h := newHarness(t)
	h.install("echo-provider")
	c := h.chatReady()
	h.send("remember the word heron")
	h.waitFor("the echo reply", func() bool {
		return !h.d.state.Busy() && strings.Contains(h.renderedTranscript(), "heron") && len(c.Session().Messages) >= 2
	})
	old := c.Session().ID

	h.send("/new")
	h.waitFor("a new chat, shown", func() bool {
		return c.Session().ID != old && h.d.state.Open().ID == c.Session().ID &&
			!strings.Contains(h.renderedTranscript(), "heron")
	})
	if n := len(c.Session().Messages); n != 0 {
		t.Fatalf("/new reached the model: the new chat holds %d messages", n)
	}
	saved, err := c.SavedSession(old)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range saved.Messages {
		if strings.Contains(m.Content, "/new") {
			t.Fatalf("/new was sent to the model as a message: %+v", m)
		}
	}
	h.ui(func() {
		if got := h.d.composer.entry.Text; got != "" {
			t.Errorf("the composer still holds %q", got)
		}
	})
}

func TestActionArgumentsTypedInTheWindowReachThePlugin(t *testing.T) {
	h := newHarness(t)
	store, err := agent.OpenPlugins(h.layout)
	if err != nil {
		t.Fatal(err)
	}
	dir := testutil.PluginDir(t, "actionecho", testutil.Binary(t, "internal/core/agent/testdata/actionecho"), map[string]any{
		"provides": []map[string]any{{"kind": "uiaction", "id": "echo"}},
		"runtime":  map[string]any{"capabilities": []string{"ui"}},
	})
	pv, err := store.PreviewInstall(agent.InstallRequest{Source: dir, Link: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Install(pv); err != nil {
		t.Fatal(err)
	}
	h.install("echo-provider")
	h.chatReady()

	h.send(`/actionecho:echo who="Ann Lee" n=2`)
	// The test plugin answers with the arguments it received, sorted.
	h.waitFor("the plugin's answer with the arguments", func() bool {
		return strings.Contains(h.renderedTranscript(), "/actionecho:echo: args: n=2,who=Ann Lee")
	})
}

func TestAMistypedCommandIsRefusedAndKeptInTheComposer(t *testing.T) {
	h := newHarness(t)
	h.install("echo-provider")
	c := h.chatReady()

	h.send("/nosuchthing please")
	h.waitFor("the refusal, naming the command", func() bool {
		return strings.Contains(h.renderedTranscript(), "unknown command /nosuchthing")
	})
	h.waitFor("the typed line back in the composer", func() bool {
		return h.d.composer.entry.Text == "/nosuchthing please"
	})
	if n := len(c.Session().Messages); n != 0 {
		t.Fatalf("the mistyped command reached the model: %d messages", n)
	}

	// A secret typed as an argument never reaches the transcript (it goes
	// back into the user's own composer, like any refused line).
	const token = "ghp_R2d2C3po4Bb8Kx9Yz0Wq1Lm5Nn6Tt7Uu8Vv9"
	h.ui(func() { h.d.composer.entry.SetText("") })
	h.send("/nosuchthing key=" + token)
	h.waitFor("the second refusal, and the line back in the composer", func() bool {
		return strings.Contains(h.renderedTranscript(), "/nosuchthing key=") && h.d.composer.entry.Text == "/nosuchthing key="+token
	})
	h.ui(func() {
		if r := h.renderedTranscript(); strings.Contains(r, token) {
			t.Errorf("the typed token is on screen:\n%s", r)
		}
	})

	// A path is a message, not a command.
	h.ui(func() { h.d.composer.entry.SetText("") })
	h.send("/usr/bin is on my PATH")
	h.waitFor("the path sent to the model", func() bool {
		return !h.d.state.Busy() && len(c.Session().Messages) >= 2
	})
}

// A new chat whose plugins cannot start leaves the chat that was open
// current and on screen, and says why where the user typed.
func TestAFailedNewChatLeavesTheOpenChatShown(t *testing.T) {
	h := newHarness(t)
	h.install("echo-provider")
	c := h.chatReady()
	h.send("remember the word heron")
	h.waitFor("the echo reply", func() bool {
		return !h.d.state.Busy() && strings.Contains(h.renderedTranscript(), "Echo: remember the word heron")
	})
	old := c.Session().ID

	// A required plugin that exits during initialize: the next generation
	// cannot start.
	store, err := agent.OpenPlugins(h.layout)
	if err != nil {
		t.Fatal(err)
	}
	dir := testutil.PluginDir(t, "needed", testutil.Binary(t, "internal/testing/testplugins/misbehave"), map[string]any{
		"runtime": map[string]any{"required": true, "env": map[string]any{"MISBEHAVE_MODE": "exit-in-initialize", "MISBEHAVE_SUBSCRIBE": ""}},
	})
	pv, err := store.PreviewInstall(agent.InstallRequest{Source: dir, Link: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Install(pv); err != nil {
		t.Fatal(err)
	}

	h.send("/new")
	h.waitFor("the reason, in the transcript", func() bool {
		return strings.Contains(h.renderedTranscript(), "/new: ") && strings.Contains(h.renderedTranscript(), "needed")
	})
	if got := c.Session().ID; got != old {
		t.Fatalf("the core's session is %s, want %s kept", got, old)
	}
	h.ui(func() {
		if got := h.d.state.Open().ID; got != old {
			t.Errorf("the window's open session is %s, want %s", got, old)
		}
		if r := h.renderedTranscript(); !strings.Contains(r, "Echo: remember the word heron") {
			t.Errorf("the open chat is no longer shown:\n%s", r)
		}
	})
}
