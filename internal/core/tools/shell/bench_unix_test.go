//go:build unix

package shell

import (
	"context"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
)

// The cost of run_command beside proc.Run (what run_command was before):
// a command that prints nothing, and one printing 6.9 MB, with and without
// a reporter streaming it.
func BenchmarkRunCommand(b *testing.B) {
	sh := hostShell()
	dir := b.TempDir()
	for _, bc := range []struct {
		name, command string
	}{{"true", "true"}, {"seq1M", "seq 1 1000000"}} {
		b.Run(bc.name+"/proc.Run", func(b *testing.B) {
			for b.Loop() {
				if _, err := proc.Run(context.Background(), proc.Spec{Path: sh.path, Args: []string{"-c", bc.command}, Dir: dir,
					OutputCap: OutputCap, Combined: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bc.name+"/run", func(b *testing.B) {
			for b.Loop() {
				if _, err := run(context.Background(), sh, dir, bc.command, time.Minute, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bc.name+"/run+stream", func(b *testing.B) {
			reports := 0
			for b.Loop() {
				if _, err := run(context.Background(), sh, dir, bc.command, time.Minute, func(string) { reports++ }); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(reports)/float64(b.N), "reports/op")
		})
	}
}
