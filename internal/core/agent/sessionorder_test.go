package agent_test

import (
	"context"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// The history's order through the core: renaming, re-modelling, pinning,
// deleting and restoring the open chat keep its place; only a message
// moves it.
func TestCoreHistoryOrderMovesOnlyOnAMessage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	c := e.open(t, &recorder{})
	ctx := context.Background()
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	must("model", c.SetModel(ctx, echoModel, ""))
	must("send a", c.Send(ctx, "first chat"))
	a := c.Session().ID
	must("new", c.NewSession(ctx, ""))
	must("send b", c.Send(ctx, "second chat"))
	b := c.Session().ID
	must("open a", c.LoadSession(ctx, a))
	order := func(step string, want ...string) {
		t.Helper()
		var got []string
		for _, s := range c.Sessions() {
			got = append(got, s.ID)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: listed %v, want %v", step, got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: order %v, want %v (a=%s b=%s)", step, got, want, a, b)
				return
			}
		}
	}
	order("opened", b, a)

	must("rename the open chat", c.RenameSession(ctx, a, "Renamed"))
	order("rename the open chat", b, a)
	must("model of the open chat", c.SetModel(ctx, echoModel, "high"))
	must("leave it", c.NewSession(ctx, "")) // saves it
	order("a model change saved", b, a)

	must("pin", c.PinSession(a, true))
	order("pinned", a, b)
	if s := c.Sessions()[0]; !s.Pinned || s.Title != "Renamed" {
		t.Errorf("pinned summary %+v", s)
	}
	must("unpin", c.PinSession(a, false))
	order("unpinned", b, a)

	must("open a again", c.LoadSession(ctx, a))
	must("delete the open chat", c.TrashSession(ctx, a))
	order("deleted", b)
	must("undo", c.RestoreSession(a))
	order("restored in its place", b, a)

	must("open a to talk", c.LoadSession(ctx, a))
	must("send in a", c.Send(ctx, "a new message"))
	order("a new message", a, b)
	if hits := c.SearchSessionText(ctx, "second", 10); len(hits) != 1 || hits[0].ID != b || hits[0].Snippet != "second chat" {
		t.Errorf("search through the core: %+v", hits)
	}
	var _ agent.SavedSessions = c
}

// An import never takes the open chat's id, saved or not: its next save
// would overwrite the imported chat.
func TestCoreImportAvoidsTheOpenChatsID(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.open(t, &recorder{})
	ctx := context.Background()
	open := c.Session()
	open.Messages = nil
	doc, err := agent.ExportJSON(&open)
	if err != nil {
		t.Fatal(err)
	}
	id, err := c.ImportSession(ctx, doc)
	if err != nil || id == open.ID || id == "" {
		t.Errorf("imported as %q (the open chat is %s): %v", id, open.ID, err)
	}
}
