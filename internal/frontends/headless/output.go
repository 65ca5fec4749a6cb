package headless

import "strings"

// A running command's output reaches the front end as its tail so far
// (agent.ToolProgress.Output: the last 16 KiB, replacing the previous
// one), not as increments: the window redraws its card with it, the
// terminal can only append. outputTail turns the successive tails into
// what is new, and releases whole lines only, so a line is printed once,
// redacted whole, whatever the chunks it arrived in.
type outputTail struct {
	last    string // the previous tail
	pending string // the new text after the last newline printed
}

// next takes the latest tail and returns the complete lines it adds
// (each ending in "\n"), "" when none.
func (o *outputTail) next(tail string) string {
	o.pending += added(o.last, tail)
	o.last = tail
	i := strings.LastIndexByte(o.pending, '\n')
	if i < 0 {
		return ""
	}
	out := o.pending[:i+1]
	o.pending = o.pending[i+1:]
	return out
}

// rest is the last line still without its newline (the call ended).
func (o *outputTail) rest() string {
	out := o.pending
	o.pending = ""
	return out
}

// added is what cur adds to prev when cur is prev's tail with more text
// after it: prev's start may have slid out of the window. The longest
// suffix of prev that cur begins with is what both hold; when none is
// found (the window slid past everything prev held), all of cur is new.
func added(prev, cur string) string {
	if strings.HasPrefix(cur, prev) {
		return cur[len(prev):]
	}
	if prev == "" || cur == "" {
		return cur
	}
	// Candidates are where cur's first byte occurs in prev; the first
	// that matches is the longest overlap. (A tail is at most 16 KiB: even
	// a line of one repeated byte costs milliseconds.)
	for k := 1; k < len(prev); k++ {
		i := strings.IndexByte(prev[k:], cur[0])
		if i < 0 {
			break
		}
		k += i
		if strings.HasPrefix(cur, prev[k:]) {
			return cur[len(prev)-k:]
		}
	}
	return cur
}
