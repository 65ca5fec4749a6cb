package rewind

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkRecordEdit is the journal's cost of one edit_file call in a
// chain of edits of one file: the Before is the last call's After, already
// stored, so each call writes one blob (atomically) and fsyncs one line.
func BenchmarkRecordEdit(b *testing.B) {
	for _, size := range []int{10 << 10, 5 << 20} {
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) {
			j, err := Open(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			base := bytes.Repeat([]byte("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n"), size/64)
			b.SetBytes(int64(len(base)))
			version := func(i int) []byte { return append([]byte(fmt.Sprintf("%d\n", i)), base...) }
			i := 0
			for b.Loop() {
				i++
				if err := j.Record(Entry{MessageIndex: i, Changes: []Change{{Rel: "big.txt", Before: version(i - 1), After: version(i)}}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPlanAHundredFiles plans a rewind over 400 edits of 100 files of
// 10 KB: every file read and hashed, every first Before read back.
func BenchmarkPlanAHundredFiles(b *testing.B) {
	j, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	ws := b.TempDir()
	body := bytes.Repeat([]byte("line of text\n"), 10<<10/13)
	for round := range 4 {
		for f := range 100 {
			rel := fmt.Sprintf("pkg%d/f%d.go", f%10, f)
			var before []byte
			if round > 0 {
				before = append([]byte(fmt.Sprintf("%d\n", round-1)), body...)
			}
			after := append([]byte(fmt.Sprintf("%d\n", round)), body...)
			if err := j.Record(Entry{MessageIndex: round * 2, Changes: []Change{{Rel: rel, Before: before, After: after}}}); err != nil {
				b.Fatal(err)
			}
			p := filepath.Join(ws, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(p, after, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	for b.Loop() {
		p, err := j.Plan(ws, 2)
		if err != nil || len(p.Files) != 100 || len(p.Conflicts) != 0 {
			b.Fatalf("%d files, %v, %v", len(p.Files), p.Conflicts, err)
		}
	}
}
