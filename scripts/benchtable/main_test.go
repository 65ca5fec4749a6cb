package main

import (
	"strings"
	"testing"
)

// A benchmark that fails leaves the other benchmarks of its package their
// figures, and its own output is shown: make bench printed "(no result)"
// for every row of a package with one failing run, and only "exit status 1"
// for the failure.
func TestAFailingBenchmarkKeepsTheOthersAndShowsWhy(t *testing.T) {
	results := map[string]map[string]float64{}
	failed := map[string]int{}
	var log strings.Builder
	err := run("./testdata/flaky", []bench{{"Good", "3x"}, {"Bad", "1x"}}, 2, results, failed, &log)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if got := results["Good"]["things/s"]; got != 42 {
		t.Errorf("Good's figure = %v, want 42 (results %v)", got, results)
	}
	if failed["Bad"] != 2 || failed["Good"] != 0 {
		t.Errorf("failed runs = %v, want Bad:2 only", failed)
	}
	if !strings.Contains(log.String(), "the reason it failed: 7f3a") || !strings.Contains(log.String(), "BenchmarkBad failed in round 1 of 2") {
		t.Errorf("the failure's output is not shown:\n%s", log.String())
	}
	if f := failures(failed, "@Good", "Bad"); f != "2 failed run(s) of Bad" {
		t.Errorf("failures = %q", f)
	}
}

// A row whose benchmark name matches nothing fails its run by name rather
// than passing with no result line.
func TestABenchmarkNameThatMatchesNothingFails(t *testing.T) {
	failed := map[string]int{}
	var log strings.Builder
	if err := run("./testdata/flaky", []bench{{"Missing", "1x"}}, 1, map[string]map[string]float64{}, failed, &log); err != nil {
		t.Fatalf("run: %v", err)
	}
	if failed["Missing"] != 1 || !strings.Contains(log.String(), "no result line") {
		t.Errorf("failed = %v, log:\n%s", failed, log.String())
	}
}

func TestNames(t *testing.T) {
	for ref, want := range map[string]string{"A": "A", "@A": "A", "@7*A": "A", "@A-B": "A,B", "@T/h=5": "T/h=5", "": ""} {
		if got := strings.Join(names(ref), ","); got != want {
			t.Errorf("names(%q) = %q, want %q", ref, got, want)
		}
	}
}
