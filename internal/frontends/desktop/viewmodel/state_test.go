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
