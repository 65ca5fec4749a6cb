package desktop

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/viewmodel"
)

func (c *chatCore) Sessions() []agent.Summary {
	now := time.Now()
	var out []agent.Summary
	for i, id := range []string{"a", "b", "c"} {
		out = append(out, agent.Summary{ID: id, Title: "question in " + id, Model: echoModel,
			Updated: now.Add(-time.Duration(i) * time.Minute), LastMessageAt: now.Add(-time.Duration(i) * time.Minute)})
	}
	return out
}

// onCore reports whether the core on screen is chat id's own (UI work).
func (h *harness) onCore(p *fakePool, id string) bool {
	c := p.core(id)
	return c != nil && h.d.getCore() == coreAPI(c)
}

// openLive opens chat id (not live yet) and waits until its own core is on
// screen.
func (h *harness) openLive(p *fakePool, id string) {
	h.t.Helper()
	h.ui(func() { h.d.openChat(id) })
	h.waitFor(id+" on screen with its own core", func() bool {
		return h.d.state.Open().ID == id && h.d.state.Ready() && h.onCore(p, id)
	})
}

// Switching to a live chat attaches its core at once, in the same UI turn
// as the click: no LoadSession, no second open, its transcript and its
// form's typed value as they were left. Before, every switch loaded the
// chat in the one core (a plugin restart: 1.0–1.2 s before Send worked)
// and the panel's forms were built anew.
func TestSwitchingToALiveChatRestartsNothing(t *testing.T) {
	h, p, a := newPoolHarness(t)
	h.openLive(p, "b")
	b := p.core("b")
	b.publishIn(t, "alpha", "form", "f1", `{"fields":[{"key":"name","kind":"input"}]}`)
	h.waitFor("b's form", func() bool { return h.d.surfaceView("alpha", "f1") != nil })
	h.ui(func() { test.Type(h.d.surfaceView("alpha", "f1").form.Input("name").Entry, "typed in b") })
	for i := range 10 {
		for _, id := range []string{"a", "b"} {
			h.ui(func() {
				h.d.openChat(id)
				if h.d.state.Open().ID != id || !h.d.state.Ready() || !h.onCore(p, id) || h.d.composer.sendBtn.Disabled() {
					t.Fatalf("switch %d to %s: on screen %q, ready %v, its core %v: not at once", i, id,
						h.d.state.Open().ID, h.d.state.Ready(), h.onCore(p, id))
				}
			})
			h.waitFor(id+"'s transcript", func() bool {
				r := h.renderedTranscript()
				other := map[string]string{"a": "b", "b": "a"}[id]
				return strings.Contains(r, "question in "+id) && !strings.Contains(r, "question in "+other)
			})
		}
	}
	h.waitFor("b's form as it was left", func() bool {
		v := h.d.surfaceView("alpha", "f1")
		return v != nil && v.form.Input("name").Entry.Text == "typed in b"
	})
	if got := p.opened(); !slices.Equal(got, []string{"b"}) {
		t.Errorf("the pool opened %q, want b once", got)
	}
	if a.loads.Load()+b.loads.Load() != 0 {
		t.Error("a live chat was loaded again")
	}
}

// Two chats reply at once: Send in b while a streams is not refused, each
// reply lands in its own transcript, Stop stops the chat on screen only, a
// reply that ends in the background marks its chat (cleared when viewed)
// and tells the pool. Before, b waited ("Getting this chat ready…") until
// a's reply ended.
func TestTwoChatsReplyAtOnce(t *testing.T) {
	h, p, a := newPoolHarness(t)
	h.openLive(p, "b")
	b := p.core("b")
	h.ui(func() { h.d.openChat("a") })
	h.send("for a")
	<-a.started
	h.ui(func() {
		h.d.openChat("b")
		if h.d.state.Busy() || h.d.composer.sendBtn.Disabled() {
			t.Errorf("b is busy with a's reply: busy %v", h.d.state.Busy())
		}
	})
	h.send("for b")
	<-b.started
	h.waitFor("both replying, b's reply on screen", func() bool {
		r := h.renderedTranscript()
		return h.d.state.IsRunning("a") && h.d.state.IsRunning("b") && h.d.state.Busy() &&
			strings.Contains(r, "first half of b") && !strings.Contains(r, "first half of a")
	})
	h.ui(func() { test.Tap(h.d.composer.stopBtn) })
	h.waitFor("b stopped", func() bool { return b.stops.Load() == 1 })
	if a.stops.Load() != 0 {
		t.Error("Stop in b stopped a")
	}
	a.release <- struct{}{}
	h.waitFor("a finished in the background, marked", func() bool {
		return !h.d.state.IsRunning("a") && h.d.state.MarkOf("a").Unseen && h.d.state.IsRunning("b")
	})
	h.ui(func() {
		if r := h.renderedTranscript(); strings.Contains(r, "second half") {
			t.Errorf("a's end showed in b:\n%s", r)
		}
		if got := h.d.sidebar.caption(indexOf(h.d.sidebar, "a")); got != unseenMark {
			t.Errorf("a's caption is %q", got)
		}
		if got := h.d.sidebar.caption(indexOf(h.d.sidebar, "b")); got != replyingMark {
			t.Errorf("b's caption is %q", got)
		}
	})
	b.release <- struct{}{}
	h.ui(func() { h.d.openChat("a") })
	h.waitFor("a's whole reply, seen", func() bool {
		return strings.Contains(h.renderedTranscript(), "first half of a, second half") && !h.d.state.MarkOf("a").Unseen
	})
	p.mu.Lock()
	defer p.mu.Unlock()
	if !slices.Contains(p.ended, "a") || !slices.Contains(p.ended, "b") {
		t.Errorf("the pool was told of the ends of %q", p.ended)
	}
}

// An approval of a chat in the background never takes the screen: it
// waits in its own chat (the card there, its sidebar entry marked, the
// Notifications window naming it, no toast over the chat on screen) and
// shows when the chat is opened. Before, the card went to the transcript
// on screen when its chat had none, and a toast covered the other chat.
func TestAnApprovalInTheBackgroundWaitsOnItsChat(t *testing.T) {
	h, p, _ := newPoolHarness(t)
	h.ui(h.d.sidebar.reload)
	h.openLive(p, "b")
	h.waitFor("the list", func() bool { return indexOf(h.d.sidebar, "a") >= 0 })
	done := make(chan agent.Approval, 1)
	go func() {
		done <- h.d.Approve(context.Background(), agent.ApprovalRequest{SessionID: "a", CallID: "c1", Tool: "write_file"})
	}()
	h.waitFor("a marked waiting", func() bool { return h.d.state.MarkOf("a").Waiting == 1 })
	h.waitFor("the Notifications window names a", func() bool {
		e := h.d.notes.Entries()
		return len(e) > 0 && e[0].Chat == "question in a" && strings.Contains(e[0].Title, "question in a")
	})
	h.ui(func() {
		if h.d.state.Open().ID != "b" || h.transcriptButton("Approve once") != nil {
			t.Error("the approval took the screen")
		}
		if h.d.transcriptOf("a").PendingApproval() == nil {
			t.Error("a's transcript has no card")
		}
		if n := h.d.notes.ToastCount(); n != 0 {
			t.Errorf("%d toasts over the chat on screen", n)
		}
		if got := h.d.sidebar.caption(indexOf(h.d.sidebar, "a")); got != waitingMark {
			t.Errorf("a's caption is %q", got)
		}
		h.d.openChat("a")
	})
	h.waitFor("the card in a", func() bool { return h.transcriptButton("Approve once") != nil })
	h.ui(func() { test.Tap(h.transcriptButton("Approve once")) })
	if got := <-done; got != agent.ApproveOnce {
		t.Fatalf("answer %v", got)
	}
	h.waitFor("a's mark cleared", func() bool { return h.d.state.MarkOf("a") == (viewmodel.Mark{}) })
}

// A plugin's question of a chat in the background waits for its chat: no
// dialog over the chat on screen; opening the chat shows it, named after
// the chat. Before, the dialog opened over whatever chat was on screen.
func TestAPromptInTheBackgroundWaitsForItsChat(t *testing.T) {
	h, p, a := newPoolHarness(t)
	h.ui(h.d.sidebar.reload)
	h.openLive(p, "b")
	h.waitFor("the list", func() bool { return indexOf(h.d.sidebar, "a") >= 0 })
	type answer struct {
		v         map[string]any
		cancelled bool
	}
	done := make(chan answer, 1)
	pr := a.promptIn(t, "alpha", "confirm", `{"title":"Sure?","fields":[{"key":"value","kind":"confirm"}]}`)
	go func() {
		v, c := h.d.Prompt(context.Background(), pr)
		done <- answer{v, c}
	}()
	h.waitFor("a marked waiting", func() bool { return h.d.state.MarkOf("a").Waiting == 1 })
	h.ui(func() {
		if n := h.d.wins.prompts.Count(); n != 0 || h.d.state.Open().ID != "b" {
			t.Errorf("%d dialogs over b; on screen %q", n, h.d.state.Open().ID)
		}
		h.d.openChat("a")
	})
	h.waitFor("the question in a", func() bool { return h.d.wins.prompts.Count() == 1 })
	h.ui(func() {
		named := false
		for _, o := range test.LaidOutObjects(h.topOverlay()) {
			if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, "“question in a”") {
				named = true
			}
		}
		if !named {
			t.Error("the dialog does not name its chat")
		}
		test.Tap(overlayButton(t, h.topOverlay(), "Yes"))
	})
	if got := <-done; got.cancelled || got.v["value"] != true {
		t.Fatalf("answer %+v", got)
	}
}

// A notification of a chat in the background goes to the Notifications
// window (named after its chat) and marks the chat; no toast covers the
// chat on screen; viewing the chat clears the mark.
func TestANotificationInTheBackgroundMarksItsChat(t *testing.T) {
	h, p, a := newPoolHarness(t)
	h.openLive(p, "b")
	a.publishIn(t, "alpha", "notification", "n1", `{"title":"hello from a"}`)
	h.waitFor("a marked", func() bool { return h.d.state.MarkOf("a").Noted })
	h.ui(func() {
		e := h.d.notes.Entries()
		if len(e) == 0 || e[0].Title != "hello from a" || e[0].Chat == "" {
			t.Errorf("entries %+v", e)
		}
		if n := h.d.notes.ToastCount(); n != 0 {
			t.Errorf("%d toasts over b", n)
		}
		h.d.openChat("a")
		if h.d.state.MarkOf("a").Noted {
			t.Error("viewing a did not clear its mark")
		}
	})
}

// New chat opens a core of its own through the pool: the chat on screen
// is empty at once, gets its id once its core is there, and the chat left
// stays live (going back restarts nothing).
func TestNewChatOpensACoreOfItsOwn(t *testing.T) {
	h, p, a := newPoolHarness(t)
	h.ui(func() { h.d.newChat("") })
	h.waitFor("the new chat with its own core", func() bool {
		return h.d.state.Open().ID == "new1" && h.d.state.Ready() && h.onCore(p, "new1")
	})
	h.ui(func() {
		h.d.openChat("a")
		if !h.onCore(p, "a") || !h.d.state.Ready() {
			t.Error("a was not live any more")
		}
	})
	if got := p.opened(); !slices.Equal(got, []string{""}) || a.loads.Load() != 0 {
		t.Errorf("opened %q, a loaded %d times", got, a.loads.Load())
	}
}

// A plugin installed, removed or switched on or off reloads the chat on
// screen and resets the pool: the other chats restart fresh when next
// opened.
func TestAPluginCommandResetsThePool(t *testing.T) {
	h, p, _ := newPoolHarness(t)
	h.ui(func() {
		h.d.pluginCommand("install plugin", func(context.Context, coreAPI) error { return nil })
	})
	h.waitFor("the pool reset", func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.resets == 1
	})
}

// liveChatsSelect is Settings' "Live chats kept" choice (UI work).
func liveChatsSelect(h *harness) *widget.Select {
	for _, w := range h.d.opts.App.Driver().AllWindows() {
		if w.Title() != "Settings" {
			continue
		}
		for _, o := range test.LaidOutObjects(w.Content()) {
			if s, ok := o.(*widget.Select); ok && len(s.Options) == maxLiveChatsShown+1 && s.Options[0] == "0" {
				return s
			}
		}
	}
	return nil
}

const maxLiveChatsShown = 16

// Settings' "Live chats kept" shows settings.json's liveChats (the default
// when unset), saves a choice there and applies it to the pool at once; 0
// keeps none (the file's 0 is the default, so it says -1).
func TestSettingsLiveChatsKeptReachesThePool(t *testing.T) {
	h, p, _ := newPoolHarness(t)
	h.ui(h.d.showSettings)
	h.waitFor("the default shown", func() bool {
		s := liveChatsSelect(h)
		return s != nil && s.Selected == "4"
	})
	h.ui(func() { liveChatsSelect(h).SetSelected("2") })
	idle := func() []int {
		p.mu.Lock()
		defer p.mu.Unlock()
		return slices.Clone(p.idle)
	}
	h.waitFor("the pool told 2", func() bool { return slices.Equal(idle(), []int{2}) })
	h.ui(func() { liveChatsSelect(h).SetSelected("0") })
	h.waitFor("the pool told 0", func() bool { return slices.Equal(idle(), []int{2, 0}) })
	raw, err := os.ReadFile(h.layout.SettingsFile())
	if err != nil || !strings.Contains(string(raw), `"liveChats": -1`) {
		t.Errorf("settings.json: %s %v", raw, err)
	}
}

// Deleting a live chat in the background shuts its plugins down first (its
// core would save it again); the chat on screen is deleted by its own core.
func TestDeletingALiveChatDropsItFromThePool(t *testing.T) {
	h, p, _ := newPoolHarness(t)
	h.openLive(p, "b")
	h.ui(func() { h.d.openChat("a") })
	h.ui(func() { h.d.sidebar.trash(agent.Summary{ID: "b", Title: "question in b"}) })
	h.waitFor("b dropped", func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		return slices.Equal(p.drops, []string{"b"})
	})
}
