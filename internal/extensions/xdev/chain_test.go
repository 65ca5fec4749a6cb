package xdev_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/extensions/xdev"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

const echoModel = "plugin/echo-provider/echo/echo-1"

// approver approves every tool call once and keeps the reply text.
type approver struct {
	mu   sync.Mutex
	text strings.Builder
}

func (a *approver) Emit(ev agent.Event) {
	if ev.Kind == agent.EventText {
		a.mu.Lock()
		a.text.WriteString(ev.Text)
		a.mu.Unlock()
	}
}

func (a *approver) Approve(context.Context, agent.ApprovalRequest) agent.Approval {
	return agent.ApproveOnce
}

func (a *approver) Prompt(context.Context, *surfaces.Prompt) (map[string]any, bool) { return nil, true }

func (a *approver) reply() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.text.String()
}

// core opens a real agent core with the echo model and the fixture's
// extensions and hooks, and sends one message.
func (f *fixture) chat(t *testing.T, hooks map[string][]map[string]any, message string) string {
	t.Helper()
	store, err := plugin.OpenStore(f.layout)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := plugin.Preview(store, testutil.ExamplePlugin(t, "echo-provider"), plugin.InstallOptions{Link: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plugin.Install(store, f.layout, plan); err != nil {
		t.Fatal(err)
	}
	fe := &approver{}
	ctx := context.Background()
	c, err := agent.Open(ctx, agent.Config{Layout: f.layout, Workspace: t.TempDir(), Frontend: fe,
		Extensions: func(ctx context.Context, s agent.Steering) (agent.Extensions, error) {
			return xdev.Open(ctx, xdev.Config{Layout: f.layout, Steering: s, Hooks: hooksJSON(t, hooks), Version: "test"})
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		c.Close(ctx)
		testutil.WaitDead(t, f.pids()...)
	}()
	if err := c.SetModel(ctx, echoModel, ""); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(ctx, message); err != nil {
		t.Fatal(err)
	}
	return fe.reply()
}

// policyLines keeps the tool_call / tool_result lines of the frames log.
func (f *fixture) policyLines() []string {
	var out []string
	for _, l := range f.lines() {
		if strings.Contains(l, " tool_call") || strings.Contains(l, " tool_result") {
			out = append(out, l)
		}
	}
	return out
}

func TestChainRunsHooksThenExtensionsInLexicalOrder(t *testing.T) {
	f := newFixture(t)
	// Written b first: the order comes from the file names, not the writes.
	f.ext("b-second", map[string]any{"toolResult": "patch", "patch": "from b\nsecond line"})
	f.ext("a-first", map[string]any{"toolResult": "patch", "patch": "from a"})
	hooks := map[string][]map[string]any{
		"tool_call":   {sh("echo 'hooks tool_call run_command' >> " + f.log)},
		"tool_result": {sh("echo 'hooks tool_result run_command' >> " + f.log)},
	}
	reply := f.chat(t, hooks, `call run_command {"command":"echo hi"}`)
	want := []string{
		"hooks tool_call run_command", "a-first tool_call run_command", "b-second tool_call run_command",
		"hooks tool_result run_command", "a-first tool_result run_command", "b-second tool_result run_command",
	}
	if got := f.policyLines(); !slices.Equal(got, want) {
		t.Fatalf("order:\n got %q\nwant %q", got, want)
	}
	// Patches apply in sequence: the last extension's patch is what the
	// model sees.
	if reply != "Tool result: from b" {
		t.Fatalf("reply %q", reply)
	}
}

func TestFirstDenialShortCircuits(t *testing.T) {
	t.Run("an extension denies", func(t *testing.T) {
		f := newFixture(t)
		f.ext("a-first", map[string]any{"toolCall": "deny", "reason": "a says no"})
		f.ext("b-second", nil)
		reply := f.chat(t, map[string][]map[string]any{"tool_call": {sh("exit 0")}}, `call run_command {"command":"echo hi"}`)
		if reply != "Tool result: Blocked by xdev:a_first: a says no" {
			t.Fatalf("reply %q", reply)
		}
		if got := f.policyLines(); !slices.Equal(got, []string{"a-first tool_call run_command"}) {
			t.Fatalf("b-second or a tool_result ran: %q", got)
		}
	})
	t.Run("a hook denies", func(t *testing.T) {
		f := newFixture(t)
		f.ext("a-first", nil)
		reply := f.chat(t, map[string][]map[string]any{"tool_call": {sh("echo 'not today'; exit 2")}}, `call run_command {"command":"echo hi"}`)
		if reply != "Tool result: Blocked by hooks: tool_call hook #1 (/bin/sh): not today" {
			t.Fatalf("reply %q", reply)
		}
		if got := f.policyLines(); len(got) != 0 {
			t.Fatalf("an extension saw a denied call: %q", got)
		}
	})
	t.Run("a dead extension fails closed", func(t *testing.T) {
		f := newFixture(t)
		f.ext("a-first", map[string]any{"toolCall": "crash"})
		reply := f.chat(t, nil, `call run_command {"command":"echo hi"}`)
		if !strings.HasPrefix(reply, "Tool result: Blocked by xdev:a_first: could not decide: xdev extension a_first") {
			t.Fatalf("reply %q", reply)
		}
	})
}
