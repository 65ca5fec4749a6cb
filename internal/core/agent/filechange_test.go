package agent_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/textdiff"
)

// approver is a recorder whose approvals run a function first (the user
// looking at the card while something else changes the file).
type approver struct {
	*recorder
	before func(agent.ApprovalRequest)
}

func (a *approver) Approve(ctx context.Context, req agent.ApprovalRequest) agent.Approval {
	if a.before != nil {
		a.before(req)
	}
	return a.recorder.Approve(ctx, req)
}

// echoCore is a core on the echo model over a fresh workspace.
func echoCore(t *testing.T, fe agent.Frontend) (*env, *agent.Core) {
	t.Helper()
	e := newEnv(t)
	e.example(t, "echo-provider")
	c := e.open(t, fe)
	if err := c.SetModel(context.Background(), echoModel, ""); err != nil {
		t.Fatal(err)
	}
	return e, c
}

func writeWS(t *testing.T, e *env, rel, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(e.workspace, rel), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readWS(t *testing.T, e *env, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(e.workspace, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// lastCard is the last state of the card of call id.
func lastCard(fe *recorder, id string) agent.ToolCall {
	var last agent.ToolCall
	for _, tc := range fe.calls() {
		if tc.ID == id {
			last = tc
		}
	}
	return last
}

// diffLines are a diff's changed lines as "-text" and "+text".
func diffLines(files []textdiff.File) []string {
	var out []string
	for _, f := range files {
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				switch l.Kind {
				case textdiff.Delete:
					out = append(out, "-"+l.Text)
				case textdiff.Insert:
					out = append(out, "+"+l.Text)
				}
			}
		}
	}
	return out
}

// An approved edit writes exactly what the approval showed: the request
// carries the diff, the card keeps it, and the file holds the edit.
func TestApprovedEditAppliesTheShownDiff(t *testing.T) {
	t.Parallel()
	fe := &recorder{approve: agent.ApproveOnce}
	e, c := echoCore(t, fe)
	writeWS(t, e, "a.txt", "one\ntwo\nthree\n")
	if err := c.Send(context.Background(), `call edit_file {"path":"a.txt","old_string":"two","new_string":"TWO"}`); err != nil {
		t.Fatal(err)
	}
	if len(fe.approved) != 1 {
		t.Fatalf("approvals %+v", fe.approved)
	}
	shown := diffLines(fe.approved[0].Diff)
	if strings.Join(shown, "|") != "-two|+TWO" {
		t.Fatalf("the approval showed %q", shown)
	}
	if got := readWS(t, e, "a.txt"); got != "one\nTWO\nthree\n" {
		t.Fatalf("file %q", got)
	}
	card := lastCard(fe, "call_1")
	if card.State != agent.ToolDone || strings.Join(diffLines(card.Diff), "|") != "-two|+TWO" {
		t.Fatalf("card %+v", card)
	}
}

// A file changed between the preview and the approval is not overwritten:
// the approval covered the bytes shown, not whatever the tool would write
// now, and the model is told to read the file again.
func TestFileChangedBeforeApprovalIsNotOverwritten(t *testing.T) {
	t.Parallel()
	fe := &approver{recorder: &recorder{approve: agent.ApproveOnce}}
	e, c := echoCore(t, fe)
	writeWS(t, e, "a.txt", "old\n")
	fe.before = func(agent.ApprovalRequest) { writeWS(t, e, "a.txt", "changed by the user\n") }
	if err := c.Send(context.Background(), `call write_file {"path":"a.txt","content":"new\n"}`); err != nil {
		t.Fatal(err)
	}
	if got := readWS(t, e, "a.txt"); got != "changed by the user\n" {
		t.Fatalf("the file was overwritten: %q", got)
	}
	card := lastCard(fe.recorder, "call_1")
	if card.State != agent.ToolFailed || !strings.Contains(card.Result, "changed since the change was shown; read it again") {
		t.Fatalf("card %+v", card)
	}
}

// A call whose plan fails (the text to replace is not in the file) fails
// with the tool's own text and asks the user nothing.
func TestPlanErrorAsksNothing(t *testing.T) {
	t.Parallel()
	fe := &recorder{approve: agent.ApproveOnce}
	e, c := echoCore(t, fe)
	writeWS(t, e, "a.txt", "one\n")
	if err := c.Send(context.Background(), `call edit_file {"path":"a.txt","old_string":"absent","new_string":"x"}`); err != nil {
		t.Fatal(err)
	}
	if len(fe.approved) != 0 {
		t.Fatalf("asked about a call that cannot run: %+v", fe.approved)
	}
	card := lastCard(fe, "call_1")
	if card.State != agent.ToolFailed || card.Result == "" {
		t.Fatalf("card %+v", card)
	}
	msgs := c.Session().Messages
	if res := msgs[len(msgs)-2]; res.Role != "tool" || !strings.HasPrefix(res.Content, "error: ") {
		t.Fatalf("the model got %+v", res)
	}
	if got := readWS(t, e, "a.txt"); got != "one\n" {
		t.Fatalf("file %q", got)
	}
}

// StopCall stops the one command (its output so far streamed to the card)
// and the turn goes on to its reply with "stopped by the user".
func TestStopCallStopsOneCommandAndTheTurnFinishes(t *testing.T) {
	t.Parallel()
	fe := &recorder{approve: agent.ApproveOnce}
	_, c := echoCore(t, fe)
	started := make(chan struct{}, 1)
	fe.setOnEvent(func(ev agent.Event) {
		if ev.Kind == agent.EventToolProgress && ev.Call.Progress != nil && strings.Contains(ev.Call.Progress.Output, "started") {
			select {
			case started <- struct{}{}:
			default:
			}
		}
	})
	done := make(chan error, 1)
	begin := time.Now()
	go func() {
		done <- c.Send(context.Background(), `call run_command {"command":"echo started; sleep 60; echo never"}`)
	}()
	select {
	case <-started:
	case err := <-done:
		t.Fatalf("the turn ended before the command's output streamed: %v", err)
	}
	// A rewind waits for no turn: while one runs it is refused at once.
	if _, err := c.PlanRewind(context.Background(), 0); !errors.Is(err, agent.ErrBusy) {
		t.Fatalf("rewind during a turn: %v", err)
	}
	if !c.StopCall("call_1") {
		t.Fatal("StopCall found no running call")
	}
	if err := <-done; err != nil {
		t.Fatalf("the turn failed: %v", err)
	}
	if took := time.Since(begin); took > 45*time.Second {
		t.Fatalf("the command was not stopped (%s)", took)
	}
	card := lastCard(fe, "call_1")
	if !strings.Contains(card.Result, "started") || !strings.Contains(card.Result, "stopped by the user") || strings.Contains(card.Result, "never") {
		t.Fatalf("card %+v", card)
	}
	if got := fe.text(agent.EventText); got != "Tool result: started" {
		t.Fatalf("reply %q", got)
	}
	if c.StopCall("call_1") {
		t.Fatal("StopCall of a call that ended")
	}
}

// threeEdits makes three turns changing files: a.txt v0→v1, v1→v2, and
// b.txt created. It returns the user messages' indexes.
func threeEdits(t *testing.T, e *env, c *agent.Core) []int {
	t.Helper()
	writeWS(t, e, "a.txt", "v0\n")
	for _, msg := range []string{
		`call write_file {"path":"a.txt","content":"v1\n"}`,
		`call edit_file {"path":"a.txt","old_string":"v1","new_string":"v2"}`,
		`call write_file {"path":"b.txt","content":"new file\n"}`,
	} {
		if err := c.Send(context.Background(), msg); err != nil {
			t.Fatal(err)
		}
	}
	var users []int
	for i, m := range c.Session().Messages {
		if m.Role == "user" {
			users = append(users, i)
		}
	}
	if len(users) != 3 || readWS(t, e, "a.txt") != "v2\n" || readWS(t, e, "b.txt") != "new file\n" {
		t.Fatalf("the edits did not happen: users %v", users)
	}
	return users
}

// Rewinding a chat of three edits to its first message restores the
// files and the conversation; to its second, only what came after.
func TestRewindOfThreeEditsRestoresFilesAndConversation(t *testing.T) {
	t.Parallel()
	fe := &recorder{approve: agent.ApproveOnce}
	e, c := echoCore(t, fe)
	users := threeEdits(t, e, c)
	ctx := context.Background()

	plan, err := c.PlanRewind(ctx, users[1])
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(diffLines(plan.Files), "|"); got != "-v2|+v1|-new file" || len(plan.Conflicts) != 0 {
		t.Fatalf("plan to message %d: %q %+v", users[1], got, plan)
	}
	res, err := c.Rewind(ctx, users[1], agent.RewindCode, false)
	if err != nil {
		t.Fatal(err)
	}
	if readWS(t, e, "a.txt") != "v1\n" || len(res.Restored) != 2 || len(c.Session().Messages) != 12 {
		t.Fatalf("code rewind: a.txt %q, %+v, %d messages", readWS(t, e, "a.txt"), res, len(c.Session().Messages))
	}
	if _, err := os.Stat(filepath.Join(e.workspace, "b.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("b.txt is still there: %v", err)
	}

	first := c.Session().Messages[users[0]].Content
	res, err = c.Rewind(ctx, users[0], agent.RewindBoth, false)
	if err != nil {
		t.Fatal(err)
	}
	if readWS(t, e, "a.txt") != "v0\n" || res.Draft != first || len(c.Session().Messages) != 0 {
		t.Fatalf("rewind to the first message: a.txt %q, %+v, messages %+v", readWS(t, e, "a.txt"), res, c.Session().Messages)
	}
	store, _ := agent.NewSessionStore(e.layout.SessionsDir())
	if saved, err := store.Load(c.Session().ID); err != nil || len(saved.Messages) != 0 {
		t.Fatalf("the rewound conversation was not saved: %v", err)
	}
	if sessions := fe.eventsOf(agent.EventSession); len(sessions) == 0 {
		t.Fatal("the front end was not told the transcript changed")
	}
}

// A file changed outside the agent since its last change is a conflict:
// the rewind refuses, naming it, and writes nothing; with force it goes.
func TestRewindRefusesAConflictWithoutForce(t *testing.T) {
	t.Parallel()
	fe := &recorder{approve: agent.ApproveOnce}
	e, c := echoCore(t, fe)
	users := threeEdits(t, e, c)
	ctx := context.Background()
	writeWS(t, e, "a.txt", "the user's own edit\n")

	plan, err := c.PlanRewind(ctx, users[0])
	if err != nil || len(plan.Conflicts) != 1 || plan.Conflicts[0] != "a.txt" {
		t.Fatalf("plan %+v %v", plan, err)
	}
	n := len(c.Session().Messages)
	_, err = c.Rewind(ctx, users[0], agent.RewindBoth, false)
	if !errors.Is(err, agent.ErrRewindConflict) || !strings.Contains(err.Error(), "a.txt") {
		t.Fatalf("rewind over a conflict: %v", err)
	}
	if readWS(t, e, "a.txt") != "the user's own edit\n" || readWS(t, e, "b.txt") != "new file\n" || len(c.Session().Messages) != n {
		t.Fatal("a refused rewind changed something")
	}
	if _, err := c.Rewind(ctx, users[0], agent.RewindBoth, true); err != nil {
		t.Fatal(err)
	}
	if readWS(t, e, "a.txt") != "v0\n" {
		t.Fatalf("forced rewind: a.txt %q", readWS(t, e, "a.txt"))
	}
}

// The /rewind command lists the messages with what each restores and
// rewinds to one.
func TestRewindCommand(t *testing.T) {
	t.Parallel()
	fe := &recorder{approve: agent.ApproveOnce}
	e, c := echoCore(t, fe)
	users := threeEdits(t, e, c)
	ctx := context.Background()
	if err := c.Send(ctx, `call run_command {"command":"true"}`); err != nil {
		t.Fatal(err)
	}
	res, err := c.Exec(ctx, "/rewind")
	if err != nil || res.Kind != agent.CommandRewinds || len(res.Rewinds) != 4 || !strings.Contains(res.Text, "restores a.txt, b.txt") {
		t.Fatalf("/rewind: %+v %v", res, err)
	}
	if u := res.Rewinds[0].Plan.Untracked; len(u) != 1 || u[0] != "run_command `true` ran after this message: what it changed is not tracked" {
		t.Fatalf("untracked %q", u)
	}
	res, err = c.Exec(ctx, "/rewind "+strconv.Itoa(users[2])+" code")
	if err != nil || res.Kind != agent.CommandRewound || res.Rewound == nil {
		t.Fatalf("/rewind n code: %+v %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(e.workspace, "b.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("b.txt was not removed")
	}
	if _, err := c.Exec(ctx, "/rewind 1"); err == nil {
		t.Fatal("rewound to a message that is not the user's")
	}
}

// The todo list the model sets is shown as it changes and comes back with
// the chat when it is opened again.
func TestTodoListSurvivesAReload(t *testing.T) {
	t.Parallel()
	fe := &recorder{}
	_, c := echoCore(t, fe)
	ctx := context.Background()
	if err := c.Send(ctx, `call todo_write {"todos":[{"content":"Read the code","status":"completed"},{"content":"Fix it","status":"in_progress","activeForm":"Fixing it"}]}`); err != nil {
		t.Fatal(err)
	}
	if len(fe.approved) != 0 {
		t.Fatal("the todo list asked for approval")
	}
	evs := fe.eventsOf(agent.EventTodo)
	if len(evs) != 1 || len(evs[0].Todos) != 2 || evs[0].Todos[1].Status != "in_progress" {
		t.Fatalf("todo events %+v", evs)
	}
	id := c.Session().ID
	if err := c.NewSession(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if err := c.LoadSession(ctx, id); err != nil {
		t.Fatal(err)
	}
	evs = fe.eventsOf(agent.EventTodo)
	if len(evs) != 2 || evs[1].SessionID != id || len(evs[1].Todos) != 2 || evs[1].Todos[0].Content != "Read the code" {
		t.Fatalf("todo events after the reload %+v", evs)
	}
	if s := c.Session(); len(s.Todos) != 2 {
		t.Fatalf("session todos %+v", s.Todos)
	}
}

// A compaction keeps every message, so the journal's indexes stay those of
// the messages; rewinding to before what a compaction summarised forgets
// the compaction with the messages.
func TestCompactionKeepsRewindIndexes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.mockProvider(t, "mock", "c:1,2,3;end:3")
	c := e.open(t, &recorder{})
	ctx := context.Background()
	c.SetModel(ctx, "plugin/mock/mock/m1", "") // context window: 1000 tokens
	long := strings.Repeat("word ", 700)       // ~875 tokens: each turn compacts the ones before
	for range 3 {
		if err := c.Send(ctx, long); err != nil {
			t.Fatal(err)
		}
	}
	s := c.Session()
	if len(s.Messages) != 6 || s.RewindBase != 0 || s.Compacted == nil || s.Compacted.Upto != 4 {
		t.Fatalf("%d messages, rewind base %d, compaction %+v; want 6, 0, up to 4", len(s.Messages), s.RewindBase, s.Compacted)
	}
	if p, err := c.PlanRewind(ctx, 4); err != nil || p.DropsMessages != 2 {
		t.Fatalf("rewind to the last message: %+v %v", p, err)
	}
	p, err := c.PlanRewind(ctx, 2)
	if err != nil || p.DropsMessages != 4 {
		t.Fatalf("rewind to the second message: %+v %v", p, err)
	}
	if _, err := c.Rewind(ctx, 2, agent.RewindConversation, true); err != nil {
		t.Fatal(err)
	}
	if s := c.Session(); len(s.Messages) != 2 || s.Compacted != nil {
		t.Fatalf("after the rewind: %d messages, compaction %+v", len(s.Messages), s.Compacted)
	}
}
