package agent_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// slowEcho installs the echo model streaming a word every delayMS.
func (e *env) slowEcho(t *testing.T, delayMS string) {
	t.Helper()
	root := examplePlugin(t, "echo-provider")
	path := filepath.Join(root, "reasonix-plugin.json")
	var m map[string]any
	data, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(data, &m)
	}
	if err != nil {
		t.Fatal(err)
	}
	m["runtime"].(map[string]any)["env"] = map[string]any{"ECHO_PROVIDER_DELAY_MS": delayMS}
	data, _ = json.Marshal(m)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	e.install(t, root)
}

// checkpointOf reads session id's checkpoint as a raw reader would (the
// fields docs/session-file.md names).
type rawCheckpoint struct {
	PID     int    `json:"pid"`
	Input   string `json:"input"`
	Text    string `json:"text"`
	Session struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	} `json:"session"`
}

func checkpointOf(layout plugin.Layout, id string) (rawCheckpoint, []byte, bool) {
	data, err := os.ReadFile(filepath.Join(layout.SessionsDir(), ".turns", id+".json"))
	var cp rawCheckpoint
	if err != nil || json.Unmarshal(data, &cp) != nil {
		return cp, nil, false
	}
	return cp, data, true
}

// deadPID is the pid of a process that has exited (a killed app).
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// A turn is on disk from before the provider answers: the user's message
// first, then the reply as it streams (checkpointed at least every
// second); its end saves the chat and removes the checkpoint. What a kill
// at that moment leaves (the checkpoint as it was, its writer gone) comes
// back at the next start as the message and the partial reply marked
// interrupted, which Retry answers in full.
func TestAKilledTurnComesBackInterruptedAndRetries(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.slowEcho(t, "40")
	c := e.open(t, &recorder{})
	ctx := context.Background()
	if err := c.SetModel(ctx, echoModel, ""); err != nil {
		t.Fatal(err)
	}
	msg := strings.Repeat("checkpoint ", 60) + "end"
	id := c.SessionID()
	sent := make(chan error, 1)
	go func() { sent <- c.Send(ctx, msg) }()
	var snapshot []byte
	var partial string
	testutil.Eventually(t, "a checkpoint with part of the reply", func() bool {
		cp, data, ok := checkpointOf(e.layout, id)
		if ok && cp.Text != "" {
			snapshot, partial = data, cp.Text
			return true
		}
		return false
	})
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	if _, _, ok := checkpointOf(e.layout, id); ok {
		t.Fatal("the checkpoint outlived the saved turn")
	}
	full := c.Session().Messages[1].Content
	if !strings.HasPrefix(full, partial) || partial == full {
		t.Fatalf("checkpointed %q, not a part of %q", partial, full)
	}

	// The kill: a data dir holding only what was on disk at that moment.
	killed := plugin.Layout{Root: t.TempDir()}
	if err := killed.EnsureDirs(); err != nil {
		t.Fatal(err)
	}
	var cp map[string]any
	if err := json.Unmarshal(snapshot, &cp); err != nil {
		t.Fatal(err)
	}
	cp["pid"] = deadPID(t)
	data, _ := json.Marshal(cp)
	if err := os.MkdirAll(filepath.Join(killed.SessionsDir(), ".turns"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(killed.SessionsDir(), ".turns", id+".json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := agent.NewSessionStore(killed.SessionsDir())
	if err != nil {
		t.Fatal(err)
	}
	s, err := st.Load(id)
	if err != nil {
		t.Fatalf("a chat begun in the killed run is not there: %v", err)
	}
	if len(s.Messages) != 1 || s.Messages[0].Content != msg {
		t.Fatalf("messages after the kill: %+v", s.Messages)
	}
	last := s.Notes[len(s.Notes)-1]
	if last.Kind != agent.NoteFailed || last.End == nil || last.End.Outcome != agent.TurnInterrupted || last.Text != partial {
		t.Fatalf("the partial reply's note: %+v", last)
	}
	if _, err := os.Stat(filepath.Join(killed.SessionsDir(), ".turns", id+".json")); !os.IsNotExist(err) {
		t.Fatalf("the checkpoint stayed after recovery: %v", err)
	}

	// Retry in the restarted app answers it in full.
	e2 := &env{layout: killed, workspace: e.workspace, log: e.log}
	e2.store, _ = plugin.OpenStore(killed)
	e2.example(t, "echo-provider")
	c2, err := agent.Open(ctx, agent.Config{Layout: killed, Workspace: e.workspace, Frontend: &recorder{}, Resume: id})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close(ctx)
	if err := c2.Retry(ctx); err != nil {
		t.Fatal(err)
	}
	if ms := c2.Session().Messages; len(ms) != 2 || ms[1].Content != full {
		t.Fatalf("after Retry: %+v", ms)
	}
}

// The message never waits for the provider to be on disk: before the
// first word of the reply, the checkpoint holds it.
func TestTheMessageIsOnDiskBeforeTheReply(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.slowEcho(t, "200")
	c := e.open(t, &recorder{})
	ctx := context.Background()
	if err := c.SetModel(ctx, echoModel, ""); err != nil {
		t.Fatal(err)
	}
	sent := make(chan error, 1)
	go func() { sent <- c.Send(ctx, "first words") }()
	testutil.Eventually(t, "the message in the checkpoint", func() bool {
		cp, _, ok := checkpointOf(e.layout, c.SessionID())
		return ok && cp.PID == os.Getpid() && (cp.Input == "first words" ||
			len(cp.Session.Messages) > 0 && cp.Session.Messages[0].Content == "first words")
	})
	c.Stop()
	<-sent
}
