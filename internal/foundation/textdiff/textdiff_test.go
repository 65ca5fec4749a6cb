package textdiff_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/foundation/textdiff"
)

func numbered(n int, change map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if s, ok := change[i]; ok {
			b.WriteString(s)
			continue
		}
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String()
}

func TestUnifiedMatchesGit(t *testing.T) {
	// Each want is what `git diff --no-index` prints for the same texts
	// (the diff --git and index lines left out).
	cases := []struct {
		name             string
		oldPath, newPath string
		old, new         string
		opt              textdiff.Options
		want             string
	}{
		{
			name: "one line changed", oldPath: "x.go", newPath: "x.go",
			old: "a\nb\nc\n", new: "a\nB\nc\n",
			want: "--- a/x.go\n+++ b/x.go\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
		},
		{
			name: "appended without a final newline", oldPath: "x", newPath: "x",
			old: "a\nb\nc\nd\n", new: "a\nB\nc\nd\ne",
			want: "--- a/x\n+++ b/x\n@@ -1,4 +1,5 @@\n a\n-b\n+B\n c\n d\n+e\n\\ No newline at end of file\n",
		},
		{
			name: "last line gains its newline", oldPath: "x", newPath: "x",
			old: "a\nb", new: "a\nb\n",
			want: "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n",
		},
		{
			name: "created", newPath: "new.txt",
			old: "", new: "a\nb\n",
			want: "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n",
		},
		{
			name: "deleted", oldPath: "gone.txt",
			old: "a\nb", new: "",
			want: "--- a/gone.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n\\ No newline at end of file\n",
		},
		{
			name: "moved unchanged", oldPath: "a.txt", newPath: "dir/b.txt",
			old: "same\n", new: "same\n",
			want: "--- a/a.txt\n+++ b/dir/b.txt\n",
		},
		{
			name: "two hunks", oldPath: "n", newPath: "n",
			old: numbered(16, nil), new: numbered(16, map[int]string{3: "X\n", 14: "Y\n"}),
			want: "--- a/n\n+++ b/n\n@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+X\n 4\n 5\n 6\n" +
				"@@ -11,6 +11,6 @@\n 11\n 12\n 13\n-14\n+Y\n 15\n 16\n",
		},
		{
			name: "close changes merge into one hunk", oldPath: "n", newPath: "n",
			old: numbered(12, nil), new: numbered(12, map[int]string{3: "X\n", 9: "Y\n"}),
			want: "--- a/n\n+++ b/n\n@@ -1,12 +1,12 @@\n 1\n 2\n-3\n+X\n 4\n 5\n 6\n 7\n 8\n-9\n+Y\n 10\n 11\n 12\n",
		},
		{
			name: "no context", oldPath: "n", newPath: "n",
			old: numbered(12, nil), new: numbered(12, map[int]string{3: "X\n", 11: "Y\n"}),
			opt:  textdiff.Options{Context: -1},
			want: "--- a/n\n+++ b/n\n@@ -3 +3 @@\n-3\n+X\n@@ -11 +11 @@\n-11\n+Y\n",
		},
		{
			name: "pure insertion with no context", oldPath: "n", newPath: "n",
			old: numbered(6, nil), new: numbered(6, map[int]string{5: "new\n5\n"}),
			opt:  textdiff.Options{Context: -1},
			want: "--- a/n\n+++ b/n\n@@ -4,0 +5 @@\n+new\n",
		},
		{
			name: "CRLF kept out of the text", oldPath: "w", newPath: "w",
			old: "a\r\nb\r\nc\r\n", new: "a\r\nB\r\nc\r\n",
			want: "--- a/w\n+++ b/w\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
		},
		{
			name: "binary", oldPath: "img.png", newPath: "img.png",
			old: "\x89PNG\x00\x01", new: "\x89PNG\x00\x02",
			want: "Binary files a/img.png and b/img.png differ\n",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := textdiff.Compute(c.oldPath, c.newPath, c.old, c.new, c.opt)
			if got := f.Unified(); got != c.want {
				t.Errorf("Unified:\n%s\nwant:\n%s", got, c.want)
			}
			if !f.Binary {
				checkApplies(t, c.old, c.new, f)
			}
		})
	}
}

func TestCountsAndLineNumbers(t *testing.T) {
	f := textdiff.Compute("x", "x", "a\nb\nc\n", "a\nc\nd\ne\n", textdiff.Options{})
	if f.Added != 2 || f.Removed != 1 {
		t.Fatalf("added %d removed %d, want 2 and 1", f.Added, f.Removed)
	}
	want := []textdiff.Line{
		{Kind: textdiff.Context, Text: "a", OldLine: 1, NewLine: 1},
		{Kind: textdiff.Delete, Text: "b", OldLine: 2},
		{Kind: textdiff.Context, Text: "c", OldLine: 3, NewLine: 2},
		{Kind: textdiff.Insert, Text: "d", NewLine: 3},
		{Kind: textdiff.Insert, Text: "e", NewLine: 4},
	}
	if len(f.Hunks) != 1 || !reflect.DeepEqual(f.Hunks[0].Lines, want) {
		t.Fatalf("hunks %+v, want one with %+v", f.Hunks, want)
	}
	// The JSON the front ends and --json get uses the contract's names.
	b, err := json.Marshal(f.Hunks[0].Lines[1])
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); got != `{"kind":"delete","text":"b","oldLine":2}` {
		t.Fatalf("json %s", got)
	}
}

func TestUnchangedHasNoHunks(t *testing.T) {
	f := textdiff.Compute("x", "x", "a\nb\n", "a\nb\n", textdiff.Options{})
	if len(f.Hunks) != 0 || f.Added != 0 || f.Removed != 0 || f.Binary {
		t.Fatalf("%+v", f)
	}
	if got := textdiff.Compute("", "", "", "", textdiff.Options{}).Hunks; got != nil {
		t.Fatalf("empty: %+v", got)
	}
}

func TestMaxLinesTruncatesButCountsAll(t *testing.T) {
	old := numbered(1000, nil)
	var nb strings.Builder
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&nb, "changed %d\n", i)
	}
	f := textdiff.Compute("x", "x", old, nb.String(), textdiff.Options{MaxLines: 100})
	if !f.Truncated {
		t.Fatal("not marked truncated")
	}
	if f.Added != 1000 || f.Removed != 1000 {
		t.Fatalf("added %d removed %d, want the whole change", f.Added, f.Removed)
	}
	kept := 0
	for _, h := range f.Hunks {
		kept += len(h.Lines)
		checkHeader(t, h)
	}
	if kept != 100 {
		t.Fatalf("kept %d lines, want 100", kept)
	}
	if !strings.HasSuffix(f.Unified(), "1000 lines added and 1000 removed in all; the rest is not shown\n") {
		t.Fatalf("no truncation note:\n%s", f.Unified()[len(f.Unified())-200:])
	}
	// A diff that fits exactly is not truncated.
	g := textdiff.Compute("x", "x", "a\n", "b\n", textdiff.Options{MaxLines: 2})
	if g.Truncated || len(g.Hunks) != 1 || len(g.Hunks[0].Lines) != 2 {
		t.Fatalf("%+v", g)
	}
}

// An edit distance beyond the cost bound is split at the lines unique on
// both sides, so a large file with many scattered edits still diffs to
// just those edits.
func TestManyEditsSplitAtAnchors(t *testing.T) {
	const n = 100_000
	var ob, nb strings.Builder
	for i := range n {
		fmt.Fprintf(&ob, "line %d\n", i)
		if i%200 == 100 {
			fmt.Fprintf(&nb, "changed %d\n", i)
		} else {
			fmt.Fprintf(&nb, "line %d\n", i)
		}
	}
	f := textdiff.Compute("x", "x", ob.String(), nb.String(), textdiff.Options{MaxLines: 1 << 30})
	// 500 edits of both kinds: D = 1000, four times what one Myers search
	// of 200,000 lines may spend.
	if f.Removed != n/200 || f.Added != n/200 || len(f.Hunks) != n/200 {
		t.Fatalf("removed %d added %d in %d hunks, want %d of each", f.Removed, f.Added, len(f.Hunks), n/200)
	}
	checkApplies(t, ob.String(), nb.String(), f)
}

// With no anchor to split at, a segment beyond the bound is a whole
// replace: still a correct diff, and bounded in time.
func TestCostBoundFallsBackToReplace(t *testing.T) {
	const n = 6000
	var ob, nb strings.Builder
	for i := range n {
		if i%2 == 0 {
			ob.WriteString("a\n")
			nb.WriteString("a\n")
		} else {
			ob.WriteString("b\n")
			nb.WriteString("c\n")
		}
	}
	f := textdiff.Compute("x", "x", ob.String(), nb.String(), textdiff.Options{MaxLines: 1 << 30})
	// Myers would keep the 2999 "a" lines after the first; every line is
	// repeated, so there is no anchor, and the middle is replaced whole.
	if f.Removed != n-1 || f.Added != n-1 {
		t.Fatalf("removed %d added %d, want the whole middle (%d) replaced", f.Removed, f.Added, n-1)
	}
	checkApplies(t, ob.String(), nb.String(), f)

	// Below the bound the same shape is diffed minimally.
	ob.Reset()
	nb.Reset()
	for i := range 200 {
		if i%2 == 0 {
			ob.WriteString("a\n")
			nb.WriteString("a\n")
		} else {
			ob.WriteString("b\n")
			nb.WriteString("c\n")
		}
	}
	g := textdiff.Compute("x", "x", ob.String(), nb.String(), textdiff.Options{})
	if g.Removed != 100 || g.Added != 100 {
		t.Fatalf("removed %d added %d, want 100 each", g.Removed, g.Added)
	}
	checkApplies(t, ob.String(), nb.String(), g)
}

func TestLargeFileOneLineChanged(t *testing.T) {
	old, new := bigFile()
	f := textdiff.Compute("big.txt", "big.txt", old, new, textdiff.Options{})
	if f.Added != 1 || f.Removed != 1 || len(f.Hunks) != 1 || len(f.Hunks[0].Lines) != 8 {
		t.Fatalf("%+v", f)
	}
	checkApplies(t, old, new, f)
}

// bigFile is about 5 MB of source-like lines with one line changed in the
// middle.
func bigFile() (string, string) {
	var b strings.Builder
	for i := 0; b.Len() < 5<<20; i++ {
		fmt.Fprintf(&b, "\tfmt.Println(\"line %d of a large generated file\", x%d)\n", i, i%17)
	}
	old := b.String()
	mid := strings.Index(old[len(old)/2:], "\n") + len(old)/2 + 1
	end := mid + strings.Index(old[mid:], "\n")
	return old, old[:mid] + "\tchanged()" + old[end:]
}

func checkHeader(t *testing.T, h textdiff.Hunk) {
	t.Helper()
	oc, nc := 0, 0
	for _, l := range h.Lines {
		if l.Kind != textdiff.Insert {
			oc++
		}
		if l.Kind != textdiff.Delete {
			nc++
		}
	}
	if oc != h.OldCount || nc != h.NewCount {
		t.Fatalf("hunk counts %d,%d but lines %d,%d", h.OldCount, h.NewCount, oc, nc)
	}
}

// checkApplies applies f's hunks to old and wants new's lines: each as its
// text without its ending and whether it has one (Text carries no "\r\n"
// vs "\n", so neither can the comparison).
func checkApplies(t *testing.T, old, new string, f textdiff.File) {
	t.Helper()
	got, err := apply(old, f)
	if err != nil {
		t.Fatalf("%v\n%s", err, f.Unified())
	}
	if want := lineTexts(new); !reflect.DeepEqual(got, want) {
		t.Fatalf("applying the diff gives %+v, want %+v\n%s", got, want, f.Unified())
	}
	added, removed := 0, 0
	for _, h := range f.Hunks {
		checkHeader(t, h)
		for _, l := range h.Lines {
			switch l.Kind {
			case textdiff.Insert:
				added++
			case textdiff.Delete:
				removed++
			}
		}
	}
	if !f.Truncated && (added != f.Added || removed != f.Removed) {
		t.Fatalf("hunks add %d remove %d, file says %d and %d", added, removed, f.Added, f.Removed)
	}
}

// lineText is a line as the diff sees it.
type lineText struct {
	text  string
	noEOL bool
}

func lineTexts(s string) []lineText {
	var out []lineText
	for _, l := range splitLines(s) {
		out = append(out, toLineText(l))
	}
	return out
}

func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func toLineText(l string) lineText {
	if t, ok := strings.CutSuffix(l, "\n"); ok {
		return lineText{text: strings.TrimSuffix(t, "\r")}
	}
	return lineText{text: l, noEOL: true}
}

// apply is a strict patch: context and deleted lines must be old's lines at
// the numbers the hunk gives.
func apply(old string, f textdiff.File) ([]lineText, error) {
	lines := splitLines(old)
	var out []lineText
	next := 0 // index of the next old line not yet copied
	for hi, h := range f.Hunks {
		first := h.OldStart - 1
		if h.OldCount == 0 {
			first = h.OldStart
		}
		if first < next {
			return nil, fmt.Errorf("hunk %d starts at old line %d, before %d", hi, h.OldStart, next+1)
		}
		for ; next < first; next++ {
			out = append(out, toLineText(lines[next]))
		}
		if h.NewStart != len(out)+1 && !(h.NewCount == 0 && h.NewStart == len(out)) {
			return nil, fmt.Errorf("hunk %d: new start %d, but %d lines come before it", hi, h.NewStart, len(out))
		}
		for _, l := range h.Lines {
			if l.Kind == textdiff.Insert {
				if l.NewLine != len(out)+1 {
					return nil, fmt.Errorf("new line %d at %d", l.NewLine, len(out)+1)
				}
				out = append(out, lineText{l.Text, l.NoEOL})
				continue
			}
			if next >= len(lines) {
				return nil, fmt.Errorf("hunk %d reads past the end of old", hi)
			}
			have := toLineText(lines[next])
			if l.OldLine != next+1 || l.Text != have.text || l.NoEOL != have.noEOL {
				return nil, fmt.Errorf("hunk %d: line %+v does not match old line %d %q", hi, l, next+1, lines[next])
			}
			next++
			if l.Kind == textdiff.Context {
				if l.NewLine != len(out)+1 {
					return nil, fmt.Errorf("new line %d at %d", l.NewLine, len(out)+1)
				}
				out = append(out, have)
			}
		}
	}
	for ; next < len(lines); next++ {
		out = append(out, toLineText(lines[next]))
	}
	return out, nil
}

func FuzzApplyGivesNew(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n", 0)
	f.Add("", "x", 1)
	f.Add("x\r\ny", "x\ny\r", -1)
	f.Add(numbered(20, nil), numbered(20, map[int]string{2: "", 9: "a\nb\n", 19: "z"}), 2)
	f.Fuzz(func(t *testing.T, old, new string, ctx int) {
		ctx %= 6
		fl := textdiff.Compute("x", "x", old, new, textdiff.Options{Context: ctx})
		if fl.Binary {
			return
		}
		if old == new {
			if len(fl.Hunks) != 0 {
				t.Fatalf("hunks for equal texts: %+v", fl.Hunks)
			}
			return
		}
		if len(fl.Hunks) == 0 {
			t.Fatal("no hunk for different texts")
		}
		checkApplies(t, old, new, fl)
	})
}

func BenchmarkDiff5MBOneLine(b *testing.B) {
	old, new := bigFile()
	b.SetBytes(int64(len(old)))
	b.ReportAllocs()
	for b.Loop() {
		f := textdiff.Compute("big.txt", "big.txt", old, new, textdiff.Options{})
		if f.Added != 1 {
			b.Fatal(f.Added)
		}
	}
}

// BenchmarkDiff5MBLineSplit is the baseline: only splitting both texts into
// lines, the least a line diff that did not trim could do.
func BenchmarkDiff5MBLineSplit(b *testing.B) {
	old, new := bigFile()
	b.SetBytes(int64(len(old)))
	b.ReportAllocs()
	for b.Loop() {
		if len(strings.SplitAfter(old, "\n"))+len(strings.SplitAfter(new, "\n")) == 0 {
			b.Fatal("no lines")
		}
	}
}

// BenchmarkDiffWorstCase is the bounded worst case: 20,000 lines, every
// other one changed and none unique (no anchor), beyond the cost bound.
func BenchmarkDiffWorstCase(b *testing.B) {
	var ob, nb strings.Builder
	for i := range 20000 {
		if i%2 == 0 {
			ob.WriteString("a\n")
			nb.WriteString("a\n")
		} else {
			ob.WriteString("b\n")
			nb.WriteString("c\n")
		}
	}
	old, new := ob.String(), nb.String()
	for b.Loop() {
		textdiff.Compute("x", "x", old, new, textdiff.Options{})
	}
}

// BenchmarkDiffScattered is 100,000 lines with 500 of them changed across
// the file: split at anchors.
func BenchmarkDiffScattered(b *testing.B) {
	var ob, nb strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&ob, "line %d\n", i)
		if i%200 == 100 {
			fmt.Fprintf(&nb, "changed %d\n", i)
		} else {
			fmt.Fprintf(&nb, "line %d\n", i)
		}
	}
	old, new := ob.String(), nb.String()
	for b.Loop() {
		textdiff.Compute("x", "x", old, new, textdiff.Options{})
	}
}
