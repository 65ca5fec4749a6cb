package surfaces

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/protocol"
)

func TestPublishKinds(t *testing.T) {
	tests := []struct {
		kind    protocol.PublishKind
		payload string
		check   func(t *testing.T, s Surface)
	}{
		{protocol.PublishStatus, `{"label":"Indexing","detail":"3/10","severity":"warn","progress":0.3}`, func(t *testing.T, s Surface) {
			if s.Status == nil || s.Status.Label != "Indexing" || s.Status.Severity != protocol.SeverityWarn || *s.Status.Progress != 0.3 {
				t.Errorf("status = %+v", s.Status)
			}
		}},
		{protocol.PublishCard, `{"title":"Build","markdown":"**ok**","fields":[{"key":"took","value":"3s"}],"actions":[{"actionId":"rerun","label":"Run again"}]}`, func(t *testing.T, s Surface) {
			if s.Card == nil || s.Card.Title != "Build" || s.Card.Fields[0].Value != "3s" || s.Card.Actions[0].ActionID != "rerun" {
				t.Errorf("card = %+v", s.Card)
			}
		}},
		{protocol.PublishForm, `{"title":"Deploy","fields":[{"key":"env","kind":"select","options":["dev","prod"],"default":"dev","required":true}]}`, func(t *testing.T, s Surface) {
			if s.Form == nil || s.Form.Fields[0].Key != "env" || s.Form.Fields[0].Default != "dev" || s.Submit != SubmitIdle {
				t.Errorf("form = %+v submit %s", s.Form, s.Submit)
			}
		}},
		{protocol.PublishNotification, `{"title":"Done","body":"All good","severity":"info"}`, func(t *testing.T, s Surface) {
			if s.Notification == nil || s.Notification.Title != "Done" || s.Notification.Body != "All good" {
				t.Errorf("notification = %+v", s.Notification)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind), func(t *testing.T) {
			s := newTestStore(t)
			var rec recorder
			defer s.Subscribe(rec.listen)()
			mustPublish(t, s, "p", string(tt.kind), "x", tt.payload)
			got, ok := s.Get(key("p", "x"))
			if !ok {
				t.Fatal("not stored")
			}
			if got.Kind != tt.kind || got.Version != 1 || got.Updated.IsZero() {
				t.Errorf("surface = kind %s version %d updated %v", got.Kind, got.Version, got.Updated)
			}
			set := 0
			for _, p := range []bool{got.Status != nil, got.Card != nil, got.Form != nil, got.Notification != nil} {
				if p {
					set++
				}
			}
			if set != 1 {
				t.Errorf("%d payload pointers set, want 1", set)
			}
			tt.check(t, got)
			if k := rec.kinds(); !slices.Equal(k, []ChangeKind{Published}) {
				t.Errorf("changes = %v", k)
			}
		})
	}
}

func TestPublishReplaceInPlace(t *testing.T) {
	s := newTestStore(t)
	mustPublish(t, s, "p", "status", "x", `{"label":"one"}`)
	mustPublish(t, s, "p", "status", "x", `{"label":"two"}`)
	mustPublish(t, s, "p", "status", "y", `{"label":"other"}`)
	got, _ := s.Get(key("p", "x"))
	if got.Version != 2 || got.Status.Label != "two" {
		t.Errorf("x = version %d label %q, want 2 two", got.Version, got.Status.Label)
	}
	if n := len(s.Surfaces()); n != 2 {
		t.Errorf("%d surfaces, want 2", n)
	}
}

func TestBindClearsOldGeneration(t *testing.T) {
	s := newTestStore(t)
	var rec recorder
	defer s.Subscribe(rec.listen)()
	mustPublish(t, s, "p", "status", "x", `{"label":"a"}`)
	mustPublish(t, s, "q", "notification", "n", `{"title":"a"}`)
	rec.reset()

	s.Bind(Binding{SessionID: sess, Generation: gen}) // same binding: nothing
	if len(rec.kinds()) != 0 || len(s.Surfaces()) != 2 {
		t.Fatalf("rebinding the same binding changed something: %v", rec.kinds())
	}
	s.Bind(Binding{SessionID: sess, Generation: gen + 1})
	if n := len(s.Surfaces()); n != 0 {
		t.Errorf("%d surfaces after a new generation, want 0", n)
	}
	if len(rec.changes) != 1 || rec.changes[0].Kind != Cleared || rec.changes[0].Generation != gen+1 {
		t.Errorf("changes = %+v, want one Cleared for %d", rec.changes, gen+1)
	}
	if b := s.Binding(); b.Generation != gen+1 || b.SessionID != sess {
		t.Errorf("binding = %+v", b)
	}
	// The old generation is now stale; the new one is accepted.
	if res, err := s.Publish("p", params("status", "x", sess, gen, `{"label":"late"}`)); err != nil || res.Accepted {
		t.Errorf("old generation: accepted=%v err=%v", res.Accepted, err)
	}
	if res, err := s.Publish("p", params("status", "x", sess, gen+1, `{"label":"new"}`)); err != nil || !res.Accepted {
		t.Errorf("new generation: accepted=%v err=%v", res.Accepted, err)
	}
	// A new session clears too.
	rec.reset()
	s.Bind(Binding{SessionID: "s2", Generation: gen + 1})
	if len(s.Surfaces()) != 0 || !slices.Equal(rec.kinds(), []ChangeKind{Cleared}) {
		t.Errorf("new session: %d surfaces, changes %v", len(s.Surfaces()), rec.kinds())
	}
}

func TestPublishGate(t *testing.T) {
	tests := []struct {
		name, plugin string
		raw          json.RawMessage
		reason       protocol.Reason
		code         int
	}{
		{"stale generation", "p", params("status", "x", sess, gen-1, `{"label":"a"}`), "", 0},
		{"future generation", "p", params("status", "x", sess, gen+1, `{"label":"a"}`), "", 0},
		{"wrong session", "p", params("status", "x", "other", gen, `{"label":"a"}`), "", 0},
		{"stale with bad payload is still only dropped", "p", params("status", "x", sess, gen-1, `{"nope":1}`), "", 0},
		{"unknown plugin", "ghost", params("status", "x", sess, gen, `{"label":"a"}`), protocol.ReasonInternal, -32603},
		{"crashed plugin", "dead", params("status", "x", sess, gen, `{"label":"a"}`), protocol.ReasonProviderInterrupted, protocol.CodeDomain},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(t)
			res, err := s.Publish(tt.plugin, tt.raw)
			if tt.reason == "" {
				if err != nil || res.Accepted {
					t.Fatalf("accepted=%v err=%v, want dropped", res.Accepted, err)
				}
			} else {
				wantReason(t, err, tt.reason, tt.plugin)
				if code := protocol.AsError(err).Code; code != tt.code {
					t.Errorf("code = %d, want %d", code, tt.code)
				}
			}
			if n := len(s.Surfaces()); n != 0 {
				t.Errorf("%d surfaces stored", n)
			}
		})
	}
}

func TestPublishInvalid(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		path string
	}{
		{"missing surfaceId", `{"kind":"status","sessionId":"s1","generation":7,"payload":{"label":"a"}}`, "surfaceId"},
		{"empty surfaceId", `{"kind":"status","surfaceId":"","sessionId":"s1","generation":7,"payload":{"label":"a"}}`, "surfaceId"},
		{"unknown field", `{"kind":"status","surfaceId":"x","sessionId":"s1","generation":7,"payload":{"label":"a"},"extra":1}`, "extra"},
		{"unknown kind", `{"kind":"toast","surfaceId":"x","sessionId":"s1","generation":7,"payload":{}}`, "kind"},
		{"not an object", `[1]`, "must be an object"},
		{"empty input", ``, "empty input"},
		{"status without label", string(params("status", "x", sess, gen, `{"detail":"d"}`)), "label"},
		{"status negative progress", string(params("status", "x", sess, gen, `{"label":"a","progress":-1}`)), "progress"},
		{"status bad severity", string(params("status", "x", sess, gen, `{"label":"a","severity":"fatal"}`)), "severity"},
		{"null payload", string(params("status", "x", sess, gen, `null`)), "status payload"},
		{"payload unknown field", string(params("notification", "x", sess, gen, `{"title":"a","color":"red"}`)), "color"},
		{"card action without label", string(params("card", "x", sess, gen, `{"actions":[{"actionId":"go"}]}`)), "actions[0].label"},
		{"card field without key", string(params("card", "x", sess, gen, `{"fields":[{"value":"v"}]}`)), "fields[0].key"},
		{"form select without options", string(params("form", "x", sess, gen, `{"fields":[{"key":"a","kind":"select"}]}`)), "fields[0].options"},
		{"form duplicate keys", string(params("form", "x", sess, gen, `{"fields":[{"key":"a","kind":"input"},{"key":"a","kind":"input"}]}`)), "fields[1].key"},
		{"form bad field kind", string(params("form", "x", sess, gen, `{"fields":[{"key":"a","kind":"slider"}]}`)), "fields[0].kind"},
		{"notification without title", string(params("notification", "x", sess, gen, `{"body":"b"}`)), "title"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(t)
			_, err := s.Publish("p", json.RawMessage(tt.raw))
			wantReason(t, err, protocol.ReasonInvalidParams, tt.path)
			if protocol.AsError(err).Code != protocol.CodeInvalidParams {
				t.Errorf("code = %d", protocol.AsError(err).Code)
			}
			if n := len(s.Surfaces()); n != 0 {
				t.Errorf("%d surfaces stored", n)
			}
		})
	}
}

func TestPublishRedacts(t *testing.T) {
	secret := func(s string) string { return strings.ReplaceAll(s, "$K", openAIKey) }
	tests := []struct {
		kind, payload string
		kept          []string // identifiers that must survive verbatim
	}{
		{"status", `{"label":"using $K","detail":"token ` + githubPAT + `"}`, nil},
		{"card", `{"title":"$K","markdown":"# key\n` + githubPAT + `","text":"Bearer $K","fields":[{"key":"$K","value":"` + githubPAT + `"}],"actions":[{"actionId":"rotate-key","label":"rotate $K"}]}`, []string{"rotate-key"}},
		{"form", `{"title":"$K","message":"` + githubPAT + `","fields":[{"key":"api-key","label":"paste $K","kind":"select","options":["$K","` + githubPAT + `","plain"],"default":"$K"},{"key":"tags","kind":"multiselect","options":["a"],"default":["$K"]}]}`, []string{"api-key", "tags", "plain"}},
		{"notification", `{"title":"$K","body":"` + githubPAT + `"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			s := newTestStore(t)
			var rec recorder
			defer s.Subscribe(rec.listen)()
			mustPublish(t, s, "p", tt.kind, "x", secret(tt.payload))
			got, _ := s.Get(key("p", "x"))
			dump := fmt.Sprintf("%+v %+v %+v %+v %v", got.Status, got.Card, got.Form, got.Notification, got.HumanStrings())
			for _, c := range rec.changes {
				dump += fmt.Sprintf("%+v %+v %+v %+v", c.Surface.Status, c.Surface.Card, c.Surface.Form, c.Surface.Notification)
			}
			for _, leak := range []string{openAIKey, githubPAT, "AbCdEfGhIjKlMnOp", "ABCDEFGHIJKLMNOP"} {
				if strings.Contains(dump, leak) {
					t.Errorf("stored surface leaks %q: %s", leak, dump)
				}
			}
			for _, k := range tt.kept {
				if !strings.Contains(dump, k) {
					t.Errorf("identifier %q lost: %s", k, dump)
				}
			}
			for _, h := range got.HumanStrings() {
				if redact.String(h) != h {
					t.Errorf("stored string %q is not stable under redaction", h)
				}
			}
		})
	}
}

func TestNotificationCap(t *testing.T) {
	s := newTestStore(t)
	var rec recorder
	defer s.Subscribe(rec.listen)()
	for i := range NotificationCap + 5 {
		mustPublish(t, s, "p", "notification", fmt.Sprintf("n%03d", i), `{"title":"t"}`)
	}
	mustPublish(t, s, "q", "notification", "n000", `{"title":"t"}`) // another plugin's count is its own
	mustPublish(t, s, "p", "status", "st", `{"label":"s"}`)         // other kinds do not count
	count := map[string]int{}
	for _, x := range s.Surfaces() {
		if x.Kind == protocol.PublishNotification {
			count[x.Key.Plugin]++
		}
	}
	if count["p"] != NotificationCap || count["q"] != 1 {
		t.Errorf("notifications per plugin = %v, want p %d, q 1", count, NotificationCap)
	}
	for i := range 5 {
		if _, ok := s.Get(key("p", fmt.Sprintf("n%03d", i))); ok {
			t.Errorf("oldest notification n%03d kept", i)
		}
	}
	if _, ok := s.Get(key("p", "n005")); !ok {
		t.Error("n005 evicted")
	}
	removed := 0
	for _, c := range rec.changes {
		if c.Kind == Removed {
			removed++
		}
	}
	if removed != 5 {
		t.Errorf("%d Removed changes, want 5", removed)
	}
	// Replacing an existing notification does not evict; dismissing frees a slot.
	mustPublish(t, s, "p", "notification", "n050", `{"title":"again"}`)
	if !s.Dismiss(key("p", "n006")) {
		t.Fatal("dismiss n006")
	}
	mustPublish(t, s, "p", "notification", "new", `{"title":"t"}`)
	if _, ok := s.Get(key("p", "n005")); !ok {
		t.Error("n005 evicted though a slot was free")
	}
	// A key that turns from notification into a status stops counting.
	mustPublish(t, s, "p", "status", "n005", `{"label":"now a status"}`)
	for i := range NotificationCap {
		mustPublish(t, s, "p", "notification", fmt.Sprintf("m%03d", i), `{"title":"t"}`)
	}
	if got, ok := s.Get(key("p", "n005")); !ok || got.Kind != protocol.PublishStatus {
		t.Errorf("status n005 evicted by the notification cap: %v %+v", ok, got)
	}
}

func TestTenThousandPublishes(t *testing.T) {
	s := newTestStore(t)
	calls := 0
	defer s.Subscribe(func(Change) { calls++ })()
	for i := 1; i <= 10000; i++ {
		mustPublish(t, s, "p", "status", "busy", fmt.Sprintf(`{"label":"step %d"}`, i))
	}
	got, _ := s.Get(key("p", "busy"))
	if got.Version != 10000 || got.Status.Label != "step 10000" || calls != 10000 {
		t.Errorf("version %d label %q listener calls %d", got.Version, got.Status.Label, calls)
	}
}

func TestDismissAndSurfacesOrder(t *testing.T) {
	s := newTestStore(t)
	for _, p := range []struct{ plugin, kind, id, payload string }{
		{"q", "status", "a", `{"label":"l"}`},
		{"p", "notification", "a", `{"title":"t"}`},
		{"p", "form", "b", `{"fields":[]}`},
		{"p", "card", "z", `{}`},
		{"p", "card", "c", `{}`},
		{"p", "status", "y", `{"label":"l"}`},
	} {
		mustPublish(t, s, p.plugin, p.kind, p.id, p.payload)
	}
	var order []string
	for _, x := range s.Surfaces() {
		order = append(order, x.Key.Plugin+"/"+string(x.Kind)+"/"+x.Key.SurfaceID)
	}
	want := []string{"p/status/y", "p/card/c", "p/card/z", "p/form/b", "p/notification/a", "q/status/a"}
	if !slices.Equal(order, want) {
		t.Errorf("order = %v\nwant    %v", order, want)
	}
	var rec recorder
	defer s.Subscribe(rec.listen)()
	if !s.Dismiss(key("p", "c")) || s.Dismiss(key("p", "c")) {
		t.Error("dismiss must succeed once")
	}
	if len(rec.changes) != 1 || rec.changes[0].Kind != Removed || rec.changes[0].Surface.Key != key("p", "c") {
		t.Errorf("changes = %+v", rec.changes)
	}
}

func TestListenerReentryAndUnsubscribe(t *testing.T) {
	s := newTestStore(t)
	var seen []string
	unsub := s.Subscribe(func(c Change) {
		if c.Kind != Published {
			return
		}
		seen = append(seen, c.Surface.Status.Label)
		if c.Surface.Status.Label == "first" {
			// Mutating from inside a listener must not deadlock; the change
			// is delivered after this call returns, in order.
			mustPublish(t, s, "p", "status", "x", `{"label":"second"}`)
			if cur, _ := s.Get(key("p", "x")); cur.Version != 2 {
				t.Errorf("inner publish not stored: %d", cur.Version)
			}
		}
	})
	mustPublish(t, s, "p", "status", "x", `{"label":"first"}`)
	if !slices.Equal(seen, []string{"first", "second"}) {
		t.Errorf("seen = %v", seen)
	}
	unsub()
	unsub()
	mustPublish(t, s, "p", "status", "x", `{"label":"third"}`)
	if len(seen) != 2 {
		t.Errorf("unsubscribed listener called: %v", seen)
	}
}

func TestListenerPanicDoesNotWedge(t *testing.T) {
	s := newTestStore(t)
	boom := true
	var got []uint64
	defer s.Subscribe(func(c Change) {
		if boom {
			boom = false
			panic("listener bug")
		}
		got = append(got, c.Surface.Version)
	})()
	func() {
		defer func() { _ = recover() }()
		mustPublish(t, s, "p", "status", "x", `{"label":"a"}`)
	}()
	mustPublish(t, s, "p", "status", "x", `{"label":"b"}`)
	if !slices.Equal(got, []uint64{2}) {
		t.Errorf("after a panicking listener, delivered versions = %v, want [2]", got)
	}
}

func TestConcurrentPublishOrderedDelivery(t *testing.T) {
	s := newTestStore(t)
	var mu sync.Mutex
	last := map[Key]uint64{}
	defer s.Subscribe(func(c Change) {
		mu.Lock()
		defer mu.Unlock()
		if c.Kind == Removed { // a later publish starts over at version 1
			delete(last, c.Surface.Key)
			return
		}
		if v := c.Surface.Version; v <= last[c.Surface.Key] {
			t.Errorf("%v: version %d delivered after %d", c.Surface.Key, v, last[c.Surface.Key])
		}
		last[c.Surface.Key] = c.Surface.Version
		_ = s.Surfaces() // reading from a listener is allowed
	})()
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 200 {
				id := fmt.Sprintf("k%d", (w+i)%3)
				if _, err := s.Publish("p", params("status", id, sess, gen, `{"label":"x"}`)); err != nil {
					t.Error(err)
				}
				if i == 100 && w == 0 {
					s.Dismiss(key("p", "k1"))
				}
			}
		})
	}
	wg.Wait()
	total := uint64(0)
	for _, x := range s.Surfaces() {
		total += x.Version
	}
	if total == 0 || total > 1600 {
		t.Errorf("total versions %d", total)
	}
}
