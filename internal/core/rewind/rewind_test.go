package rewind

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// agent plays the file tools: it makes a change on disk, then journals it
// under the message whose turn made it, as the core does after Apply.
type agent struct {
	t  *testing.T
	ws string
	j  *Journal
}

func newAgent(t *testing.T) *agent {
	t.Helper()
	j, err := Open(filepath.Join(t.TempDir(), "s1.changes"))
	if err != nil {
		t.Fatal(err)
	}
	return &agent{t: t, ws: t.TempDir(), j: j}
}

func (a *agent) read(rel string) []byte {
	b, err := os.ReadFile(filepath.Join(a.ws, filepath.FromSlash(rel)))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		a.t.Fatal(err)
	}
	return b
}

func (a *agent) put(rel string, data []byte) {
	p := filepath.Join(a.ws, filepath.FromSlash(rel))
	if data == nil {
		if err := os.Remove(p); err != nil {
			a.t.Fatal(err)
		}
		return
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		a.t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		a.t.Fatal(err)
	}
}

// write sets rel to data (nil deletes it) in msg's turn.
func (a *agent) write(msg int, rel, data string, isNil bool) {
	a.t.Helper()
	var after []byte
	if !isNil {
		after = []byte(data)
	}
	before := a.read(rel)
	a.put(rel, after)
	if err := a.j.Record(Entry{MessageIndex: msg, CallID: "c", Tool: "write_file", Changes: []Change{{Rel: rel, Before: before, After: after}}}); err != nil {
		a.t.Fatal(err)
	}
}

func (a *agent) move(msg int, from, to string) {
	a.t.Helper()
	before := a.read(from)
	a.put(to, before)
	a.put(from, nil)
	if err := a.j.Record(Entry{MessageIndex: msg, CallID: "m", Tool: "move_file", Changes: []Change{{Rel: from, NewRel: to, Before: before}}}); err != nil {
		a.t.Fatal(err)
	}
}

func (a *agent) rewind(msg int, force bool) ([]string, error) {
	a.t.Helper()
	p, err := a.j.Plan(a.ws, msg)
	if err != nil {
		a.t.Fatal(err)
	}
	return a.j.Apply(a.ws, p, force)
}

func (a *agent) want(rel string, content string, absent bool) {
	a.t.Helper()
	got := a.read(rel)
	if absent {
		if got != nil {
			a.t.Fatalf("%s: want absent, got %q", rel, got)
		}
		return
	}
	if got == nil || string(got) != content {
		a.t.Fatalf("%s: want %q, got %q (nil=%v)", rel, content, got, got == nil)
	}
}

func TestRewindRestoresFiles(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(a *agent)
	}{
		{"create, edit, edit, rewind to the first message", func(a *agent) {
			a.put("keep.txt", []byte("mine\n"))
			a.write(0, "new.txt", "v1", false)
			a.write(2, "new.txt", "v2", false)
			a.write(2, "keep.txt", "agent's\n", false)
			a.write(4, "new.txt", "v3", false)
			p, err := a.j.Plan(a.ws, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Files) != 2 || p.Files[0].Rel != "keep.txt" || p.Files[1].Rel != "new.txt" ||
				p.Files[1].Restored != nil || string(p.Files[1].Current) != "v3" || string(p.Files[0].Restored) != "mine\n" {
				t.Fatalf("plan %+v", p)
			}
			got, err := a.j.Apply(a.ws, p, false)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, []string{"keep.txt", "new.txt"}) {
				t.Fatalf("restored %v", got)
			}
			a.want("new.txt", "", true)
			a.want("keep.txt", "mine\n", false)
		}},
		{"rewind to a middle message keeps the earlier turns' work", func(a *agent) {
			a.write(0, "f.txt", "v1", false)
			a.write(2, "f.txt", "v2", false)
			a.write(4, "f.txt", "v3", false)
			if _, err := a.rewind(2, false); err != nil {
				t.Fatal(err)
			}
			a.want("f.txt", "v1", false)
			// The turns rewound are forgotten; the first is still there.
			p, _ := a.j.Plan(a.ws, 0)
			if len(p.Files) != 1 || p.Files[0].Restored != nil {
				t.Fatalf("left %+v", p)
			}
		}},
		{"move then rewind", func(a *agent) {
			a.put("src.go", []byte("package x\n"))
			a.move(1, "src.go", "sub/dir/dst.go")
			p, err := a.j.Plan(a.ws, 1)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Files) != 2 || p.Files[0].Rel != "src.go" || p.Files[1].Rel != "sub/dir/dst.go" || p.Files[1].Restored != nil {
				t.Fatalf("plan %+v", p)
			}
			if _, err := a.j.Apply(a.ws, p, false); err != nil {
				t.Fatal(err)
			}
			a.want("src.go", "package x\n", false)
			a.want("sub/dir/dst.go", "", true)
		}},
		{"edit after a move follows the destination", func(a *agent) {
			a.put("a.txt", []byte("1"))
			a.move(1, "a.txt", "b.txt")
			a.write(3, "b.txt", "2", false)
			if _, err := a.rewind(1, false); err != nil {
				t.Fatal(err)
			}
			a.want("a.txt", "1", false)
			a.want("b.txt", "", true)
		}},
		{"delete then rewind", func(a *agent) {
			a.put("gone.txt", []byte("was here"))
			a.write(1, "gone.txt", "", true)
			if _, err := a.rewind(1, false); err != nil {
				t.Fatal(err)
			}
			a.want("gone.txt", "was here", false)
		}},
		{"an empty file is not an absent one", func(a *agent) {
			a.put("empty.txt", []byte{})
			a.write(1, "empty.txt", "x", false)
			if _, err := a.rewind(1, false); err != nil {
				t.Fatal(err)
			}
			a.want("empty.txt", "", false)
		}},
		{"a regenerated answer's line is the one rewound", func(a *agent) {
			// Message 2 answered, then 4; then 2's answer regenerated (the
			// conversation went back, the journal was not rewound), then 4 again.
			a.write(0, "a.txt", "v0", false)
			a.write(2, "a.txt", "v1", false)
			a.write(4, "a.txt", "v2", false)
			a.write(4, "old4.txt", "only in the old line", false)
			a.write(2, "a.txt", "v3", false)
			a.write(4, "b.txt", "new 4", false)
			p, err := a.j.Plan(a.ws, 4)
			if err != nil {
				t.Fatal(err)
			}
			// Only the present line's message 4: a.txt keeps the regenerated
			// 2's v3, old4.txt is not this line's to remove.
			if len(p.Files) != 1 || p.Files[0].Rel != "b.txt" {
				t.Fatalf("plan %+v", p)
			}
			// Rewound to 2: back to the state the present 2 began from.
			if p, _ = a.j.Plan(a.ws, 2); len(p.Files) != 2 || p.Files[0].Rel != "a.txt" || string(p.Files[0].Restored) != "v2" {
				t.Fatalf("plan %+v", p)
			}
			// Rewound to 0: both lines' work is after it.
			if _, err := a.rewind(0, false); err != nil {
				t.Fatal(err)
			}
			a.want("a.txt", "", true)
			a.want("old4.txt", "", true)
			a.want("b.txt", "", true)
		}},
		{"a step back to a later message keeps the earlier turn shared", func(a *agent) {
			a.write(2, "a.txt", "v1", false)
			a.write(4, "a.txt", "v2", false)
			a.write(6, "a.txt", "v3", false)
			a.write(4, "a.txt", "v4", false) // 4 edited and resent
			if _, err := a.rewind(2, false); err != nil {
				t.Fatal(err)
			}
			a.want("a.txt", "", true)
		}},
		{"created then deleted by the agent is nothing to do", func(a *agent) {
			a.write(1, "tmp.txt", "x", false)
			a.write(1, "tmp.txt", "", true)
			p, err := a.j.Plan(a.ws, 1)
			if err != nil || len(p.Files) != 0 || len(p.Conflicts) != 0 {
				t.Fatalf("plan %+v, %v", p, err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(newAgent(t)) })
	}
}

func TestRewindKeepsTheFilesMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no permission bits on Windows")
	}
	a := newAgent(t)
	a.put("run.sh", []byte("#!/bin/sh\n"))
	if err := os.Chmod(filepath.Join(a.ws, "run.sh"), 0o750); err != nil {
		t.Fatal(err)
	}
	a.write(1, "run.sh", "#!/bin/sh\nexit 1\n", false)
	if _, err := a.rewind(1, false); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(a.ws, "run.sh"))
	if err != nil || st.Mode().Perm() != 0o750 {
		t.Fatalf("mode %v, %v", st.Mode(), err)
	}
}

func TestConflictRefusedThenForced(t *testing.T) {
	a := newAgent(t)
	a.put("x.txt", []byte("orig"))
	a.write(1, "x.txt", "agent", false)
	a.put("x.txt", []byte("user edited")) // outside the agent
	p, err := a.j.Plan(a.ws, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Conflicts, []string{"x.txt"}) || string(p.Files[0].Current) != "user edited" {
		t.Fatalf("plan %+v", p)
	}
	_, err = a.j.Apply(a.ws, p, false)
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "x.txt") {
		t.Fatalf("want a refusal naming x.txt, got %v", err)
	}
	a.want("x.txt", "user edited", false)
	if _, err := a.j.Apply(a.ws, p, true); err != nil {
		t.Fatal(err)
	}
	a.want("x.txt", "orig", false)
}

func TestForceCoversOnlyTheConflictsShown(t *testing.T) {
	a := newAgent(t)
	a.write(1, "x.txt", "agent", false)
	p, err := a.j.Plan(a.ws, 1)
	if err != nil || len(p.Conflicts) != 0 {
		t.Fatalf("plan %+v, %v", p, err)
	}
	a.put("x.txt", []byte("user, after the plan was shown"))
	if _, err := a.j.Apply(a.ws, p, true); !errors.Is(err, ErrConflict) {
		t.Fatalf("want a refusal, got %v", err)
	}
	a.want("x.txt", "user, after the plan was shown", false)
}

func TestUntrackedNotesOfTheRewoundTurns(t *testing.T) {
	a := newAgent(t)
	for _, u := range []struct {
		msg  int
		note string
	}{{0, "make ran in turn 0"}, {2, "make test ran"}, {2, "make test ran"}, {4, "rm -rf x ran"}} {
		if err := a.j.Untracked(u.msg, u.note); err != nil {
			t.Fatal(err)
		}
	}
	p, err := a.j.Plan(a.ws, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Untracked, []string{"make test ran", "rm -rf x ran"}) {
		t.Fatalf("untracked %q", p.Untracked)
	}
	if err := a.j.Truncate(2); err != nil {
		t.Fatal(err)
	}
	if p, _ := a.j.Plan(a.ws, 0); !slices.Equal(p.Untracked, []string{"make ran in turn 0"}) {
		t.Fatalf("after truncate %q", p.Untracked)
	}
}

func TestTruncateForgetsWithoutTouchingFilesAndFreesBlobs(t *testing.T) {
	a := newAgent(t)
	a.write(1, "f.txt", "one", false)
	a.write(3, "f.txt", "two", false)
	if err := a.j.Truncate(3); err != nil {
		t.Fatal(err)
	}
	a.want("f.txt", "two", false)
	if n := blobCount(t, a.j); n != 1 { // "one" only: "two" is named by no entry now
		t.Fatalf("%d blobs", n)
	}
	// The agent's last known content is now "one": the file reads as changed outside it.
	p, err := a.j.Plan(a.ws, 0)
	if err != nil || !slices.Equal(p.Conflicts, []string{"f.txt"}) {
		t.Fatalf("plan %+v, %v", p, err)
	}
}

func blobCount(t *testing.T, j *Journal) int {
	t.Helper()
	es, err := os.ReadDir(filepath.Join(j.dir, blobsName))
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}

func TestIdenticalContentIsStoredOnce(t *testing.T) {
	a := newAgent(t)
	big := strings.Repeat("same bytes\n", 1000)
	a.write(1, "a.txt", big, false)
	blob := filepath.Join(a.j.dir, blobsName, hashOf([]byte(big)))
	st1, err := os.Stat(blob)
	if err != nil {
		t.Fatal(err)
	}
	a.write(1, "b.txt", big, false)
	a.write(3, "a.txt", "", true)
	a.write(5, "a.txt", big, false)
	if n := blobCount(t, a.j); n != 1 {
		t.Fatalf("%d blobs for one content", n)
	}
	// Not written again either: a rewrite would be a new file.
	if st2, err := os.Stat(blob); err != nil || !os.SameFile(st1, st2) {
		t.Fatalf("the blob was written again (%v)", err)
	}
}

func TestJournalSurvivesReopen(t *testing.T) {
	a := newAgent(t)
	a.write(1, "f.txt", "v1", false)
	a.write(3, "f.txt", "v2", false)
	j2, err := Open(a.j.dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := j2.Plan(a.ws, 1)
	if err != nil || len(p.Files) != 1 || p.Files[0].Restored != nil || len(p.Conflicts) != 0 {
		t.Fatalf("plan %+v, %v", p, err)
	}
}

func TestTornLastLineIsDroppedAndAppendsGoOn(t *testing.T) {
	for _, cut := range []int{1, 10, -1} { // bytes kept of the last line; -1: all but its newline
		a := newAgent(t)
		a.write(1, "f.txt", "v1", false)
		a.write(3, "f.txt", "v2", false)
		idx := a.j.indexPath()
		data, err := os.ReadFile(idx)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		keep := len(data) - len(lines[1]) + cut
		if cut < 0 {
			keep = len(data) - 1
		}
		if err := os.WriteFile(idx, data[:keep], 0o600); err != nil {
			t.Fatal(err)
		}
		j2, err := Open(a.j.dir)
		if err != nil {
			t.Fatalf("cut %d: %v", cut, err)
		}
		wantRecs := 1
		if cut < 0 {
			wantRecs = 2 // whole but for its newline: kept
		}
		if len(j2.recs) != wantRecs {
			t.Fatalf("cut %d: %d records", cut, len(j2.recs))
		}
		if err := j2.Record(Entry{MessageIndex: 5, Changes: []Change{{Rel: "g.txt", After: []byte("g")}}}); err != nil {
			t.Fatal(err)
		}
		j3, err := Open(a.j.dir)
		if err != nil || len(j3.recs) != wantRecs+1 {
			t.Fatalf("cut %d: after an append: %v, %d records", cut, err, len(j3.recs))
		}
	}
}

func TestDamagedJournalIsRefused(t *testing.T) {
	hash := strings.Repeat("ab", 32)
	for name, index := range map[string]string{
		"a damaged line before the last": `{"v":1,"op":"change","msg":1,"changes":[{"rel":"a","after":"` + hash + `"}]}` + "\n" + "#garbage\n" +
			`{"v":1,"op":"untracked","msg":2,"note":"n"}` + "\n",
		"a climbing path":          `{"v":1,"op":"change","msg":1,"changes":[{"rel":"../outside.txt","after":"` + hash + `"}]}` + "\n",
		"a climbing path mid-way":  `{"v":1,"op":"change","msg":1,"changes":[{"rel":"a/../../x","after":"` + hash + `"}]}` + "\n",
		"an absolute path":         `{"v":1,"op":"change","msg":1,"changes":[{"rel":"/etc/passwd","after":"` + hash + `"}]}` + "\n",
		"a climbing move":          `{"v":1,"op":"change","msg":1,"changes":[{"rel":"a","newRel":"../b"}]}` + "\n",
		"a blob name that climbs":  `{"v":1,"op":"change","msg":1,"changes":[{"rel":"a","after":"../../etc/passwd"}]}` + "\n",
		"another version":          `{"v":2,"op":"change","msg":1}` + "\n",
		"a last line that escapes": `{"v":1,"op":"untracked","msg":0,"note":"n"}` + "\n" + `{"v":1,"op":"change","msg":1,"changes":[{"rel":"../x"}]}`,
	} {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, blobsName), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, indexName), []byte(index), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(dir); err == nil {
			t.Errorf("%s: opened", name)
		}
	}
}

func TestRecordRefusesAnEscapingPath(t *testing.T) {
	a := newAgent(t)
	for _, rel := range []string{"../x", "/abs", "a/./b", ""} {
		if err := a.j.Record(Entry{MessageIndex: 1, Changes: []Change{{Rel: rel, After: []byte("x")}}}); err == nil {
			t.Errorf("%q recorded", rel)
		}
	}
	if n := blobCount(t, a.j); n != 0 {
		t.Fatalf("%d blobs written for refused entries", n)
	}
}

func TestSymlinkOutOfTheWorkspaceIsRefused(t *testing.T) {
	a := newAgent(t)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(a.ws, "link")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	// A hand-written entry saying the agent created link/victim.txt: the
	// rewind would delete it, outside the workspace.
	victim := filepath.Join(outside, "victim.txt")
	if err := os.WriteFile(victim, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := a.j.Record(Entry{MessageIndex: 1, Changes: []Change{{Rel: "link/victim.txt", After: []byte("precious")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.j.Plan(a.ws, 1); !errors.Is(err, ErrOutsideWorkspace) {
		t.Fatalf("plan: want outside the workspace, got %v", err)
	}
	if _, err := a.j.Apply(a.ws, Plan{MessageIndex: 1}, true); !errors.Is(err, ErrOutsideWorkspace) {
		t.Fatalf("apply: want outside the workspace, got %v", err)
	}
	if b, err := os.ReadFile(victim); err != nil || string(b) != "precious" {
		t.Fatalf("victim %q, %v", b, err)
	}
}

func TestDamagedBlobIsRefused(t *testing.T) {
	a := newAgent(t)
	a.put("f.txt", []byte("original"))
	a.write(1, "f.txt", "agent", false)
	blob := filepath.Join(a.j.dir, blobsName, hashOf([]byte("original")))
	if err := os.WriteFile(blob, []byte("tampered"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := a.j.Plan(a.ws, 1); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("want damaged, got %v", err)
	}
}

func TestADirectoryWhereAFileWasIsNotRemoved(t *testing.T) {
	a := newAgent(t)
	a.write(1, "d", "file", false)
	a.put("d", nil)
	if err := os.MkdirAll(filepath.Join(a.ws, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := a.j.Plan(a.ws, 1)
	if err != nil || !slices.Equal(p.Conflicts, []string{"d"}) {
		t.Fatalf("plan %+v, %v", p, err)
	}
	if _, err := a.j.Apply(a.ws, p, true); err == nil {
		t.Fatal("removed a directory")
	}
	if st, err := os.Stat(filepath.Join(a.ws, "d")); err != nil || !st.IsDir() {
		t.Fatalf("d: %v", err)
	}
}

func TestConcurrentRecordsAllLand(t *testing.T) {
	a := newAgent(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rel := string(rune('a'+i)) + ".txt"
			if err := a.j.Record(Entry{MessageIndex: i, Changes: []Change{{Rel: rel, After: []byte(rel)}}}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	j2, err := Open(a.j.dir)
	if err != nil || len(j2.recs) != 8 {
		t.Fatalf("%v, %d records", err, len(j2.recs))
	}
}
