package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/core/tools/todo"
	"github.com/reasonix/reasonix-desktop/internal/foundation/textdiff"
)

// approveWith asks req on a terminal answering answer and returns the
// decision and what was printed.
func approveWith(t *testing.T, opts Options, answer string, req agent.ApprovalRequest) (agent.Approval, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	opts.Out, opts.Err, opts.In = &out, &errb, strings.NewReader(answer)
	f := New(opts)
	defer f.Close()
	a := f.Approve(context.Background(), req)
	return a, out.String(), errb.String()
}

func oneLineEdit() []textdiff.File {
	return []textdiff.File{textdiff.Compute("notes.txt", "notes.txt", "one\ntwo\nthree\n", "one\n2\nthree\n", textdiff.Options{})}
}

// The approval of a file change shows the diff it covers before the
// question, and a refusal still says what was not written.
func TestApprovalShowsTheDiff(t *testing.T) {
	req := agent.ApprovalRequest{CallID: "c1", Tool: "edit_file", Arguments: `{"path":"notes.txt"}`, Diff: oneLineEdit()}
	a, _, stderr := approveWith(t, Options{}, "n\n", req)
	if a != agent.ApproveDeny {
		t.Fatalf("answer n gave %s", a)
	}
	for _, want := range []string{"--- a/notes.txt", "+++ b/notes.txt", "@@ -1,3 +1,3 @@", "    -two", "    +2", "[o]nce / [s]ession / [a]lways / [N]o: "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the question lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Index(stderr, "+2") > strings.Index(stderr, "[o]nce") {
		t.Errorf("the diff comes after the question:\n%s", stderr)
	}
	if strings.Contains(stderr, "\x1b") {
		t.Errorf("colour without a terminal: %q", stderr)
	}
	_, _, stderr = approveWith(t, Options{NonInteractive: true}, "", req)
	if !strings.Contains(stderr, "declined (not interactive)") || !strings.Contains(stderr, "+2") {
		t.Errorf("a refusal does not show what was not written:\n%s", stderr)
	}
}

// On a terminal the diff is coloured as git colours it; the file's own
// text can never colour it (its escapes are printed escaped).
func TestDiffColourIsOursOnly(t *testing.T) {
	files := []textdiff.File{textdiff.Compute("a.txt", "a.txt", "old\n", "\x1b[31mnew\x1b]0;pwn\x07\n", textdiff.Options{})}
	got := diffText(files, true)
	for _, want := range []string{ansiGreen + `+\x1b[31mnew\x1b]0;pwn\x07` + ansiReset, ansiRed + "-old" + ansiReset, ansiCyan + "@@"} {
		if !strings.Contains(got, want) {
			t.Errorf("diff lacks %q:\n%q", want, got)
		}
	}
	if plain := diffText(files, false); strings.Contains(plain, "\x1b") {
		t.Errorf("uncoloured diff holds an escape: %q", plain)
	}
}

// A big diff is cut after diffShown lines with a count of the rest;
// --json carries all of it.
func TestBigDiffIsCollapsed(t *testing.T) {
	var before, after strings.Builder
	for i := range 200 {
		fmt.Fprintf(&before, "line %d\n", i)
		fmt.Fprintf(&after, "LINE %d\n", i)
	}
	files := []textdiff.File{textdiff.Compute("big.txt", "big.txt", before.String(), after.String(), textdiff.Options{})}
	got := diffText(files, false)
	if n := strings.Count(got, "\n"); n != diffShown+1 {
		t.Errorf("%d lines printed, want %d and the count", n, diffShown)
	}
	whole := strings.Count(textdiff.Unified(files), "\n")
	if want := fmt.Sprintf("… %d more diff lines", whole-diffShown); !strings.Contains(got, want) {
		t.Errorf("no %q:\n%s", want, got)
	}
	req := agent.ApprovalRequest{CallID: "c1", Tool: "write_file", Arguments: `{}`, Diff: files}
	_, stdout, _ := approveWith(t, Options{JSON: true}, "n\n", req)
	var ev struct {
		Kind     string
		Approval struct{ Diff []textdiff.File }
	}
	if err := json.Unmarshal([]byte(strings.SplitN(stdout, "\n", 2)[0]), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Kind != KindApprovalRequest || len(ev.Approval.Diff) != 1 || ev.Approval.Diff[0].Added != 200 || ev.Approval.Diff[0].Removed != 200 {
		t.Fatalf("approval_request does not carry the whole diff: %.300s", stdout)
	}
}

// A call that no approval asked about (a session answer covered it)
// shows its diff on its done card; one whose approval showed it does not
// print it twice.
func TestDoneCardShowsAnUnaskedDiff(t *testing.T) {
	call := func(id string) agent.Event {
		return agent.Event{Kind: agent.EventToolCall, Call: &agent.ToolCall{ID: id, Name: "edit_file", Arguments: "{}",
			State: agent.ToolDone, Result: "edited notes.txt", Diff: oneLineEdit()}}
	}
	stdout, _ := run(t, Options{}, call("c1"), done)
	if !strings.Contains(stdout, "edited notes.txt") || !strings.Contains(stdout, "+2") {
		t.Fatalf("the done card lacks the diff:\n%s", stdout)
	}
	var out, errb bytes.Buffer
	f := New(Options{Out: &out, Err: &errb, In: strings.NewReader("o\n")})
	defer f.Close()
	f.Approve(context.Background(), agent.ApprovalRequest{CallID: "c2", Tool: "edit_file", Diff: oneLineEdit()})
	f.Emit(call("c2"))
	if strings.Count(out.String()+errb.String(), "+2") != 1 {
		t.Fatalf("the diff was printed other than once:\n%s\n%s", out.String(), errb.String())
	}
}

// A command's output streams: each report carries the whole tail so far,
// and the terminal prints each line once, as it completes, also when the
// tail's window slid; the done card then adds only what did not stream.
func TestStreamedOutputPrintsEachLineOnce(t *testing.T) {
	c := func(state agent.ToolState, result string) agent.Event {
		return agent.Event{Kind: agent.EventToolCall, Call: &agent.ToolCall{ID: "c1", Name: "run_command", State: state, Result: result}}
	}
	p := func(tail string) agent.Event {
		return agent.Event{Kind: agent.EventToolProgress, Call: &agent.ToolCall{ID: "c1", Name: "run_command",
			Progress: &agent.ToolProgress{Output: tail}}}
	}
	stdout, _ := run(t, Options{}, c(agent.ToolRunning, ""),
		p("build "), p("build step 1\nbuild st"), p("build step 1\nbuild step 2\n"),
		p("step 2\nbuild step 3\nlast"), // the window slid past the start
		c(agent.ToolDone, "build step 1\nbuild step 2\nbuild step 3\nlast\n[exit 0]"), done)
	want := "[tool] run_command  — running\n" +
		"  │ build step 1\n  │ build step 2\n  │ build step 3\n  │ last\n" +
		"[tool] run_command  — done\n    [exit 0]\n"
	if stdout != want {
		t.Fatalf("printed\n%s\nwant\n%s", stdout, want)
	}
}

func TestAddedFindsTheOverlap(t *testing.T) {
	for _, tc := range []struct{ prev, cur, want string }{
		{"", "abc", "abc"},
		{"abc", "abcdef", "def"},
		{"abcdef", "cdefgh", "gh"},
		{"aaaa", "aaaab", "b"},
		{"xyz", "123", "123"}, // slid past everything
		{"abab", "ababab", "ab"},
	} {
		if got := added(tc.prev, tc.cur); got != tc.want {
			t.Errorf("added(%q, %q) = %q, want %q", tc.prev, tc.cur, got, tc.want)
		}
	}
}

// The todo list is printed as a checklist whenever it changes, and
// --json carries it whole.
func TestTodoList(t *testing.T) {
	items := []todo.Item{{Content: "Read the parser", Status: "completed"},
		{Content: "Fix the bug", Status: "in_progress", ActiveForm: "Fixing the bug"},
		{Content: "Run the tests", Status: "pending"}}
	ev := agent.Event{Kind: agent.EventTodo, SessionID: "s1", Todos: items}
	stdout, _ := run(t, Options{}, ev)
	want := "[todo] 1/3 done\n    [x] Read the parser\n    [>] Fixing the bug\n    [ ] Run the tests\n"
	if stdout != want {
		t.Fatalf("printed\n%s\nwant\n%s", stdout, want)
	}
	stdout, _ = run(t, Options{JSON: true}, ev, agent.Event{Kind: agent.EventTodo, SessionID: "s1"})
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 2 || lines[0] != `{"kind":"todo","sessionId":"s1","todos":[{"content":"Read the parser","status":"completed"},`+
		`{"content":"Fix the bug","status":"in_progress","activeForm":"Fixing the bug"},{"content":"Run the tests","status":"pending"}]}` ||
		lines[1] != `{"kind":"todo","sessionId":"s1","todos":[]}` {
		t.Fatalf("JSON:\n%s", stdout)
	}
}

// A move that changes nothing inside the file says so: its unified diff
// alone is two names.
func TestMoveDiffSaysTheContentIsUnchanged(t *testing.T) {
	files := []textdiff.File{textdiff.Compute("from.txt", "to/dest.txt", "same\n", "same\n", textdiff.Options{})}
	got := diffText(files, false)
	want := "    --- a/from.txt\n    +++ b/to/dest.txt\n    (moved; the content is unchanged)\n"
	if got != want {
		t.Fatalf("printed\n%q\nwant\n%q", got, want)
	}
}

// /rewind <n> prints what the core did; a rewind of the conversation
// gives the message back on the terminal (there is no composer), a
// code-only one does not, as the message stays in the chat.
func TestRewoundGivesTheMessageBackOnlyWithTheConversation(t *testing.T) {
	for _, tc := range []struct {
		text, want string
		back       bool
	}{
		{"rewound to message 0 (both); restored a.txt; your message is back in the composer", "rewound to message 0 (both); restored a.txt\n", true},
		{"rewound to message 0 (code); restored a.txt", "rewound to message 0 (code); restored a.txt\n", false},
	} {
		var out bytes.Buffer
		f := New(Options{Out: &out, Err: &out})
		res := agent.CommandResult{Kind: agent.CommandRewound, Text: tc.text,
			Rewound: &agent.RewindResult{Restored: []string{"a.txt"}, Draft: "fix the \x1b[2Jparser"}}
		if err := f.show(context.Background(), nil, "/rewind 0", res); err != nil {
			t.Fatal(err)
		}
		want := tc.want
		if tc.back {
			want += `your message is back: fix the \x1b[2Jparser` + "\n"
		}
		if out.String() != want {
			t.Errorf("printed\n%q\nwant\n%q", out.String(), want)
		}
	}
}
