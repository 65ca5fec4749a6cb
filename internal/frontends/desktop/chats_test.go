package desktop

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// gatedCore is the real core whose LoadSession (the plugin generation
// change) waits until the test opens the gate: plugins as slow as they
// like.
type gatedCore struct {
	*agent.Core
	gate chan struct{}
}

func (g *gatedCore) LoadSession(ctx context.Context, id string) error {
	select {
	case <-g.gate:
	case <-ctx.Done():
		return ctx.Err()
	}
	return g.Core.LoadSession(ctx, id)
}

// openGatedCore opens a real core on the harness's data dir and attaches
// it behind a closed gate.
func (h *harness) openGatedCore() *gatedCore {
	h.t.Helper()
	c, err := agent.Open(context.Background(), agent.Config{Layout: h.layout, Workspace: h.t.TempDir(),
		UIHost: protocol.UIHostDesktop, Frontend: h.d, OnFrame: h.d.OnFrame})
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { c.Close(context.Background()) })
	g := &gatedCore{Core: c, gate: make(chan struct{})}
	h.d.Attach(g)
	h.waitFor("the composer", func() bool { return !h.d.composer.sendBtn.Disabled() })
	return g
}

// The clicked chat is on screen from its file while its plugins start; the
// composer says it is getting ready, keeps what is typed and sends nothing
// until the core has switched; Enter pressed meanwhile is not lost: the
// message is sent once the chat is ready; the sidebar highlights what is
// shown.
func TestSwitchShowsTheChatBeforeThePluginsLoad(t *testing.T) {
	h := newHarness(t)
	h.install("hello-surfaces")
	c := h.openGatedCore()
	start := c.Session().ID
	saved := h.saveSessions(c.Session().WorkspaceRoot, "the other chat")
	sb := h.d.sidebar
	h.ui(sb.reload)
	h.waitFor("the list", func() bool { return indexOf(sb, saved[0].ID) >= 0 })
	h.ui(func() { sb.list.Select(indexOf(sb, saved[0].ID)) })
	h.waitFor("the chat on screen while its plugins start", func() bool {
		return h.d.state.Open().ID == saved[0].ID && strings.Contains(h.renderedTranscript(), "reply to the other chat")
	})
	h.ui(func() {
		if c.Session().ID != start {
			t.Fatal("the core switched through a closed gate")
		}
		if h.d.state.Ready() || !h.d.composer.sendBtn.Disabled() {
			t.Error("the composer can send before the chat is the core's")
		}
		if !h.d.readyLine.Visible() || !strings.Contains(h.d.readyLine.Text, "getting") && !strings.Contains(h.d.readyLine.Text, "ready") {
			t.Errorf("the status line says %q", h.d.readyLine.Text)
		}
		if cur, ok := sb.current(); !ok || cur.ID != saved[0].ID {
			t.Errorf("the highlight is on %+v, not the chat on screen", cur)
		}
		e := h.d.composer.entry
		test.Type(e, "typed while loading")
		h.d.composer.send()
		if e.Text != "typed while loading" {
			t.Errorf("the composer lost what was typed: %q", e.Text)
		}
		if !strings.Contains(h.d.readyLine.Text, "Sending as soon as it is ready") {
			t.Errorf("Enter while loading: the status line says %q", h.d.readyLine.Text)
		}
	})
	close(c.gate)
	h.waitFor("the chat to be ready", func() bool {
		return h.d.state.Ready() && !h.d.composer.sendBtn.Disabled() && !h.d.readyLine.Visible()
	})
	if got := c.Session().ID; got != saved[0].ID {
		t.Fatalf("the core's session is %s, want %s", got, saved[0].ID)
	}
	h.waitFor("the message sent once the chat is ready", func() bool {
		return h.d.composer.entry.Text == "" && strings.Contains(h.renderedTranscript(), "typed while loading")
	})
	h.ui(func() {
		if !strings.Contains(h.renderedTranscript(), "reply to the other chat") {
			t.Error("the load replaced what was shown")
		}
	})
}

// A reply that waits (here on an approval) goes on in its own chat while
// another is on screen: the sidebar marks it, the other chat waits for it
// before it can send, coming back shows it live, and once it ends the other
// chat becomes the core's and the finished reply is in its own chat.
func TestSwitchWhileAReplyRunsLandsInItsOwnChat(t *testing.T) {
	h := newHarness(t)
	h.install("echo-provider")
	c := h.openCore()
	if err := c.SetModel(context.Background(), echoModel, ""); err != nil {
		t.Fatal(err)
	}
	h.waitFor("composer ready", func() bool { return !h.d.composer.sendBtn.Disabled() })
	a := c.Session().ID
	other := h.saveSessions(c.Session().WorkspaceRoot, "the other chat")[0].ID
	sb := h.d.sidebar
	h.send(`call run_command {"command":"echo landed"}`)
	h.waitFor("the reply to wait on its approval", func() bool {
		return h.transcriptButton("Approve once") != nil && h.d.state.IsRunning(a)
	})
	h.ui(sb.reload)
	h.waitFor("the list", func() bool { return indexOf(sb, other) >= 0 && indexOf(sb, a) >= 0 })

	// Away while it runs.
	h.ui(func() { sb.list.Select(indexOf(sb, other)) })
	h.waitFor("the other chat on screen, waiting for the reply", func() bool {
		return h.d.state.Open().ID == other && strings.Contains(h.renderedTranscript(), "reply to the other chat") &&
			strings.Contains(h.d.readyLine.Text, "reply in another chat")
	})
	h.ui(func() {
		if h.d.state.Busy() || h.d.state.Ready() || !h.d.composer.sendBtn.Disabled() || !h.d.composer.stopBtn.Disabled() {
			t.Errorf("busy %v ready %v: the other chat's composer acts on the running reply", h.d.state.Busy(), h.d.state.Ready())
		}
		if strings.Contains(h.renderedTranscript(), "run_command") {
			t.Error("the running reply shows in the other chat")
		}
		if got := sb.caption(indexOf(sb, a)); got != waitingMark { // its reply waits on the approval
			t.Errorf("the replying chat's caption is %q", got)
		}
		if got := sb.caption(indexOf(sb, other)); got == replyingMark {
			t.Error("the chat on screen is marked as replying")
		}
		test.Type(h.d.composer.entry, "a draft")
	})
	if c.Session().ID != a {
		t.Fatal("the core left the chat whose reply runs")
	}

	// Back: it is still going, live, with its approval.
	h.ui(func() { sb.list.Select(indexOf(sb, a)) })
	h.waitFor("the replying chat, live", func() bool {
		return h.d.state.Open().ID == a && h.transcriptButton("Approve once") != nil && h.d.state.Busy() &&
			h.d.state.Ready() && !h.d.composer.stopBtn.Disabled()
	})
	h.ui(func() {
		if m := h.d.state.Open().Model; m != echoModel {
			t.Errorf("the replying chat came back with model %q, want %q", m, echoModel)
		}
	})

	// Away again; the reply finishes there.
	h.ui(func() { sb.list.Select(indexOf(sb, other)) })
	h.waitFor("the other chat again", func() bool { return h.d.state.Open().ID == other })
	h.ui(func() {
		ap := h.d.transcriptOf(a).PendingApproval()
		if ap == nil {
			t.Fatal("the running chat lost its approval")
		}
		ap.Answer(agent.ApproveOnce)
	})
	h.waitFor("the other chat to become the core's once the reply ended", func() bool {
		return h.d.state.Ready() && len(h.d.state.RunningChats()) == 0 && !h.d.composer.sendBtn.Disabled() && !h.d.readyLine.Visible()
	})
	if c.Session().ID != other {
		t.Fatalf("the core's session is %s, want %s", c.Session().ID, other)
	}
	h.ui(func() {
		if r := h.renderedTranscript(); strings.Contains(r, "Tool result") {
			t.Errorf("the reply landed in the other chat:\n%s", r)
		}
		if e := h.d.composer.entry; e.Text != "a draft" {
			t.Errorf("the draft is %q", e.Text)
		}
	})
	h.ui(func() { sb.list.Select(indexOf(sb, a)) })
	h.waitFor("the finished reply in its own chat", func() bool {
		return h.d.state.Open().ID == a && strings.Contains(h.renderedTranscript(), "Tool result: landed")
	})
}

// caption is row i's caption as the list draws it (UI work).
func (s *sidebar) caption(i int) string {
	o := s.list.CreateItem()
	s.list.UpdateItem(i, o)
	return o.(*sessionRow).when.Text
}

// New chat while a reply streams shows an empty chat at once; the core
// starts it when the reply has ended, and what was typed meanwhile is kept.
func TestNewChatWhileAReplyRuns(t *testing.T) {
	h := newHarness(t)
	h.install("echo-provider")
	c := h.openCore()
	if err := c.SetModel(context.Background(), echoModel, ""); err != nil {
		t.Fatal(err)
	}
	h.waitFor("composer ready", func() bool { return !h.d.composer.sendBtn.Disabled() })
	a := c.Session().ID
	h.send(`call run_command {"command":"echo first"}`)
	h.waitFor("the reply to wait on its approval", func() bool {
		return h.transcriptButton("Approve once") != nil && h.d.state.IsRunning(a)
	})
	h.ui(func() { h.d.newChat("") })
	h.waitFor("an empty chat on screen", func() bool {
		return h.d.state.Open().ID != a && h.transcriptButton("Approve once") == nil
	})
	h.ui(func() {
		if strings.Contains(h.renderedTranscript(), "run_command") {
			t.Error("the new chat shows the running reply")
		}
		if h.d.state.Busy() || h.d.state.Ready() || !h.d.composer.sendBtn.Disabled() {
			t.Errorf("busy %v ready %v: the new chat can act before the core started it", h.d.state.Busy(), h.d.state.Ready())
		}
		if m := h.d.state.Open().Model; m != echoModel {
			t.Errorf("the new chat's model is %q", m)
		}
		test.Type(h.d.composer.entry, "for the new chat")
	})
	h.waitFor("the wait said", func() bool { return strings.Contains(h.d.readyLine.Text, "reply in another chat") })
	if c.Session().ID != a {
		t.Fatal("the core left the chat whose reply runs")
	}
	h.ui(func() { h.d.transcriptOf(a).PendingApproval().Answer(agent.ApproveOnce) })
	h.waitFor("the new chat started by the core", func() bool {
		id := h.d.state.Open().ID
		return h.d.state.Ready() && id != a && !strings.HasPrefix(id, pendingNewChat) && !h.d.composer.sendBtn.Disabled()
	})
	if got := c.Session().ID; got != h.d.sessionIDForTest() || got == a {
		t.Fatalf("the core's session is %s, the screen's %s", got, h.d.sessionIDForTest())
	}
	h.ui(func() {
		if e := h.d.composer.entry; e.Text != "for the new chat" {
			t.Errorf("the draft is %q", e.Text)
		}
	})
	h.waitFor("the first chat saved with its reply", func() bool {
		s, err := c.SavedSession(a)
		return err == nil && len(s.Messages) > 0 && strings.Contains(s.Messages[len(s.Messages)-1].Content, "Tool result: first")
	})
}

// sessionIDForTest is the chat on screen, read on the UI goroutine.
func (d *UI) sessionIDForTest() (id string) {
	d.b.OnUI(func() { id = d.sessionID() })
	return id
}

// stampCore is a fake core whose saved chats are counted as they are read
// and whose stamp the test changes.
type stampCore struct {
	*fakeCore
	stamp    agent.SessionStamp
	stampErr error
	reads    int
}

func (s *stampCore) SavedSession(id string) (*agent.Session, error) {
	s.reads++
	return &agent.Session{ID: id}, nil
}

func (s *stampCore) SavedStamp(string) (agent.SessionStamp, error) { return s.stamp, s.stampErr }

// Going back to a chat read before decodes it again only when the core's
// stamp of its saved copy changed; the window asks the core, never the
// session files (it used to stat <sessions>/<id>.json itself).
func TestAChatReadBeforeIsDecodedAgainOnlyWhenItsStampChanged(t *testing.T) {
	h := newHarness(t)
	core := &stampCore{fakeCore: newDetachedFakeCore(t, h.d), stamp: agent.SessionStamp{Size: 10, Modified: time.Unix(1, 0)}}
	sw := newChats()
	read := func() {
		t.Helper()
		if s, err := sw.saved(core, "a"); err != nil || s.ID != "a" {
			t.Fatalf("read %v %v", s, err)
		}
	}
	read()
	read()
	if core.reads != 1 {
		t.Errorf("an unchanged chat was decoded %d times, want 1", core.reads)
	}
	core.stamp.Size = 11
	read()
	if core.reads != 2 {
		t.Errorf("a chat whose stamp changed was not decoded again (%d reads)", core.reads)
	}
	core.stampErr = agent.ErrNoSession // no saved copy: nothing to compare, read it each time
	read()
	read()
	if core.reads != 4 {
		t.Errorf("without a stamp the chat was read %d times, want 4", core.reads)
	}
}

// turnCore is a fake core whose turn in the first chat waits for the test
// before it starts (start) and halfway through (finish); other chats are
// read from saved.
type turnCore struct {
	*fakeCore
	d             *UI
	start, finish chan struct{}
	half          chan struct{} // closed once the first half is emitted
	saved         map[string]*agent.Session
}

func (c *turnCore) SendAll(_ context.Context, text string) error {
	<-c.start
	for _, ev := range []agent.Event{{Kind: agent.EventTurnStarted}, {Kind: agent.EventUserMessage, Text: text},
		{Kind: agent.EventText, Text: "part one"}} {
		ev.SessionID = fakeSession
		c.d.Emit(ev)
	}
	close(c.half)
	<-c.finish
	c.d.Emit(agent.Event{Kind: agent.EventText, Text: ", part two", SessionID: fakeSession})
	c.d.Emit(agent.Event{Kind: agent.EventTurnDone, SessionID: fakeSession})
	return nil
}

func (c *turnCore) SavedSession(id string) (*agent.Session, error) {
	if s, ok := c.saved[id]; ok {
		return s, nil
	}
	return &agent.Session{ID: id}, nil
}

// A chat left right after Send, before the core started the turn, keeps
// its transcript: the reply streams into it, and coming back shows all of
// it. The window knew of the turn only once the core's TurnStarted reached
// it (a second copy of "running" in chats), so the transcript on screen was
// handed to the other chat, the first half of the reply went nowhere and
// coming back showed the saved chat with the second half only.
func TestAChatLeftRightAfterSendKeepsItsWholeReply(t *testing.T) {
	h := newHarness(t)
	other := "s2"
	c := &turnCore{fakeCore: newDetachedFakeCore(t, h.d), d: h.d, start: make(chan struct{}),
		finish: make(chan struct{}), half: make(chan struct{}), saved: map[string]*agent.Session{
			other: {ID: other, Messages: []protocol.ProviderMessage{{Role: protocol.RoleUser, Content: "the other chat's question"}}}}}
	h.d.Attach(c)
	h.waitFor("the composer", func() bool { return !h.d.composer.sendBtn.Disabled() })
	h.ui(func() {
		h.d.composer.entry.SetText("hello")
		h.d.composer.send()
		if !h.d.state.Busy() {
			t.Error("the chat is not busy once Send was pressed")
		}
		h.d.openChat(other)
	})
	h.waitFor("the other chat on screen", func() bool {
		return h.d.state.Open().ID == other && strings.Contains(h.renderedTranscript(), "the other chat's question")
	})
	h.ui(func() {
		if h.d.state.Busy() || !h.d.state.TurnIn(fakeSession) {
			t.Errorf("busy %v, turn in the first chat %v: the other chat acts on the first one's turn", h.d.state.Busy(), h.d.state.TurnIn(fakeSession))
		}
	})
	close(c.start)
	<-c.half
	h.ui(func() {
		if strings.Contains(h.renderedTranscript(), "part one") {
			t.Error("the first chat's reply shows in the other chat")
		}
		h.d.openChat(fakeSession)
	})
	close(c.finish)
	h.waitFor("the whole reply back in its chat", func() bool {
		r := h.renderedTranscript()
		return h.d.state.Open().ID == fakeSession && strings.Contains(r, "part one, part two") &&
			!strings.Contains(r, "the other chat's question") && !h.d.state.Busy()
	})
}
