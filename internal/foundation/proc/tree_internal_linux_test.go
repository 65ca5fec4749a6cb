package proc

import (
	"strconv"
	"testing"
)

// A stat line's command name may hold spaces and parentheses: the state
// and parent follow the last ')'.
func TestParseStat(t *testing.T) {
	for _, c := range []struct {
		line string
		want procEntry
		ok   bool
	}{
		{"42 (sleep) S 7 42 42 0", procEntry{ppid: 7}, true},
		{"42 (a) (b) Z 1 0 0", procEntry{ppid: 1, zombie: true}, true},
		{"42 (x y) R 0 0", procEntry{ppid: 0}, true},
		{"42 sleep S 7", procEntry{}, false},
		{"42 (sleep) S", procEntry{}, false},
		{"42 (sleep) S -1", procEntry{}, false},
		{"42 (sleep) SS 7", procEntry{}, false},
	} {
		got, ok := parseStat(c.line)
		if got != c.want || ok != c.ok {
			t.Errorf("%q: %+v %v, want %+v %v", c.line, got, ok, c.want, c.ok)
		}
	}
}

// Each process is listed once, parents first, whatever the links (a cycle
// in a torn read included).
func TestDescendants(t *testing.T) {
	table := map[int]procEntry{1: {ppid: 0}, 10: {ppid: 1}, 11: {ppid: 10}, 12: {ppid: 11}, 20: {ppid: 1}, 30: {ppid: 31}, 31: {ppid: 30}}
	for _, c := range []struct {
		roots []int
		want  string
	}{
		{[]int{10}, "10 11 12"},
		{[]int{11, 10}, "11 10 12"},
		{[]int{99}, ""},
		{[]int{30}, "30 31"},
	} {
		got := ""
		for i, p := range descendants(table, c.roots) {
			if i > 0 {
				got += " "
			}
			got += strconv.Itoa(p)
		}
		if got != c.want {
			t.Errorf("under %v: %q, want %q", c.roots, got, c.want)
		}
	}
}

func FuzzParseStat(f *testing.F) {
	for _, s := range []string{"42 (sleep) S 7 42", "1 ((a)) Z 0", ")", "1 () R 2", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		e, ok := parseStat(line)
		if ok && e.ppid < 0 {
			t.Fatalf("%q: parent %d", line, e.ppid)
		}
		if !ok && e != (procEntry{}) {
			t.Fatalf("%q: refused but %+v", line, e)
		}
	})
}
