package mcp

import (
	"testing"
	"testing/synctest"
	"time"
)

// The gate's bounds on a fake clock (synctest): per call, per minute,
// outside calls with one notice per window, and a new minute's allowance.
func TestElicitGate(t *testing.T) {
	type step struct {
		wait        time.Duration // fake time passed before the call or the asks
		inCall      bool
		asks        int
		ok, noticed int
		declined    int // what the call reports at its end
		why         string
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"one call", []step{{inCall: true, asks: 5, ok: 3, declined: 2, why: "at most 3 per tool call"}}},
		{"calls share a minute", []step{
			{inCall: true, asks: 3, ok: 3}, {inCall: true, asks: 3, ok: 3}, {inCall: true, asks: 3, ok: 3},
			{inCall: true, asks: 3, ok: 1, declined: 2, why: "at most 10 per minute"},
			{wait: time.Minute, inCall: true, asks: 4, ok: 3, declined: 1, why: "at most 3 per tool call"},
		}},
		{"outside calls", []step{
			{asks: 12, ok: 10, noticed: 1},
			{wait: 30 * time.Second, asks: 5, ok: 0},
			{wait: 30 * time.Second, asks: 12, ok: 10, noticed: 1},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				g := newElicitGate(0, 0)
				for i, st := range tc.steps {
					time.Sleep(st.wait) // the bubble's clock: no real time passes
					var c *callElicits
					if st.inCall {
						c = g.begin()
					}
					ok, noticed := 0, 0
					for range st.asks {
						yes, notice, _ := g.admit(time.Now(), nil)
						if yes {
							ok++
						}
						if notice {
							noticed++
						}
					}
					if ok != st.ok || noticed != st.noticed {
						t.Fatalf("step %d: %d asked, %d notices; want %d, %d", i, ok, noticed, st.ok, st.noticed)
					}
					if c != nil {
						if n, why := g.end(c); n != st.declined || why != st.why {
							t.Fatalf("step %d: the call reports %d declined (%q), want %d (%q)", i, n, why, st.declined, st.why)
						}
					}
				}
			})
		})
	}
}

// An elicitation asked within a call (its context names the call) is
// charged to that call, not to an older one in flight.
func TestElicitGateChargesTheAskingCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newElicitGate(0, 0)
		older, asking := g.begin(), g.begin()
		for i, want := range []bool{true, true, true, false, false} {
			if ok, _, _ := g.admit(time.Now(), asking); ok != want {
				t.Fatalf("ask %d of the second call: %v, want %v", i+1, ok, want)
			}
		}
		if ok, _, _ := g.admit(time.Now(), older); !ok {
			t.Fatal("the older call's allowance was spent by the other")
		}
		if n, why := g.end(asking); n != 2 || why != "at most 3 per tool call" {
			t.Fatalf("the asking call reports %d declined (%q)", n, why)
		}
		if n, _ := g.end(older); n != 0 {
			t.Fatalf("the older call reports %d declined", n)
		}
	})
}
