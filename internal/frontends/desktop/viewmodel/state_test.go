package viewmodel

import (
	"slices"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
)

func TestSubscribersSeeOnlyTheirChanges(t *testing.T) {
	tests := []struct {
		name string
		mask Change
		set  func(s *State)
		want []Change
	}{
		{"session also tells model watchers", Model, func(s *State) { s.SetSession(Open{ID: "a", Model: "m"}) }, []Change{Session | Model | Busy}},
		{"a session of the same model does not", Model, func(s *State) {
			s.SetSession(Open{ID: "a", Model: "m"})
			s.SetSession(Open{ID: "b", Model: "m"})
		}, []Change{Session | Model | Busy}},
		{"session watchers see every switch", Session, func(s *State) {
			s.SetSession(Open{ID: "a", Model: "m"})
			s.SetSession(Open{ID: "b", Model: "m"})
		}, []Change{Session | Model | Busy, Session | Busy}},
		{"model", Model, func(s *State) { s.SetModel("m", "high") }, []Change{Model}},
		{"busy: a turn starts and ends in the chat on screen", Busy, func(s *State) {
			s.SetSession(Open{ID: "a"})
			s.SetRunning("a")
			s.SetRunning("")
		}, []Change{Session | Busy, Running | Busy, Running | Busy}},
		{"busy: not for a turn in another chat", Busy, func(s *State) {
			s.SetSession(Open{ID: "a"})
			s.SetRunning("b")
			s.SetRunning("")
		}, []Change{Session | Busy}},
		{"plugins not seen by busy", Busy, func(s *State) { s.SetPlugins([]agent.PluginInfo{{Name: "p"}}) }, nil},
		{"models", Models | Plugins, func(s *State) { s.SetModels(nil, nil); s.SetPlugins(nil) }, []Change{Models, Plugins}},
		{"connected", Connected, func(s *State) { s.SetConnected(true) }, []Change{Connected}},
		{"running, told once per change", Running, func(s *State) { s.SetRunning("a"); s.SetRunning("a"); s.SetRunning("") }, []Change{Running, Running}},
		{"ready, told once per change", Ready | Busy, func(s *State) { s.SetReady(true); s.SetReady(true); s.SetReady(false) }, []Change{Ready, Ready}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New()
			var got []Change
			s.Subscribe(tc.mask, func(c Change) { got = append(got, c) })
			tc.set(s)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestUnsubscribeStopsNotifications(t *testing.T) {
	s := New()
	n := 0
	s.SetSession(Open{ID: "a"})
	cancel := s.Subscribe(Busy, func(Change) { n++ })
	s.SetRunning("a")
	cancel()
	s.SetRunning("")
	if n != 1 {
		t.Errorf("%d notifications, want 1", n)
	}
}

func TestStateReadsBack(t *testing.T) {
	s := New()
	s.SetSession(Open{ID: "s1", Model: "p/m", Effort: "low", Workspace: "/w"})
	s.SetModels([]providers.Model{{ID: "p/m", DisplayName: "M"}}, map[string]string{"q": "down"})
	if m, ok := s.CurrentModel(); !ok || m.DisplayName != "M" {
		t.Errorf("current model %v %v", m, ok)
	}
	if s.CatalogErr("q") != "down" || s.CatalogErr("p") != "" {
		t.Error("catalog errors lost")
	}
	s.SetModel("p/other", "")
	if o := s.Open(); o.ID != "s1" || o.Model != "p/other" || o.Workspace != "/w" {
		t.Errorf("open %+v", o)
	}
	if _, ok := s.CurrentModel(); ok {
		t.Error("a model not in the catalog was found")
	}
}

// An empty catalog that arrived is not the catalog not asked yet: the
// picker says "loading" for one and "no models" for the other.
func TestCatalogLoadedOnlyOnceACatalogArrives(t *testing.T) {
	s := New()
	if s.CatalogLoaded() {
		t.Error("a new state says its catalog arrived")
	}
	s.SetModels(nil, nil)
	if !s.CatalogLoaded() {
		t.Error("an empty catalog that arrived is still loading")
	}
}

// Busy follows from the core's turn events and the window's own requests:
// busy from the click on, the core's turn taking over; a request that
// returns late does not end a newer one; another chat on screen is not
// busy with this one's turn.
func TestBusyFollowsRequestsAndTurns(t *testing.T) {
	s := New()
	s.SetSession(Open{ID: "a"})
	done := s.RequestTurn("a")
	if !s.Busy() || !s.TurnIn("a") {
		t.Fatal("a turn asked for does not make its chat busy")
	}
	s.SetRunning("a") // the core started it
	done()            // the call returned only after the turn ended, in truth; here early
	if !s.Busy() {
		t.Error("the request's end made the running chat idle")
	}
	s.SetRunning("")
	if s.Busy() {
		t.Error("busy after the turn ended")
	}
	old := s.RequestTurn("a")
	newer := s.RequestTurn("a")
	old()
	if !s.Busy() {
		t.Error("an older request's end ended the newer one")
	}
	s.SetSession(Open{ID: "b"})
	if s.Busy() || !s.TurnIn("a") {
		t.Errorf("another chat on screen: busy %v; a still asked for %v", s.Busy(), s.TurnIn("a"))
	}
	newer()
	if s.TurnIn("a") {
		t.Error("a refused request still counts")
	}
	if s.TurnIn("") {
		t.Error("no chat is busy")
	}
}

// Several chats reply at once: each has its own turn, the end of one
// leaves the other running, and busy is the chat on screen's own. With one
// "running" chat the second turn's start replaced the first, and the first
// chat looked idle while it streamed.
func TestSeveralChatsRunAtOnce(t *testing.T) {
	s := New()
	s.SetSession(Open{ID: "a"})
	s.SetRunning("a")
	s.SetRunning("b")
	if !s.IsRunning("a") || !s.IsRunning("b") || !slices.Equal(s.RunningChats(), []string{"a", "b"}) {
		t.Fatalf("running %v", s.RunningChats())
	}
	var changes []Change
	s.Subscribe(Busy|Running, func(c Change) { changes = append(changes, c) })
	s.EndRunning("b")
	if !s.Busy() || !s.IsRunning("a") || s.IsRunning("b") {
		t.Errorf("b's end: busy %v, running %v", s.Busy(), s.RunningChats())
	}
	s.EndRunning("b") // told twice (done, then the window's own end): once
	s.EndRunning("a")
	if s.Busy() || len(s.RunningChats()) != 0 {
		t.Errorf("both ended: busy %v, running %v", s.Busy(), s.RunningChats())
	}
	if !slices.Equal(changes, []Change{Running, Running | Busy}) {
		t.Errorf("changes %v", changes)
	}
	// A request in one chat does not make another busy, and both can be
	// asked at once.
	doneA := s.RequestTurn("a")
	s.RequestTurn("b")
	doneA()
	if s.TurnIn("a") || !s.TurnIn("b") {
		t.Errorf("a's request ended b's: a %v b %v", s.TurnIn("a"), s.TurnIn("b"))
	}
}

// The sidebar's marks: waiting counts approvals and questions, Seen clears
// what showing the chat told the user but not what still waits.
func TestMarks(t *testing.T) {
	s := New()
	n := 0
	s.Subscribe(Marks, func(Change) { n++ })
	s.AddWaiting("a", 1)
	s.AddWaiting("a", 1)
	s.SetUnseen("a", true)
	s.SetNoted("b", true)
	s.Seen("a")
	if m := s.MarkOf("a"); m != (Mark{Waiting: 2}) {
		t.Errorf("a's mark after Seen: %+v", m)
	}
	s.AddWaiting("a", -1)
	s.AddWaiting("a", -1)
	s.AddWaiting("a", -1) // never below zero
	if m := s.MarkOf("a"); m != (Mark{}) {
		t.Errorf("a's mark once answered: %+v", m)
	}
	if !s.MarkOf("b").Noted {
		t.Error("b's notice mark was lost")
	}
	s.SetNoted("b", true) // no change: not told
	if n != 7 {
		t.Errorf("%d Marks changes, want 7", n)
	}
}
