package chatpool_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/core/chatpool"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

const echoModel = "plugin/echo-provider/echo/echo-1"

// events records what every chat's core emitted, by chat.
type events struct {
	mu   sync.Mutex
	done map[string]int // turn_done per session
	sig  chan struct{}
}

func (e *events) Emit(ev agent.Event) {
	if ev.Kind != agent.EventTurnDone {
		return
	}
	e.mu.Lock()
	e.done[ev.SessionID]++
	e.mu.Unlock()
	select {
	case e.sig <- struct{}{}:
	default:
	}
}
func (*events) Approve(context.Context, agent.ApprovalRequest) agent.Approval {
	return agent.ApproveDeny
}
func (*events) Prompt(context.Context, *surfaces.Prompt) (map[string]any, bool) {
	return nil, true
}

// app is a data dir with the echo model (streaming slowly: delayMS per
// chunk) and an opener over one shared store, as the desktop wires it.
type app struct {
	layout plugin.Layout
	open   chatpool.Opener
	fe     *events
}

func newApp(t *testing.T, delayMS int) *app {
	t.Helper()
	layout := plugin.Layout{Root: t.TempDir()}
	if err := layout.EnsureDirs(); err != nil {
		t.Fatal(err)
	}
	store, err := plugin.OpenStore(layout)
	if err != nil {
		t.Fatal(err)
	}
	root := testutil.ExamplePlugin(t, "echo-provider")
	if delayMS > 0 { // the example's manifest, with the delay in its environment
		path := filepath.Join(root, "reasonix-plugin.json")
		var m map[string]any
		data, _ := os.ReadFile(path)
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		m["runtime"].(map[string]any)["env"] = map[string]any{"ECHO_PROVIDER_DELAY_MS": strings.TrimSpace(itoa(delayMS))}
		data, _ = json.Marshal(m)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plan, err := plugin.Preview(store, root, plugin.InstallOptions{Link: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plugin.Install(store, layout, plan); err != nil {
		t.Fatal(err)
	}
	a := &app{layout: layout, fe: &events{done: map[string]int{}, sig: make(chan struct{}, 1)}}
	shared, err := agent.OpenShared(agent.Config{Layout: layout})
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	a.open = func(ctx context.Context, spec chatpool.Spec) (*agent.Core, error) {
		return agent.Open(ctx, agent.Config{Layout: layout, Workspace: ws, Frontend: a.fe, Shared: shared, Resume: spec.SessionID})
	}
	return a
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// echoPID is the pid of a core's echo-provider sidecar.
func echoPID(t *testing.T, c *agent.Core) int {
	t.Helper()
	cl, ok := c.Runtime().Current().Client("echo-provider")
	if !ok {
		t.Fatal("no echo-provider in the generation")
	}
	return cl.PID()
}

// saved makes chat c a saved chat (one message) and returns its id.
func saved(t *testing.T, c *agent.Core) string {
	t.Helper()
	if err := c.SetModel(context.Background(), echoModel, ""); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(context.Background(), "hello"); err != nil {
		t.Fatal(err)
	}
	return c.SessionID()
}

// Switching back to a live chat is the same core: its plugin was not
// restarted (same generation, same process), where a chat not live starts
// its own.
func TestSwitchingToALiveChatRestartsNothing(t *testing.T) {
	a := newApp(t, 0)
	ctx := context.Background()
	p := chatpool.New(a.open, 4, nil)
	defer p.Close(ctx)
	first, err := p.Open(ctx, chatpool.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	id1 := saved(t, first)
	gen, pid := first.Runtime().Current().Number, echoPID(t, first)
	second, err := p.Open(ctx, chatpool.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	if second == first || echoPID(t, second) == pid {
		t.Fatal("a new chat shares the first chat's core or sidecar")
	}
	back, err := p.Open(ctx, chatpool.Spec{SessionID: id1})
	if err != nil {
		t.Fatal(err)
	}
	if back != first || back.Runtime().Current().Number != gen || echoPID(t, back) != pid {
		t.Fatalf("switching back restarted the chat: generation %d→%d", gen, back.Runtime().Current().Number)
	}
	if p.Len() != 2 {
		t.Fatalf("%d live chats, want 2", p.Len())
	}
}

// A chat opened from the history resumes in its own core bound to it, with
// its messages; the idle chats beyond the limit leave the pool and their
// sidecars end, but never the chat in use.
func TestIdleChatsBeyondTheLimitShutDown(t *testing.T) {
	a := newApp(t, 0)
	ctx := context.Background()
	p := chatpool.New(a.open, 1, nil)
	defer p.Close(ctx)
	c1, err := p.Open(ctx, chatpool.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	id1 := saved(t, c1)
	cl1, _ := c1.Runtime().Current().Client("echo-provider")
	c2, err := p.Open(ctx, chatpool.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	saved(t, c2)
	if p.Len() != 2 {
		t.Fatalf("%d live chats with a limit of 1 idle, want 2", p.Len())
	}
	if _, err := p.Open(ctx, chatpool.Spec{}); err != nil { // c1 is now the oldest idle chat beyond the limit
		t.Fatal(err)
	}
	if _, live := p.Live(id1); live || p.Len() != 2 {
		t.Fatalf("the least recently used idle chat stayed live (%d live)", p.Len())
	}
	if cl1.State() != sidecar.StateStopped {
		t.Fatalf("its sidecar is %v, want stopped", cl1.State())
	}
	again, err := p.Open(ctx, chatpool.Spec{SessionID: id1})
	if err != nil {
		t.Fatal(err)
	}
	if again == c1 || again.SessionID() != id1 || len(again.Session().Messages) != 2 {
		t.Fatalf("reopened chat: %s with %d messages", again.SessionID(), len(again.Session().Messages))
	}
}

// Two chats reply at the same time, each in its own core: neither is
// refused as busy, and each reply lands in its own chat.
func TestTwoChatsReplyAtOnce(t *testing.T) {
	a := newApp(t, 20)
	ctx := context.Background()
	p := chatpool.New(a.open, 1, nil)
	defer p.Close(ctx)
	var cores [2]*agent.Core
	for i := range cores {
		c, err := p.Open(ctx, chatpool.Spec{})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.SetModel(ctx, echoModel, ""); err != nil {
			t.Fatal(err)
		}
		cores[i] = c
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, c := range cores {
		wg.Go(func() { errs[i] = c.Send(ctx, strings.Repeat("word ", 20)+"from chat "+itoa(i)) })
	}
	testutil.Eventually(t, "both chats replying at once", func() bool { return cores[0].Running() && cores[1].Running() })
	wg.Wait()
	for i, c := range cores {
		if errs[i] != nil {
			t.Fatalf("chat %d: %v", i, errs[i])
		}
		ms := c.Session().Messages
		if len(ms) != 2 || !strings.Contains(ms[0].Content, "from chat "+itoa(i)) {
			t.Fatalf("chat %d holds %+v", i, ms)
		}
	}
	a.fe.mu.Lock()
	defer a.fe.mu.Unlock()
	if a.fe.done[cores[0].SessionID()] != 1 || a.fe.done[cores[1].SessionID()] != 1 {
		t.Fatalf("turn_done by chat: %v", a.fe.done)
	}
}

// A chat that is replying is never shut down to make room; it leaves the
// pool once its turn ended.
func TestAReplyingChatIsNeverEvicted(t *testing.T) {
	a := newApp(t, 30)
	ctx := context.Background()
	p := chatpool.New(a.open, 0, nil)
	defer p.Close(ctx)
	busy, err := p.Open(ctx, chatpool.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	if err := busy.SetModel(ctx, echoModel, ""); err != nil {
		t.Fatal(err)
	}
	a.fe.sig = make(chan struct{}, 1)
	sent := make(chan error, 1)
	go func() { sent <- busy.Send(ctx, strings.Repeat("long ", 40)) }()
	testutil.Eventually(t, "the turn to start", func() bool { return busy.Running() })
	if _, err := p.Open(ctx, chatpool.Spec{}); err != nil { // idle limit 0: only the chat in use and the replying one
		t.Fatal(err)
	}
	if _, live := p.Live(busy.SessionID()); !live {
		t.Fatal("the replying chat was shut down")
	}
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	p.TurnEnded(ctx)
	if _, live := p.Live(busy.SessionID()); live || p.Len() != 1 {
		t.Fatalf("after its turn the chat stayed live (%d live)", p.Len())
	}
}

// A chat put back on screen while another starts stays in use: the one
// that finished starting does not take its place, and the idle limit
// never closes the chat the user is looking at.
func TestTheChatOnScreenStaysWhileAnotherStarts(t *testing.T) {
	a := newApp(t, 0)
	ctx := context.Background()
	gate := make(chan struct{})
	started := make(chan struct{})
	var opens atomic.Int32
	open := func(ctx context.Context, spec chatpool.Spec) (*agent.Core, error) {
		if opens.Add(1) == 2 { // the second chat starts slowly
			close(started)
			<-gate
		}
		return a.open(ctx, spec)
	}
	p := chatpool.New(open, 0, nil)
	defer p.Close(ctx)
	first, err := p.Open(ctx, chatpool.Spec{SessionID: ""})
	if err != nil {
		t.Fatal(err)
	}
	id := first.SessionID()
	opened := make(chan error, 1)
	go func() { _, err := p.Open(ctx, chatpool.Spec{}); opened <- err }()
	<-started
	p.Use(id) // the user went back to the first chat while the new one starts
	close(gate)
	if err := <-opened; err != nil {
		t.Fatal(err)
	}
	if _, live := p.Live(id); !live {
		t.Fatal("the chat on screen was closed when another finished starting")
	}
}
