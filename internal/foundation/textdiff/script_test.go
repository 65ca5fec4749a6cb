package textdiff

import (
	"testing"
)

// checkScript wants script to walk a and b in order: Context and Delete
// take a's next line, Context and Insert b's next, a Context line equal on
// both sides, and both consumed at the end.
func checkScript(t *testing.T, a, b []int32, script []edit) {
	t.Helper()
	i, j := 0, 0
	for n, e := range script {
		switch e.kind {
		case Context:
			if e.idx != i || i >= len(a) || j >= len(b) || a[i] != b[j] {
				t.Fatalf("step %d: context %d at a %d b %d (a %v b %v)", n, e.idx, i, j, a, b)
			}
			i, j = i+1, j+1
		case Delete:
			if e.idx != i || i >= len(a) {
				t.Fatalf("step %d: delete %d at a %d", n, e.idx, i)
			}
			i++
		case Insert:
			if e.idx != j || j >= len(b) {
				t.Fatalf("step %d: insert %d at b %d", n, e.idx, j)
			}
			j++
		}
	}
	if i != len(a) || j != len(b) {
		t.Fatalf("script ends at a %d/%d b %d/%d", i, len(a), j, len(b))
	}
}

// The anchor split and the replace are reached with a starved budget:
// whatever path a segment takes, the script must still turn a into b.
func FuzzScriptUnderAnyBudget(f *testing.F) {
	f.Add([]byte("abcabba"), []byte("cbabac"), 0)
	f.Add([]byte("0123456789"), []byte("0x2345y789"), 3)
	f.Add([]byte("aaaaabbbbb"), []byte("bbbbbaaaaa"), 50)
	f.Fuzz(func(t *testing.T, ab, bb []byte, budget int) {
		if len(ab) > 2000 || len(bb) > 2000 {
			return
		}
		ids := func(bs []byte) []int32 {
			out := make([]int32, len(bs))
			for i, c := range bs {
				out[i] = int32(c)
			}
			return out
		}
		a, b := ids(ab), ids(bb)
		d := differ{a: a, b: b, ids: 256, budget: budget % 1000}
		d.diff(0, len(a), 0, len(b), 0)
		checkScript(t, a, b, d.script)
	})
}

func TestAnchorsAreUniqueAndInOrder(t *testing.T) {
	// x, y, z occur once on each side; a repeats; z comes before y in b,
	// so the longest run in order keeps x and one of y, z.
	enc := map[byte]int32{'a': 0, 'x': 1, 'y': 2, 'z': 3}
	ids := func(s string) []int32 {
		out := make([]int32, len(s))
		for i := range s {
			out[i] = enc[s[i]]
		}
		return out
	}
	d := differ{a: ids("axayaz"), b: ids("xazay"), ids: 4}
	got := d.anchors(0, 6, 0, 5)
	if len(got) != 2 || got[0] != [2]int{1, 0} {
		t.Fatalf("anchors %v", got)
	}
	for _, an := range got {
		if d.a[an[0]] != d.b[an[1]] {
			t.Fatalf("anchor %v pairs different lines", an)
		}
	}
	// The scratch counts are clean for the next call.
	for id := range 4 {
		if d.na[id] != 0 || d.nb[id] != 0 {
			t.Fatalf("counts left for id %d", id)
		}
	}
}
