package textdiff

import "sort"

// edit is one step of the middle's edit script: idx indexes the old lines
// for Context and Delete, the new lines for Insert.
type edit struct {
	kind Kind
	idx  int
}

const (
	// maxEditsCap bounds D of one Myers search whatever the size: the
	// trace of the greedy algorithm holds about D² int32s (16 MB at 2000).
	maxEditsCap = 2000
	// workBudget bounds the diagonal steps of all the searches of one
	// diff together, about (N+M)·D for a single search.
	workBudget = 100_000_000
	// maxDepth bounds the nesting of anchor splits.
	maxDepth = 32
)

// maxEdits is the largest edit distance searched for a segment of n lines
// in all before it is split at anchors (or replaced whole).
func maxEdits(n int) int {
	if n == 0 {
		return 0
	}
	return min(maxEditsCap, max(64, workBudget/n))
}

// diffLines returns an edit script turning a into b. Lines are interned;
// each segment has its common ends trimmed and goes through Myers' greedy
// algorithm under the cost bound; a segment beyond it is split at the
// lines that occur exactly once on each side (patience anchors, kept in an
// increasing order) and each piece is diffed again; a segment with no
// anchor, or once the diff's whole budget is spent, is a replace.
func diffLines(a, b []string) []edit {
	ids := make(map[string]int32, len(a)+len(b))
	intern := func(lines []string) []int32 {
		out := make([]int32, len(lines))
		for i, l := range lines {
			id, ok := ids[l]
			if !ok {
				id = int32(len(ids))
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	d := differ{a: intern(a), b: intern(b), budget: workBudget}
	d.ids = len(ids)
	d.script = make([]edit, 0, max(len(a), len(b)))
	d.diff(0, len(a), 0, len(b), 0)
	return d.script
}

type differ struct {
	a, b       []int32
	ids        int // distinct lines
	budget     int // diagonal steps left for Myers
	script     []edit
	na, nb, ib []int32 // anchors' scratch, by line id
}

// diff appends the script of a[a0:a1] against b[b0:b1].
func (d *differ) diff(a0, a1, b0, b1, depth int) {
	for a0 < a1 && b0 < b1 && d.a[a0] == d.b[b0] {
		d.script = append(d.script, edit{Context, a0})
		a0, b0 = a0+1, b0+1
	}
	suf := 0
	for a0 < a1-suf && b0 < b1-suf && d.a[a1-1-suf] == d.b[b1-1-suf] {
		suf++
	}
	a1, b1 = a1-suf, b1-suf
	switch {
	case a0 == a1 || b0 == b1:
		d.replace(a0, a1, b0, b1)
	default:
		n := a1 - a0 + b1 - b0
		// A first try costs at most about ten diagonals' worth of the
		// segment: a large segment with many edits is cheaper split at its
		// anchors first; the whole budget is for a segment with none.
		if d.myers(a0, a1, b0, b1, min(d.budget, 10*n+1_000_000)) {
			break
		}
		anchors := d.anchors(a0, a1, b0, b1)
		if len(anchors) == 0 || depth >= maxDepth {
			if !d.myers(a0, a1, b0, b1, d.budget) {
				d.replace(a0, a1, b0, b1)
			}
			break
		}
		pa, pb := a0, b0
		for _, an := range anchors {
			d.diff(pa, an[0], pb, an[1], depth+1)
			d.script = append(d.script, edit{Context, an[0]})
			pa, pb = an[0]+1, an[1]+1
		}
		d.diff(pa, a1, pb, b1, depth+1)
	}
	for i := range suf {
		d.script = append(d.script, edit{Context, a1 + i})
	}
}

// myers appends the Myers script of the segment when one is found within
// limit diagonal steps (and maxEdits edits); the steps spent are taken
// from the budget either way.
func (d *differ) myers(a0, a1, b0, b1, limit int) bool {
	script, work, ok := myers(d.a[a0:a1], d.b[b0:b1], maxEdits(a1-a0+b1-b0), limit)
	d.budget -= work
	if !ok {
		return false
	}
	for _, e := range script {
		if e.kind == Insert {
			e.idx += b0
		} else {
			e.idx += a0
		}
		d.script = append(d.script, e)
	}
	return true
}

func (d *differ) replace(a0, a1, b0, b1 int) {
	for i := a0; i < a1; i++ {
		d.script = append(d.script, edit{Delete, i})
	}
	for j := b0; j < b1; j++ {
		d.script = append(d.script, edit{Insert, j})
	}
}

// anchors are the pairs (i, j) of lines that occur exactly once in
// a[a0:a1] and once in b[b0:b1], the longest run of them increasing on
// both sides (patience sorting), in order.
func (d *differ) anchors(a0, a1, b0, b1 int) [][2]int {
	if d.na == nil {
		// Counts by line id (ids are dense), kept for the next call and
		// cleared of what this one touched.
		d.na, d.nb, d.ib = make([]int32, d.ids), make([]int32, d.ids), make([]int32, d.ids)
	}
	defer func() {
		for _, id := range d.a[a0:a1] {
			d.na[id], d.nb[id] = 0, 0
		}
	}()
	for _, id := range d.a[a0:a1] {
		d.na[id]++
	}
	for j := b0; j < b1; j++ {
		if id := d.b[j]; d.na[id] > 0 {
			d.nb[id]++
			d.ib[id] = int32(j)
		}
	}
	var pairs [][2]int
	for i := a0; i < a1; i++ {
		if id := d.a[i]; d.na[id] == 1 && d.nb[id] == 1 {
			pairs = append(pairs, [2]int{i, int(d.ib[id])})
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	// Longest increasing subsequence of the b sides: tops[k] is the index
	// in pairs of the smallest tail of a run of length k+1.
	var tops []int
	prev := make([]int, len(pairs))
	for p, pr := range pairs {
		k := sort.Search(len(tops), func(k int) bool { return pairs[tops[k]][1] > pr[1] })
		prev[p] = -1
		if k > 0 {
			prev[p] = tops[k-1]
		}
		if k == len(tops) {
			tops = append(tops, p)
		} else {
			tops[k] = p
		}
	}
	run := make([][2]int, len(tops))
	for p, k := tops[len(tops)-1], len(tops)-1; p >= 0; p, k = prev[p], k-1 {
		run[k] = pairs[p]
	}
	return run
}

// myers finds a shortest edit script of a against b with at most dmax
// edits and about limit diagonal steps, or reports false; work is the
// steps it took. v[k] holds the furthest x reached on diagonal k = x - y; trace[d]
// is v over diagonals -d..d after round d, which backtracking reads.
func myers(a, b []int32, dmax, limit int) (script []edit, work int, ok bool) {
	n, m := len(a), len(b)
	dmax = min(dmax, n+m)
	off := dmax + 1
	v := make([]int, 2*dmax+3)
	var trace [][]int32
	for d := 0; d <= dmax; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: an insertion
			} else {
				x = v[off+k-1] + 1 // right: a deletion
			}
			y := x - k
			start := x
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			work += 1 + x - start
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, n, m, d), work, true
			}
		}
		if work > limit {
			return nil, work, false
		}
		snap := make([]int32, 2*d+1)
		for k := -d; k <= d; k++ {
			snap[k+d] = int32(v[off+k])
		}
		trace = append(trace, snap)
	}
	return nil, work, false
}

// backtrack walks the trace from (n, m) back to (0, 0) and returns the
// script in order.
func backtrack(trace [][]int32, n, m, dEnd int) []edit {
	script := make([]edit, 0, max(n, m)+dEnd)
	x, y := n, m
	for d := dEnd; d > 0; d-- {
		prev := trace[d-1]
		at := func(k int) int { return int(prev[k+d-1]) }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		// The snake after the edit: equal lines back to the edit's end.
		sx := px
		if pk == k-1 {
			sx = px + 1
		}
		for x > sx {
			x--
			y--
			script = append(script, edit{Context, x})
		}
		if pk == k+1 {
			script = append(script, edit{Insert, py})
		} else {
			script = append(script, edit{Delete, px})
		}
		x, y = px, py
	}
	for x > 0 {
		x--
		script = append(script, edit{Context, x})
	}
	for i, j := 0, len(script)-1; i < j; i, j = i+1, j-1 {
		script[i], script[j] = script[j], script[i]
	}
	return script
}
