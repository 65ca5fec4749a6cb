// Package flaky is benchtable's test fixture: one benchmark that reports a
// figure and one that fails, in the same package.
package flaky

import "testing"

func BenchmarkGood(b *testing.B) {
	for b.Loop() {
	}
	b.ReportMetric(42, "things/s")
}

func BenchmarkBad(b *testing.B) {
	b.Fatal("the reason it failed: 7f3a")
}
