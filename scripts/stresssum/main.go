// Command stresssum reads the event stream of `go test -json` (run with
// -count=N, usually under load by scripts/stress.sh) and prints, per
// package, how many top-level test runs passed and failed, the failing
// tests with the output of their first failures, and a total. It exits 1
// when any test or package failed (a build error, a panic, a timeout, a
// race outside a test), 0 otherwise.
//
// Usage: go test -json -count=10 ./... | go run ./scripts/stresssum
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
}

// pkgStat is what one package did.
type pkgStat struct {
	runs, fails int
	failed      bool              // the package as a whole failed
	done        bool              // a package-level pass or fail was seen
	elapsed     float64           // seconds, from the package's last event
	byTest      map[string]int    // failures per top-level test
	samples     map[string]string // first failure output per failing test
	out         map[string]*strings.Builder
	pkgOut      strings.Builder // output not tied to a test (panics, build errors)
}

// report is the summary of a whole stream.
type report struct {
	pkgs map[string]*pkgStat
}

// maxSample bounds the output kept for one failure.
const maxSample = 8 << 10

func summarize(r io.Reader, progress io.Writer) (*report, error) {
	rep := &report{pkgs: map[string]*pkgStat{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil || e.Package == "" {
			// Not an event (go build output, say): keep it visible.
			fmt.Fprintln(progress, string(line))
			continue
		}
		rep.add(e, progress)
	}
	if err := sc.Err(); err != nil {
		return rep, fmt.Errorf("read test events: %w", err)
	}
	return rep, nil
}

func (rep *report) pkg(name string) *pkgStat {
	p := rep.pkgs[name]
	if p == nil {
		p = &pkgStat{byTest: map[string]int{}, samples: map[string]string{}, out: map[string]*strings.Builder{}}
		rep.pkgs[name] = p
	}
	return p
}

func (rep *report) add(e event, progress io.Writer) {
	p := rep.pkg(e.Package)
	top := e.Test != "" && !strings.Contains(e.Test, "/")
	root := e.Test
	if i := strings.IndexByte(root, '/'); i >= 0 {
		root = root[:i]
	}
	switch e.Action {
	case "output":
		if e.Test == "" {
			if p.pkgOut.Len() < maxSample {
				p.pkgOut.WriteString(e.Output)
			}
			return
		}
		b := p.out[root]
		if b == nil {
			b = &strings.Builder{}
			p.out[root] = b
		}
		if b.Len() < maxSample {
			b.WriteString(e.Output)
		}
	case "run":
		if top {
			p.out[root] = &strings.Builder{} // a new run of the test
		}
	case "skip":
		if e.Test == "" {
			p.done = true // no test files
		}
	case "pass", "fail":
		if e.Test == "" {
			p.done, p.failed, p.elapsed = true, e.Action == "fail", e.Elapsed
			status := "ok  "
			if p.failed {
				status = "FAIL"
			}
			fmt.Fprintf(progress, "%s %s  %d runs, %d failed (%.0fs)\n", status, e.Package, p.runs, p.fails, e.Elapsed)
			return
		}
		if !top {
			return
		}
		p.runs++
		if e.Action == "fail" {
			p.fails++
			p.byTest[e.Test]++
			if _, ok := p.samples[e.Test]; !ok && p.out[root] != nil {
				p.samples[e.Test] = p.out[root].String()
			}
		}
	}
}

// failures is the number of failed test runs plus packages that failed
// outside any test.
func (rep *report) failures() int {
	n := 0
	for _, p := range rep.pkgs {
		n += p.fails
		if p.failed && p.fails == 0 || !p.done {
			n++
		}
	}
	return n
}

func (rep *report) print(w io.Writer, elapsed time.Duration) {
	names := make([]string, 0, len(rep.pkgs))
	for name := range rep.pkgs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := rep.pkgs[name]
		for _, test := range sortedKeys(p.byTest) {
			fmt.Fprintf(w, "\n--- %s %s failed %d time(s); first failure:\n%s", name, test, p.byTest[test], p.samples[test])
		}
		if p.failed && p.fails == 0 || !p.done {
			fmt.Fprintf(w, "\n--- %s failed outside any test (build error, panic, timeout or race):\n%s", name, p.pkgOut.String())
		}
	}
	fmt.Fprintf(w, "\n%-64s %7s %8s\n", "package", "runs", "failures")
	runs := 0
	for _, name := range names {
		p := rep.pkgs[name]
		if p.runs == 0 && !p.failed && p.done {
			continue // no test files
		}
		fails := p.fails
		if p.failed && p.fails == 0 || !p.done {
			fails++
		}
		runs += p.runs
		fmt.Fprintf(w, "%-64s %7d %8d\n", name, p.runs, fails)
	}
	fmt.Fprintf(w, "%-64s %7d %8d   (%s)\n", "total", runs, rep.failures(), elapsed.Round(time.Second))
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func main() {
	elapsed := flag.Duration("elapsed", 0, "wall time of the run, for the summary line")
	flag.Parse()
	start := time.Now()
	rep, err := summarize(os.Stdin, os.Stdout)
	if *elapsed == 0 {
		*elapsed = time.Since(start)
	}
	rep.print(os.Stdout, *elapsed)
	if err != nil {
		fmt.Fprintln(os.Stderr, "stresssum:", err)
		os.Exit(2)
	}
	if rep.failures() > 0 {
		os.Exit(1)
	}
}
