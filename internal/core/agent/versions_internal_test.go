package agent

import (
	"errors"
	"reflect"
	"testing"

	"github.com/reasonix/reasonix-desktop/protocol"
)

func msgs(pairs ...string) []protocol.ProviderMessage {
	var out []protocol.ProviderMessage
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, protocol.ProviderMessage{Role: protocol.MessageRole(pairs[i]), Content: pairs[i+1]})
	}
	return out
}

const u, a = string(protocol.RoleUser), string(protocol.RoleAssistant)

// The session side of versions: what Regenerate stashes and what
// ShowVersion brings back, with notes and stale groups.
func TestStashAndShowVersions(t *testing.T) {
	t.Parallel()
	type step struct {
		op     string // "stash", "edit <text>", "answer <text>", "show <i>"
		arg    int
		text   string
		err    error
		wantMs []string // the assistant contents after the step
		shown  int
		total  int
		wantQ  string // the last user message after the step ("" unchecked)
	}
	for _, tc := range []struct {
		name  string
		start *Session
		steps []step
	}{
		{"no message", &Session{}, []step{{op: "stash", err: ErrNothingToRegenerate}}},
		{"unsent message is Retry's", &Session{Messages: msgs(u, "q", a, "r1"),
			Notes: []Note{{After: 2, Kind: NoteFailed, Input: "next"}}}, []step{{op: "stash", err: ErrNothingToRegenerate}}},
		{"two answers and back", &Session{Messages: msgs(u, "q0", a, "r0", u, "q", a, "r1"),
			Notes: []Note{{After: 2, Kind: NoteUsage}, {After: 4, Kind: NoteUsage}}}, []step{
			{op: "stash", wantMs: []string{"r0"}, shown: 1, total: 2},
			{op: "answer", text: "r2", wantMs: []string{"r0", "r2"}, shown: 1, total: 2},
			{op: "show", arg: 0, wantMs: []string{"r0", "r1"}, shown: 0, total: 2},
			{op: "show", arg: 2, err: ErrNoVersion, wantMs: []string{"r0", "r1"}, shown: 0, total: 2},
			{op: "show", arg: 1, wantMs: []string{"r0", "r2"}, shown: 1, total: 2},
			{op: "stash", wantMs: []string{"r0"}, shown: 2, total: 3},
			{op: "answer", text: "r3", wantMs: []string{"r0", "r3"}, shown: 2, total: 3},
			{op: "show", arg: 0, wantMs: []string{"r0", "r1"}, shown: 0, total: 3},
		}},
		{"edits keep each answer's question", &Session{Messages: msgs(u, "q0", a, "r0", u, "q", a, "r1")}, []step{
			{op: "edit", text: "q edited", wantMs: []string{"r0"}, shown: 1, total: 2, wantQ: "q edited"},
			{op: "answer", text: "r2", wantMs: []string{"r0", "r2"}, shown: 1, total: 2, wantQ: "q edited"},
			{op: "show", arg: 0, wantMs: []string{"r0", "r1"}, shown: 0, total: 2, wantQ: "q"},
			{op: "stash", wantMs: []string{"r0"}, shown: 2, total: 3, wantQ: "q"}, // Regenerate answers the question shown
			{op: "answer", text: "r3", wantMs: []string{"r0", "r3"}, shown: 2, total: 3, wantQ: "q"},
			{op: "show", arg: 1, wantMs: []string{"r0", "r2"}, shown: 1, total: 3, wantQ: "q edited"},
			{op: "edit", text: "q again", wantMs: []string{"r0"}, shown: 3, total: 4, wantQ: "q again"},
			{op: "answer", text: "r4", wantMs: []string{"r0", "r4"}, shown: 3, total: 4, wantQ: "q again"},
			{op: "show", arg: 2, wantMs: []string{"r0", "r3"}, shown: 2, total: 4, wantQ: "q"},
		}},
		{"a stale group is not applied", &Session{Messages: msgs(u, "other", a, "r1"),
			ReplyVersions: []ReplyVersions{{User: 0, Input: "q", Shown: 0, Versions: []ReplyVersion{{}, {Messages: msgs(a, "x")}}}}}, []step{
			{op: "show", arg: 1, err: ErrNoVersion, wantMs: []string{"r1"}},
			{op: "stash", wantMs: nil, shown: 1, total: 2},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.start
			for i, st := range tc.steps {
				var err error
				switch st.op {
				case "stash":
					_, err = s.stashReply(nil)
				case "edit":
					_, err = s.stashReply(&st.text)
				case "answer":
					s.Messages = append(s.Messages, protocol.ProviderMessage{Role: protocol.RoleAssistant, Content: st.text})
					s.Notes = append(s.Notes, Note{After: len(s.Messages), Kind: NoteUsage})
				case "show":
					err = s.showVersion(st.arg)
				}
				if (err == nil) != (st.err == nil) || (err != nil && !errors.Is(err, st.err)) {
					t.Fatalf("step %d %s: error %v, want %v", i, st.op, err, st.err)
				}
				if st.err != nil && st.wantMs == nil {
					continue
				}
				var got []string
				for _, m := range s.Messages {
					if m.Role == protocol.RoleAssistant {
						got = append(got, m.Content)
					}
				}
				if !reflect.DeepEqual(got, st.wantMs) {
					t.Fatalf("step %d %s: answers %q, want %q", i, st.op, got, st.wantMs)
				}
				for _, n := range s.Notes {
					if n.After > len(s.Messages) {
						t.Fatalf("step %d: a note after the messages: %+v (%d messages)", i, n, len(s.Messages))
					}
				}
				if shown, total := s.LastReplyVersion(); shown != st.shown || total != st.total {
					t.Fatalf("step %d %s: version %d/%d, want %d/%d", i, st.op, shown, total, st.shown, st.total)
				}
				if q := s.Messages[s.lastUser()].Content; st.wantQ != "" && q != st.wantQ {
					t.Fatalf("step %d %s: the question is %q, want %q", i, st.op, q, st.wantQ)
				}
			}
		})
	}
}

// A snapshot taken before a change keeps its versions (copy on write): the
// front end reads Session() snapshots while the core edits.
func TestVersionEditsDoNotReachSnapshots(t *testing.T) {
	t.Parallel()
	s := &Session{Messages: msgs(u, "q", a, "r1")}
	if _, err := s.stashReply(nil); err != nil {
		t.Fatal(err)
	}
	s.Messages = append(s.Messages, protocol.ProviderMessage{Role: protocol.RoleAssistant, Content: "r2"})
	snap := *s
	if err := s.showVersion(0); err != nil {
		t.Fatal(err)
	}
	if snap.ReplyVersions[0].Shown != 1 || len(snap.ReplyVersions[0].Versions[1].Messages) != 0 {
		t.Fatalf("the snapshot changed: %+v", snap.ReplyVersions)
	}
}
