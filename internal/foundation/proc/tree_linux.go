package proc

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// procEntry is what /proc/<pid>/stat says about one process.
type procEntry struct {
	ppid   int
	zombie bool
}

// procTable reads every process's parent from /proc. A process that ends
// while it is read is left out.
func procTable() map[int]procEntry {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	t := make(map[int]procEntry, len(dirs))
	for _, dir := range dirs {
		pid, err := strconv.Atoi(filepath.Base(dir))
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, "stat"))
		if err != nil {
			continue
		}
		if e, ok := parseStat(string(b)); ok {
			t[pid] = e
		}
	}
	return t
}

// parseStat reads the state and parent pid of a /proc/<pid>/stat line:
// "pid (comm) state ppid ...", where comm may hold spaces and parentheses
// (the last ')' ends it).
func parseStat(s string) (procEntry, bool) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procEntry{}, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 || len(f[0]) != 1 {
		return procEntry{}, false
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil || ppid < 0 {
		return procEntry{}, false
	}
	return procEntry{ppid: ppid, zombie: f[0] == "Z"}, true
}

// descendants lists every process under the roots in t (the roots that
// are in t included), parents before their children.
func descendants(t map[int]procEntry, roots []int) []int {
	kids := map[int][]int{}
	for pid, e := range t {
		kids[e.ppid] = append(kids[e.ppid], pid)
	}
	var out []int
	seen := map[int]bool{}
	queue := []int{}
	for _, r := range roots {
		if _, ok := t[r]; ok && !seen[r] {
			seen[r] = true
			queue = append(queue, r)
		}
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		out = append(out, p)
		for _, k := range kids[p] {
			if !seen[k] {
				seen[k] = true
				queue = append(queue, k)
			}
		}
	}
	return out
}

// maxTreeRounds bounds how often killTree looks again for processes forked
// while it stopped the ones it had found.
const maxTreeRounds = 100

// killTree SIGKILLs the roots and every process under them, whatever group
// or session each is in and whatever its environment holds: it follows
// parent links. Every process found is first stopped (SIGSTOP cannot be
// caught), and the tree read again until no new one appears, so none can
// fork a child the kill would miss. self is never signalled (the reaper
// kills its own tree). It returns how many processes it killed.
func killTree(roots []int, self int) int {
	stopped := map[int]bool{}
	var order []int
	for range maxTreeRounds {
		fresh := 0
		for _, pid := range descendants(procTable(), roots) {
			if pid == self || stopped[pid] {
				continue
			}
			_ = syscall.Kill(pid, syscall.SIGSTOP)
			stopped[pid] = true
			order = append(order, pid)
			fresh++
		}
		if fresh == 0 {
			break
		}
	}
	for _, pid := range order {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	return len(order)
}
