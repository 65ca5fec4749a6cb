package surfaces

import (
	"errors"
	"slices"
	"testing"
)

func TestSubmitStateString(t *testing.T) {
	for st, want := range map[SubmitState]string{SubmitIdle: "idle", SubmitPending: "pending", SubmitSent: "sent", 9: "SubmitState(9)"} {
		if st.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(st), st.String(), want)
		}
	}
}

func TestSubmitStateMachine(t *testing.T) {
	tests := []struct {
		name  string
		steps []SubmitState
		want  error // of the last step; earlier steps must succeed
		final SubmitState
	}{
		{"idle to pending", []SubmitState{SubmitPending}, nil, SubmitPending},
		{"pending to sent", []SubmitState{SubmitPending, SubmitSent}, nil, SubmitSent},
		{"pending back to idle on failure", []SubmitState{SubmitPending, SubmitIdle}, nil, SubmitIdle},
		{"retry after failure", []SubmitState{SubmitPending, SubmitIdle, SubmitPending, SubmitSent}, nil, SubmitSent},
		{"idle to sent", []SubmitState{SubmitSent}, ErrIllegalTransition, SubmitIdle},
		{"idle to idle", []SubmitState{SubmitIdle}, ErrIllegalTransition, SubmitIdle},
		{"pending to pending", []SubmitState{SubmitPending, SubmitPending}, ErrIllegalTransition, SubmitPending},
		{"sent to pending", []SubmitState{SubmitPending, SubmitSent, SubmitPending}, ErrIllegalTransition, SubmitSent},
		{"sent to idle", []SubmitState{SubmitPending, SubmitSent, SubmitIdle}, ErrIllegalTransition, SubmitSent},
		{"unknown state", []SubmitState{SubmitState(42)}, ErrIllegalTransition, SubmitIdle},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(t)
			mustPublish(t, s, "p", "form", "f", `{"fields":[{"key":"a","kind":"input"}]}`)
			var rec recorder
			defer s.Subscribe(rec.listen)()
			for i, st := range tt.steps {
				err := s.SetSubmitState(key("p", "f"), st)
				if i < len(tt.steps)-1 && err != nil {
					t.Fatalf("step %d (%s): %v", i, st, err)
				}
				if i == len(tt.steps)-1 && !errors.Is(err, tt.want) {
					t.Fatalf("last step (%s): err %v, want %v", st, err, tt.want)
				}
			}
			got, _ := s.Get(key("p", "f"))
			if got.Submit != tt.final {
				t.Errorf("final state %s, want %s", got.Submit, tt.final)
			}
			if n, want := len(rec.changes), len(tt.steps)-btoi(tt.want != nil); n != want {
				t.Errorf("%d changes, want %d", n, want)
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestSubmitStateErrors(t *testing.T) {
	s := newTestStore(t)
	mustPublish(t, s, "p", "status", "st", `{"label":"l"}`)
	if err := s.SetSubmitState(key("p", "missing"), SubmitPending); !errors.Is(err, ErrUnknownSurface) {
		t.Errorf("unknown key: %v", err)
	}
	if err := s.SetSubmitState(key("p", "st"), SubmitPending); !errors.Is(err, ErrNotForm) {
		t.Errorf("status: %v", err)
	}
}

func TestRepublishResetsSubmitState(t *testing.T) {
	s := newTestStore(t)
	mustPublish(t, s, "p", "form", "f", `{"fields":[{"key":"a","kind":"input"}]}`)
	if err := s.SetSubmitState(key("p", "f"), SubmitPending); err != nil {
		t.Fatal(err)
	}
	mustPublish(t, s, "p", "form", "f", `{"title":"again","fields":[{"key":"a","kind":"input"}]}`)
	got, _ := s.Get(key("p", "f"))
	if got.Submit != SubmitIdle || got.Version != 2 {
		t.Errorf("after republish: %s version %d", got.Submit, got.Version)
	}
}

func TestBeginSubmit(t *testing.T) {
	s := newTestStore(t)
	mustPublish(t, s, "p", "form", "f", `{"fields":[
		{"key":"env","kind":"select","options":["dev","`+openAIKey+`"],"required":true},
		{"key":"note","kind":"input"}]}`)
	k := key("p", "f")
	if _, err := s.BeginSubmit(k, map[string]any{"env": "nope"}); !errors.Is(err, ErrInvalidValue) {
		t.Fatalf("bad option: %v", err)
	}
	if got, _ := s.Get(k); got.Submit != SubmitIdle {
		t.Fatalf("a rejected submission changed the state to %s", got.Submit)
	}
	shown, _ := s.Get(k)
	masked := shown.Form.Fields[0].Options[1]
	if masked == openAIKey {
		t.Fatal("option not redacted")
	}
	p, err := s.BeginSubmit(k, map[string]any{"env": masked, "note": "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if p.SurfaceID != "f" || p.SessionID != sess || p.Generation != gen || p.Values["env"] != openAIKey || p.Values["note"] != "hi" {
		t.Errorf("params = %+v (the plugin must get its original option back)", p)
	}
	if _, err := s.BeginSubmit(k, map[string]any{"env": "dev"}); !errors.Is(err, ErrIllegalTransition) {
		t.Errorf("double submit: %v", err)
	}
	if err := s.SetSubmitState(k, SubmitSent); err != nil {
		t.Fatal(err)
	}
	if _, err := s.BeginSubmit(key("p", "missing"), nil); !errors.Is(err, ErrUnknownSurface) {
		t.Errorf("unknown: %v", err)
	}
	var states []SubmitState
	defer s.Subscribe(func(c Change) { states = append(states, c.Surface.Submit) })()
	mustPublish(t, s, "p", "form", "g", `{"fields":[]}`)
	if _, err := s.BeginSubmit(key("p", "g"), map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(states, []SubmitState{SubmitIdle, SubmitPending}) {
		t.Errorf("states = %v", states)
	}
}
