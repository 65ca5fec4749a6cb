package chat

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// liveCore is a real core whose events drive a harness's transcript, as
// the desktop's front end does. Write calls are denied; the first text of
// a turn run with stopOnText stops it.
type liveCore struct {
	h          *harness
	c          *agent.Core
	mu         sync.Mutex
	stopOnText bool
}

func (l *liveCore) Emit(ev agent.Event) {
	l.h.d.Emit(ev)
	l.mu.Lock()
	stop := l.stopOnText && ev.Kind == agent.EventText
	if stop {
		l.stopOnText = false
	}
	l.mu.Unlock()
	if stop {
		go l.c.Stop()
	}
}

func (l *liveCore) Approve(context.Context, agent.ApprovalRequest) agent.Approval {
	return agent.ApproveDeny
}

func (l *liveCore) Prompt(context.Context, *surfaces.Prompt) (map[string]any, bool) { return nil, true }

// settle waits until the UI goroutine ran everything posted so far.
func (h *harness) settle() {
	done := make(chan struct{})
	h.d.b.Post(func() { close(done) })
	<-done
}

// dump is the transcript's items as they render: kind, text, reasoning,
// the card, how the turn ended, usage, Retry.
func (h *harness) dump() []string {
	t := h.d.transcript
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for _, it := range t.items {
		s := it.snap()
		usage := ""
		if s.status.usage != nil {
			usage = fmt.Sprintf("%+v", *s.status.usage)
		}
		out = append(out, fmt.Sprintf("kind=%d text=%q reasoning=%q call=%+v level=%d stopped=%v usage=%s retry=%q",
			s.kind, s.text, s.reasoning, s.call, s.level, s.status.stopped, usage, s.status.retry))
	}
	return out
}

// A chat as it was shown live (a call blocked with its reason, a denied
// one, a stopped partial reply, a failed turn with its kept message, the
// usage lines) is shown the same when reopened from its file.
func TestReopenedChatLooksAsItDidLive(t *testing.T) {
	live := newHarness(t)
	layout, err := agent.DataLayout(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := layout.EnsureDirs(); err != nil {
		t.Fatal(err)
	}
	lc := &liveCore{h: live}
	ctx := context.Background()
	c, err := agent.Open(ctx, agent.Config{Layout: layout, Workspace: t.TempDir(), Frontend: lc})
	if err != nil {
		t.Fatal(err)
	}
	lc.c = c
	t.Cleanup(func() { c.Close(context.Background()) })
	mock := testutil.PluginDir(t, "mock", testutil.Binary(t, "internal/testing/testplugins/misbehave"), map[string]any{
		"provides": []map[string]any{{"kind": "provider", "id": "mock"}},
		"runtime": map[string]any{"capabilities": []string{"providers"},
			"env": map[string]any{"MISBEHAVE_PROVIDER": "1", "MISBEHAVE_STREAM": "c:1;hang", "MISBEHAVE_SUBSCRIBE": ""}},
	})
	for _, src := range []string{testutil.ExamplePlugin(t, "echo-provider"), testutil.ExamplePlugin(t, "policy-guard"), mock} {
		pv, err := c.PreviewPluginInstall(ctx, agent.InstallRequest{Source: src, Link: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.InstallPlugin(ctx, pv); err != nil {
			t.Fatal(err)
		}
	}
	turns := []struct {
		model, text string
		stop        bool
	}{
		{echoModel, `call run_command {"command":"rm -rf /"}`, false},        // blocked by policy-guard
		{echoModel, `call write_file {"path":"a.txt","content":"x"}`, false}, // denied
		{"plugin/mock/mock/m1", "tell me a long story", true},                // stopped after "t1"
		{"plugin/gone/x/y", "a message whose turn fails", false},             // failed, kept
	}
	for _, tr := range turns {
		if err := c.SetModel(ctx, tr.model, ""); err != nil {
			t.Fatal(err)
		}
		live.d.model = tr.model
		lc.mu.Lock()
		lc.stopOnText = tr.stop
		lc.mu.Unlock()
		_ = c.Send(ctx, tr.text) // the last two fail by design
		live.settle()
	}
	live.settle()
	want := live.dump()

	st, err := agent.NewSessionStore(layout.SessionsDir())
	if err != nil {
		t.Fatal(err)
	}
	saved, err := st.Load(c.Session().ID)
	if err != nil {
		t.Fatal(err)
	}
	// The same window opens it again (one harness: Fyne's test driver has
	// one UI goroutine).
	reopened := live
	reopened.ui(func() { reopened.d.win.Resize(fyne.NewSize(900, 4000)) })
	reopened.d.transcript.ShowSession(*saved)
	reopened.settle()
	if got := reopened.dump(); !reflect.DeepEqual(got, want) {
		t.Fatalf("reopened:\n%s\nlive:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// And the widgets say so: the blocked card with its reason, the
	// partial reply marked Stopped, the failure with Retry.
	reopened.waitFor("the blocked card, the stopped reply, the failure", func() bool {
		var blocked, stopped, failed bool
		for _, v := range reopened.d.transcript.liveViews() {
			switch v := v.(type) {
			case *toolView:
				blocked = blocked || v.state.Text == "• blocked" && strings.Contains(v.reason.Text, "policy-guard") && v.reason.Visible()
			case *assistantView:
				stopped = stopped || v.r.snap.text == "t1" && v.footer.status.Visible()
			case *noticeView:
				failed = failed || strings.Contains(v.label.Text, "gone") && v.retry.Visible()
			}
		}
		return blocked && stopped && failed
	})
}
