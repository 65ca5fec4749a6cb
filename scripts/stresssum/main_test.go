package main

import (
	"io"
	"strings"
	"testing"
)

func TestSummarize(t *testing.T) {
	tests := []struct {
		name      string
		events    string
		failures  int
		runs      map[string]int
		reportHas string
	}{
		{"all pass", `{"Action":"run","Package":"a","Test":"TestX"}
{"Action":"pass","Package":"a","Test":"TestX"}
{"Action":"run","Package":"a","Test":"TestX"}
{"Action":"pass","Package":"a","Test":"TestX/sub"}
{"Action":"pass","Package":"a","Test":"TestX"}
{"Action":"pass","Package":"a","Elapsed":1.5}
{"Action":"skip","Package":"b"}`, 0, map[string]int{"a": 2}, "total"},
		{"a failing run keeps its output", `{"Action":"run","Package":"a","Test":"TestX"}
{"Action":"output","Package":"a","Test":"TestX","Output":"first run\n"}
{"Action":"pass","Package":"a","Test":"TestX"}
{"Action":"run","Package":"a","Test":"TestX"}
{"Action":"output","Package":"a","Test":"TestX/sub","Output":"hook err <nil>\n"}
{"Action":"fail","Package":"a","Test":"TestX/sub"}
{"Action":"fail","Package":"a","Test":"TestX"}
{"Action":"fail","Package":"a"}`, 1, map[string]int{"a": 2}, "hook err <nil>"},
		{"a package failing outside a test", `{"Action":"output","Package":"a","Output":"panic: test timed out\n"}
{"Action":"fail","Package":"a"}`, 1, map[string]int{"a": 0}, "panic: test timed out"},
		{"a package that never finished", `{"Action":"run","Package":"a","Test":"TestX"}`, 1, map[string]int{"a": 0}, "failed outside any test"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := summarize(strings.NewReader(tt.events), io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if got := rep.failures(); got != tt.failures {
				t.Errorf("failures %d, want %d", got, tt.failures)
			}
			for pkg, want := range tt.runs {
				if got := rep.pkgs[pkg].runs; got != want {
					t.Errorf("%s: runs %d, want %d", pkg, got, want)
				}
			}
			var b strings.Builder
			rep.print(&b, 0)
			if !strings.Contains(b.String(), tt.reportHas) {
				t.Errorf("report lacks %q:\n%s", tt.reportHas, b.String())
			}
		})
	}
}

// FuzzSummarize: any input (go test -json or not) is summarized without a
// panic, and a stream with a failing test event always counts a failure.
func FuzzSummarize(f *testing.F) {
	f.Add([]byte(`{"Action":"run","Package":"a","Test":"TestX"}` + "\n" + `{"Action":"fail","Package":"a","Test":"TestX"}` + "\n"))
	f.Add([]byte(`{"Action":"skip","Package":"b"}` + "\nnot json\n"))
	f.Add([]byte(`{"Action":"output","Package":"a","Test":"T/x","Output":"o"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := summarize(strings.NewReader(string(data)), io.Discard)
		if err != nil {
			return // a line past the scanner's cap
		}
		rep.print(io.Discard, 0)
		failing := 0
		for _, p := range rep.pkgs {
			failing += p.fails
		}
		if rep.failures() < failing {
			t.Fatalf("failures %d < failed test runs %d", rep.failures(), failing)
		}
	})
}
