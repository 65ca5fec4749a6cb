package desktop

import (
	"context"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/core/chatpool"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// openPooled opens the first core with the shared store and gives the
// window the opener of the others, as the binary does.
func (h *harness) openPooled() *agent.Core {
	h.t.Helper()
	shared, err := agent.OpenShared(agent.Config{Layout: h.layout})
	if err != nil {
		h.t.Fatal(err)
	}
	ws := h.t.TempDir()
	open := func(ctx context.Context, spec chatpool.Spec) (*agent.Core, error) {
		w := spec.Workspace
		if w == "" {
			w = ws
		}
		return agent.Open(ctx, agent.Config{Layout: h.layout, Workspace: w, UIHost: protocol.UIHostDesktop,
			Frontend: h.d, OnFrame: h.d.OnFrame, Shared: shared, Resume: spec.SessionID})
	}
	first, err := open(context.Background(), chatpool.Spec{})
	if err != nil {
		h.t.Fatal(err)
	}
	h.d.UseOpener(open)
	// The pool closes every core it holds, the first one too (it adopted
	// it); Close runs once.
	h.t.Cleanup(func() { first.Close(context.Background()) })
	h.d.Attach(first)
	h.waitFor("the first chat ready", func() bool { return h.d.state.Ready() && !h.d.composer.sendBtn.Disabled() })
	return first
}

// helloGen is the generation of the hello card on screen, 0 when none (UI
// work).
func (h *harness) helloGen() (gen int64) {
	for k := range h.d.panel.views {
		if k.SurfaceID == "hello-card" && k.SessionID == h.d.state.Open().ID {
			gen = k.Generation
		}
	}
	return gen
}

// With real cores from the pool and the example plugins: a chat opened
// once comes back with its own core and its plugins' generation (nothing
// restarts: the first core never loaded another chat), and two chats
// reply at the same time, each reply whole in its own saved chat.
func TestRealLiveChatsSwitchAndReplyAtOnce(t *testing.T) {
	t.Setenv("ECHO_PROVIDER_DELAY_MS", "30") // a word every 30 ms: replies long enough to overlap
	h := newHarness(t)
	h.install("echo-provider")
	h.install("hello-surfaces")
	first := h.openPooled()
	a := first.SessionID()
	if err := first.SetModel(context.Background(), echoModel, ""); err != nil {
		t.Fatal(err)
	}
	var genA, genB int64
	h.waitFor("a's hello card", func() bool { genA = h.helloGen(); return genA != 0 })
	b := h.saveSessions(first.Session().WorkspaceRoot, "the other chat")[0].ID
	h.ui(func() { h.d.openChat(b) })
	h.waitFor("b with a core of its own", func() bool {
		return h.d.state.Open().ID == b && h.d.state.Ready() && h.d.getCore() != coreAPI(first)
	})
	h.waitFor("b's hello card", func() bool { genB = h.helloGen(); return genB != 0 })
	coreB := h.d.getCore()
	if err := coreB.SetModel(context.Background(), echoModel, ""); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		for _, id := range []string{a, b} {
			h.ui(func() {
				h.d.openChat(id)
				if !h.d.state.Ready() {
					t.Fatalf("%s is not ready at once", id)
				}
			})
		}
	}
	h.waitFor("b's card, its generation unchanged", func() bool { return h.helloGen() == genB })
	h.ui(func() { h.d.openChat(a) })
	h.waitFor("a's card, its generation unchanged", func() bool { return h.helloGen() == genA })
	if first.SessionID() != a {
		t.Fatalf("the first core left its chat for %s", first.SessionID())
	}

	long := "alpha" + strings.Repeat(" w", 120)
	h.send(long)
	h.waitFor("a replying", func() bool { return h.d.state.IsRunning(a) || lastExchange(coreB, a, "alpha") })
	h.ui(func() { h.d.openChat(b) })
	h.waitFor("b ready to send while a replies", func() bool {
		return h.d.state.Open().ID == b && !h.d.composer.sendBtn.Disabled()
	})
	h.send("beta at once")
	// A short echo may end before a poll sees it running: running or done.
	h.waitFor("b replying", func() bool { return h.d.state.IsRunning(b) || lastExchange(coreB, b, "beta at once") })
	h.ui(func() {
		if !h.d.state.IsRunning(a) {
			t.Log("a ended before b began: the replies did not overlap on this machine")
		}
	})
	h.waitFor("both replies saved, each in its own chat", func() bool {
		return lastExchange(coreB, a, "alpha") && lastExchange(coreB, b, "beta at once")
	})
}

// lastExchange reports whether saved chat id ends with a question starting
// with q and the whole echo of it.
func lastExchange(c coreAPI, id, q string) bool {
	s, err := c.SavedSession(id)
	if err != nil || len(s.Messages) < 2 {
		return false
	}
	ask, reply := s.Messages[len(s.Messages)-2], s.Messages[len(s.Messages)-1]
	return ask.Role == protocol.RoleUser && strings.HasPrefix(ask.Content, q) &&
		reply.Role == protocol.RoleAssistant && reply.Content == "Echo: "+ask.Content
}
