// Package textdiff computes line diffs of text files and prints them as git
// does (unified format). The tools show one before every write and rewind
// shows one before it restores, so it must be fast on the common case (a
// large file with a small change) and bounded on the worst one.
//
// The algorithm: the common prefix and suffix are trimmed at the byte level
// (a 5 MB file with one line changed splits only the changed line into
// lines), the middle is interned and diffed with Myers' greedy O((N+M)·D)
// algorithm under a cost bound. A segment whose edit distance is beyond
// maxEdits(N+M) (at most 2000, fewer for a long segment, so one search's
// trace stays near 16 MB) or whose search passes its share of the steps is
// split at its patience anchors (lines occurring exactly once on each side,
// the longest run of them in order on both) and each piece is diffed the
// same way: a large file with edits all over it still diffs to its edits.
// A segment with no anchor that Myers cannot finish within the bound (or
// the 10⁸ steps a whole diff may take) is reported as a whole replace:
// every old line of it deleted, every new one inserted. The diff is then still correct (applying it gives the new
// text), just not minimal; Added and Removed count that replace.
//
// Lines are compared with their line endings, so a line whose ending alone
// changed (LF to CRLF, or a last line gaining its newline) is a delete and an
// insert. Line.Text carries the line without its ending ("\n" or "\r\n");
// Unified prints every line ending as "\n" and marks a line without one with
// git's "\ No newline at end of file".
package textdiff

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind says what a diff line is.
type Kind string

// The kinds of a diff line.
const (
	Context Kind = "context"
	Delete  Kind = "delete"
	Insert  Kind = "insert"
)

// Line is one line of a hunk.
type Line struct {
	Kind    Kind   `json:"kind"`
	Text    string `json:"text"`              // without its line ending
	OldLine int    `json:"oldLine,omitempty"` // 1-based; 0 for an inserted line
	NewLine int    `json:"newLine,omitempty"` // 1-based; 0 for a deleted line
	// NoEOL marks the last line of a side that has no line ending, so that
	// Unified can say so and a reader of the JSON can tell "x" from "x\n".
	NoEOL bool `json:"noEol,omitempty"`
}

// Hunk is a run of changes with their context. The starts follow git: the
// 1-based number of the hunk's first line on that side, or, when the count
// is 0, the number of lines before the place the hunk sits at.
type Hunk struct {
	OldStart int    `json:"oldStart"`
	OldCount int    `json:"oldCount"`
	NewStart int    `json:"newStart"`
	NewCount int    `json:"newCount"`
	Lines    []Line `json:"lines"`
}

// File is one file's change. OldPath "" = created; NewPath "" = deleted; both
// set and different = moved. Paths are workspace-relative with forward slashes.
type File struct {
	OldPath   string `json:"oldPath,omitempty"`
	NewPath   string `json:"newPath,omitempty"`
	Hunks     []Hunk `json:"hunks,omitempty"`
	Added     int    `json:"added"`
	Removed   int    `json:"removed"`
	Binary    bool   `json:"binary,omitempty"`    // not text: no hunks
	Truncated bool   `json:"truncated,omitempty"` // hunks cut at Options.MaxLines; Added/Removed still whole
}

// Options tune Compute.
type Options struct {
	// Context is the number of unchanged lines shown around a change:
	// 0 means the default 3; a negative value means none.
	Context int
	// MaxLines bounds the lines kept in hunks (0 means 4000), so a diff of
	// a huge rewrite does not flood a window or a JSON event.
	MaxLines int
}

const (
	defaultContext  = 3
	defaultMaxLines = 4000
)

// Compute diffs oldText against newText. A side that contains a NUL byte or
// is not valid UTF-8 makes the file Binary (no hunks, no counts): callers
// decode text in its own encoding before they diff it.
func Compute(oldPath, newPath, oldText, newText string, opt Options) File {
	f := File{OldPath: oldPath, NewPath: newPath}
	if isBinary(oldText) || isBinary(newText) {
		f.Binary = oldText != newText
		return f
	}
	if oldText == newText {
		return f
	}
	ctx := opt.Context
	switch {
	case ctx == 0:
		ctx = defaultContext
	case ctx < 0:
		ctx = 0
	}
	maxLines := opt.MaxLines
	if maxLines <= 0 {
		maxLines = defaultMaxLines
	}

	pre, suf := commonEnds(oldText, newText)
	preLines := strings.Count(oldText[:pre], "\n")
	oldMid := splitLines(oldText[pre : len(oldText)-suf])
	newMid := splitLines(newText[pre : len(newText)-suf])

	// The prefix and suffix hold no change: only the ctx lines next to the
	// middle can appear in a hunk.
	mid := diffLines(oldMid, newMid)
	ops := make([]op, 0, len(mid)+2*ctx)
	tail := lastLines(oldText[:pre], ctx)
	for i, l := range tail {
		n := preLines - len(tail) + i
		ops = append(ops, op{kind: Context, oldPos: n, newPos: n, line: l})
	}
	oi, ni := preLines, preLines
	for _, m := range mid {
		switch m.kind {
		case Context:
			ops = append(ops, op{kind: Context, oldPos: oi, newPos: ni, line: oldMid[m.idx]})
			oi++
			ni++
		case Delete:
			ops = append(ops, op{kind: Delete, oldPos: oi, newPos: ni, line: oldMid[m.idx]})
			oi++
			f.Removed++
		case Insert:
			ops = append(ops, op{kind: Insert, oldPos: oi, newPos: ni, line: newMid[m.idx]})
			ni++
			f.Added++
		}
	}
	for _, l := range firstLines(oldText[len(oldText)-suf:], ctx) {
		ops = append(ops, op{kind: Context, oldPos: oi, newPos: ni, line: l})
		oi++
		ni++
	}
	f.Hunks, f.Truncated = buildHunks(ops, ctx, maxLines)
	return f
}

func isBinary(s string) bool {
	return strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s)
}

// commonEnds returns the lengths of the common prefix and suffix of a and
// b, both cut back to whole lines and not overlapping.
func commonEnds(a, b string) (pre, suf int) {
	n := min(len(a), len(b))
	// Compare in blocks first: string equality is memequal, far faster
	// than a byte loop over megabytes.
	const block = 4096
	for pre+block <= n && a[pre:pre+block] == b[pre:pre+block] {
		pre += block
	}
	for pre < n && a[pre] == b[pre] {
		pre++
	}
	// Back to the start of the line holding the first difference.
	pre = strings.LastIndexByte(a[:pre], '\n') + 1

	rest := n - pre
	for suf+block <= rest && a[len(a)-suf-block:len(a)-suf] == b[len(b)-suf-block:len(b)-suf] {
		suf += block
	}
	for suf < rest && a[len(a)-suf-1] == b[len(b)-suf-1] {
		suf++
	}
	// The suffix must start a line in both texts: right after a newline
	// inside it, or exactly where the prefix ends in both.
	if len(a)-suf == pre && len(b)-suf == pre {
		return pre, suf
	}
	cs := a[len(a)-suf:]
	i := strings.IndexByte(cs, '\n')
	if i < 0 {
		return pre, 0
	}
	// A suffix that starts with the newline itself: the newline belongs to
	// the line before, which differs; keep only what follows it.
	return pre, len(cs) - (i + 1)
}

// splitLines splits s after each "\n"; the last line may lack one.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := make([]string, 0, strings.Count(s, "\n")+1)
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// lastLines returns the last k lines of s, which is empty or ends with "\n".
func lastLines(s string, k int) []string {
	if k <= 0 || s == "" {
		return nil
	}
	start := len(s) - 1 // skip the final newline
	for range k {
		i := strings.LastIndexByte(s[:start], '\n')
		if i < 0 {
			start = -1
			break
		}
		start = i
	}
	if start < 0 {
		return splitLines(s)
	}
	return splitLines(s[start+1:])
}

// firstLines returns the first k lines of s.
func firstLines(s string, k int) []string {
	if k <= 0 || s == "" {
		return nil
	}
	end := 0
	for range k {
		i := strings.IndexByte(s[end:], '\n')
		if i < 0 {
			end = len(s)
			break
		}
		end += i + 1
		if end == len(s) {
			break
		}
	}
	return splitLines(s[:end])
}

// op is one line of the edit script over the whole files: oldPos and newPos
// count the lines of each side before it.
type op struct {
	kind           Kind
	oldPos, newPos int
	line           string // with its ending
}

func (o op) toLine() Line {
	l := Line{Kind: o.kind, Text: trimEOL(o.line), NoEOL: !strings.HasSuffix(o.line, "\n")}
	if o.kind != Insert {
		l.OldLine = o.oldPos + 1
	}
	if o.kind != Delete {
		l.NewLine = o.newPos + 1
	}
	return l
}

// trimEOL removes a line's ending: "\n" or "\r\n". A "\r" that ends a last
// line without "\n" is text, not an ending.
func trimEOL(s string) string {
	if t, ok := strings.CutSuffix(s, "\n"); ok {
		return strings.TrimSuffix(t, "\r")
	}
	return s
}

// buildHunks groups the changes of ops with ctx lines of context, merging
// hunks whose context would touch, and keeps at most maxLines lines.
func buildHunks(ops []op, ctx, maxLines int) ([]Hunk, bool) {
	var hunks []Hunk
	kept, prevEnd := 0, 0
	i := 0
	for i < len(ops) {
		// Find the next change.
		for i < len(ops) && ops[i].kind == Context {
			i++
		}
		if i == len(ops) {
			break
		}
		// Hunks further apart than 2·ctx never share a line; the bound
		// is a guard.
		start := max(i-ctx, prevEnd)
		// Extend while the next change is within 2·ctx context lines.
		end := i
		for {
			for end < len(ops) && ops[end].kind != Context {
				end++
			}
			j := end
			for j < len(ops) && ops[j].kind == Context {
				j++
			}
			if j < len(ops) && j-end <= 2*ctx {
				end = j
				continue
			}
			end = min(end+ctx, len(ops))
			break
		}
		h := Hunk{}
		truncated := false
		for _, o := range ops[start:end] {
			if kept == maxLines {
				truncated = true
				break
			}
			h.Lines = append(h.Lines, o.toLine())
			kept++
		}
		setHeader(&h, ops[start])
		hunks = append(hunks, h)
		if truncated || (kept == maxLines && hasChange(ops[end:])) {
			return hunks, true
		}
		i, prevEnd = end, end
	}
	return hunks, false
}

func hasChange(ops []op) bool {
	for _, o := range ops {
		if o.kind != Context {
			return true
		}
	}
	return false
}

func setHeader(h *Hunk, first op) {
	for _, l := range h.Lines {
		if l.Kind != Insert {
			h.OldCount++
		}
		if l.Kind != Delete {
			h.NewCount++
		}
	}
	h.OldStart, h.NewStart = first.oldPos, first.newPos
	if h.OldCount > 0 {
		h.OldStart++
	}
	if h.NewCount > 0 {
		h.NewStart++
	}
}

// Unified prints f as git does: "--- a/x", "+++ b/x", then its hunks.
// A created or deleted side is /dev/null; a binary file is one "Binary
// files … differ" line; a truncated diff ends with a "\ Diff truncated"
// line saying the rest is not shown.
func (f File) Unified() string {
	var b strings.Builder
	oldName, newName := "/dev/null", "/dev/null"
	if f.OldPath != "" {
		oldName = "a/" + f.OldPath
	}
	if f.NewPath != "" {
		newName = "b/" + f.NewPath
	}
	if f.Binary {
		b.WriteString("Binary files " + oldName + " and " + newName + " differ\n")
		return b.String()
	}
	b.WriteString("--- " + oldName + "\n+++ " + newName + "\n")
	for _, h := range f.Hunks {
		b.WriteString("@@ -" + rangeText(h.OldStart, h.OldCount) + " +" + rangeText(h.NewStart, h.NewCount) + " @@\n")
		for _, l := range h.Lines {
			switch l.Kind {
			case Delete:
				b.WriteByte('-')
			case Insert:
				b.WriteByte('+')
			default:
				b.WriteByte(' ')
			}
			b.WriteString(l.Text)
			b.WriteByte('\n')
			if l.NoEOL {
				b.WriteString("\\ No newline at end of file\n")
			}
		}
	}
	if f.Truncated {
		b.WriteString("\\ Diff truncated: " + strconv.Itoa(f.Added) + " lines added and " +
			strconv.Itoa(f.Removed) + " removed in all; the rest is not shown\n")
	}
	return b.String()
}

// rangeText is git's "start,count", with ",1" left out.
func rangeText(start, count int) string {
	if count == 1 {
		return strconv.Itoa(start)
	}
	return strconv.Itoa(start) + "," + strconv.Itoa(count)
}

// Unified prints several files' diffs one after the other.
func Unified(files []File) string {
	var b strings.Builder
	for _, f := range files {
		b.WriteString(f.Unified())
	}
	return b.String()
}
