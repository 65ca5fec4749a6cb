package textdiff

// edit is one step of the middle's edit script: idx indexes the old lines
// for Context and Delete, the new lines for Insert.
type edit struct {
	kind Kind
	idx  int
}

const (
	// maxEditsCap bounds D whatever the size: the trace of the greedy
	// algorithm holds about D² int32s (16 MB at 2000).
	maxEditsCap = 2000
	// workBudget bounds the diagonal steps of the search, about (N+M)·D.
	workBudget = 100_000_000
)

// maxEdits is the largest edit distance searched for a middle of n lines in
// all, before the whole-replace fallback.
func maxEdits(n int) int {
	if n == 0 {
		return 0
	}
	return min(maxEditsCap, max(64, workBudget/n))
}

// diffLines returns an edit script turning a into b: Myers' greedy
// algorithm over interned lines, or a whole replace when the edit distance
// is beyond maxEdits (see the package comment).
func diffLines(a, b []string) []edit {
	if len(a) == 0 || len(b) == 0 {
		return replaceAll(len(a), len(b))
	}
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
	x, y := intern(a), intern(b)
	if script, ok := myers(x, y, maxEdits(len(a)+len(b))); ok {
		return script
	}
	return replaceAll(len(a), len(b))
}

func replaceAll(n, m int) []edit {
	script := make([]edit, 0, n+m)
	for i := range n {
		script = append(script, edit{Delete, i})
	}
	for i := range m {
		script = append(script, edit{Insert, i})
	}
	return script
}

// myers finds a shortest edit script with at most dmax edits, or reports
// false. v[k] holds the furthest x reached on diagonal k = x - y; trace[d]
// is v over diagonals -d..d after round d, which backtracking reads.
func myers(a, b []int32, dmax int) ([]edit, bool) {
	n, m := len(a), len(b)
	dmax = min(dmax, n+m)
	off := dmax + 1
	v := make([]int, 2*dmax+3)
	var trace [][]int32
	work := 0
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
				return backtrack(trace, n, m, d), true
			}
		}
		if work > workBudget {
			return nil, false
		}
		snap := make([]int32, 2*d+1)
		for k := -d; k <= d; k++ {
			snap[k+d] = int32(v[off+k])
		}
		trace = append(trace, snap)
	}
	return nil, false
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
