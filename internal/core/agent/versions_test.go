package agent_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// Regenerate asks again without a second question and keeps the first
// answer as a version; ShowVersion switches between them; both are saved,
// and a file written before versions existed still loads.
func TestRegenerateKeepsVersionsOfTheAnswer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	fe := &recorder{}
	c := e.open(t, fe)
	ctx := context.Background()
	if err := c.Regenerate(ctx); !errors.Is(err, agent.ErrNothingToRegenerate) {
		t.Fatalf("Regenerate of an empty chat: %v", err)
	}
	if err := c.SetModel(ctx, echoModel, ""); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(ctx, "tell me a joke"); err != nil {
		t.Fatal(err)
	}
	first := c.Session()
	if shown, total := c.LastReplyVersion(); total != 0 || shown != 0 {
		t.Fatalf("versions before a Regenerate: %d/%d", shown, total)
	}
	if err := c.Regenerate(ctx); err != nil {
		t.Fatal(err)
	}
	s := c.Session()
	if n := userMessages(s); n != 1 || len(s.Messages) != len(first.Messages) {
		t.Fatalf("after Regenerate: %d user messages, %d messages (want 1, %d): %+v", n, len(s.Messages), len(first.Messages), s.Messages)
	}
	if u := fe.eventsOf(agent.EventUserMessage); len(u) != 1 {
		t.Fatalf("Regenerate showed the question again: %+v", u)
	}
	if shown, total := c.LastReplyVersion(); shown != 1 || total != 2 {
		t.Fatalf("versions %d/%d, want 2/2", shown+1, total)
	}
	saved := loadSaved(t, e, s.ID)
	if shown, total := saved.LastReplyVersion(); shown != 1 || total != 2 {
		t.Fatalf("saved versions %d/%d, want 2/2", shown+1, total)
	}
	kept := saved.ReplyVersions[0].Versions[0]
	if len(kept.Messages) != 1 || kept.Messages[0].Content != first.Messages[1].Content || len(kept.Notes) != len(first.Notes) {
		t.Fatalf("the first answer was not kept: %+v", kept)
	}

	if err := c.ShowVersion(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if shown, total := c.LastReplyVersion(); shown != 0 || total != 2 {
		t.Fatalf("after ShowVersion(0): %d/%d", shown+1, total)
	}
	if err := c.ShowVersion(ctx, 5); !errors.Is(err, agent.ErrNoVersion) {
		t.Fatalf("ShowVersion(5): %v", err)
	}
	if saved := loadSaved(t, e, s.ID); len(saved.Messages) != 2 || saved.ReplyVersions[0].Shown != 0 {
		t.Fatalf("the switch was not saved: %+v", saved)
	}

	// A third answer joins the same group.
	if err := c.Regenerate(ctx); err != nil {
		t.Fatal(err)
	}
	if shown, total := c.LastReplyVersion(); shown != 2 || total != 3 {
		t.Fatalf("after a second Regenerate: %d/%d, want 3/3", shown+1, total)
	}

	// A file without the field (written before versions) loads with none
	// and is written back without it.
	st, err := agent.NewSessionStore(e.layout.SessionsDir())
	if err != nil {
		t.Fatal(err)
	}
	legacy := agent.NewSession(e.workspace)
	legacy.Messages = first.Messages
	if err := st.Save(legacy); err != nil {
		t.Fatal(err)
	}
	if raw, _ := os.ReadFile(st.Path(legacy.ID)); strings.Contains(string(raw), "replyVersions") {
		t.Fatalf("a session without versions writes the field: %s", raw)
	}
	back, err := st.Load(legacy.ID)
	if err != nil || back.ReplyVersions != nil {
		t.Fatalf("a session without versions: %v %+v", err, back)
	}
}

// EditLast changes the last question and asks again: the model gets the
// new text (the echo model answers with it), there is still one user
// message, and the first question comes back with its answer as version 1,
// in the file too.
func TestEditLastKeepsEachQuestionWithItsAnswer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	fe := &recorder{}
	c := e.open(t, fe)
	ctx := context.Background()
	if err := c.EditLast(ctx, "anything"); !errors.Is(err, agent.ErrNothingToRegenerate) {
		t.Fatalf("EditLast of an empty chat: %v", err)
	}
	if err := c.SetModel(ctx, echoModel, ""); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(ctx, "the first question"); err != nil {
		t.Fatal(err)
	}
	if err := c.EditLast(ctx, "  \n"); !errors.Is(err, agent.ErrEmptyEdit) {
		t.Fatalf("a blank edit: %v", err)
	}
	if err := c.EditLast(ctx, "the edited question"); err != nil {
		t.Fatal(err)
	}
	last := func(s agent.Session) (q, answer string) {
		return s.Messages[0].Content, s.Messages[len(s.Messages)-1].Content
	}
	s := c.Session()
	if q, ans := last(s); userMessages(s) != 1 || q != "the edited question" || !strings.Contains(ans, "the edited question") {
		t.Fatalf("after the edit: %d user messages, question %q, answer %q", userMessages(s), q, ans)
	}
	if shown, total := c.LastReplyVersion(); shown != 1 || total != 2 {
		t.Fatalf("versions %d/%d, want 2/2", shown+1, total)
	}
	if err := c.ShowVersion(ctx, 0); err != nil {
		t.Fatal(err)
	}
	saved := loadSaved(t, e, s.ID)
	if q, ans := last(*saved); q != "the first question" || !strings.Contains(ans, "the first question") {
		t.Fatalf("version 1 as saved: question %q, answer %q", q, ans)
	}
	if err := c.ShowVersion(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if q, _ := last(c.Session()); q != "the edited question" {
		t.Fatalf("version 2 shows the question %q", q)
	}
}

// A turn run again from the history (Retry of a recorded message, as
// Regenerate does) that fails again keeps no copy of the message as an
// unsent one: a further Retry adds no second user message, and a reopened
// chat shows the question once.
func TestRetryThatFailsAgainKeepsNoUnsentCopy(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.mockProvider(t, "mock", "x:1")
	c := e.open(t, &recorder{})
	ctx := context.Background()
	c.SetModel(ctx, "plugin/mock/mock/m1", "")
	if err := c.Send(ctx, "hello"); err == nil {
		t.Fatal("the broken stream succeeded")
	}
	for i := 0; i < 2; i++ {
		if err := c.Retry(ctx); err == nil {
			t.Fatal("the broken stream succeeded on retry")
		}
	}
	s := c.Session()
	if n := userMessages(s); n != 1 {
		t.Fatalf("%d user messages after two retries, want 1: %+v", n, s.Messages)
	}
	for _, n := range s.Notes {
		if n.Input != "" {
			t.Fatalf("a note keeps the recorded message as unsent: %+v", s.Notes)
		}
	}
}
