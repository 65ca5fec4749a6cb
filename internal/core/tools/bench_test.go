package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/foundation/atomicfile"
)

// The tree grep is measured on: 50,000 files of 20 lines in 500 folders,
// 100 of them holding one match. It is built once and kept in the temp
// folder (a marker file written last says it is whole), as make bench runs
// each benchmark in a process of its own, round after round.
const (
	benchFiles   = 50000
	benchMatches = 100
	benchPattern = `NEEDLE_[0-9]+`
)

var (
	treeOnce sync.Once
	treeDir  string
	treeErr  error
)

func grepTree(b *testing.B) string {
	b.Helper()
	treeOnce.Do(func() {
		treeDir = filepath.Join(os.TempDir(), "reasonix-tools-bench-grep50k-v1")
		if _, err := os.Stat(filepath.Join(treeDir, ".complete")); err == nil {
			return
		}
		if treeErr = os.RemoveAll(treeDir); treeErr != nil {
			return
		}
		line := strings.Repeat("lorem ipsum dolor sit amet ", 2) + "\n"
		for i := range benchFiles {
			dir := filepath.Join(treeDir, fmt.Sprintf("d%03d", i/100))
			if i%100 == 0 {
				if treeErr = os.MkdirAll(dir, 0o755); treeErr != nil {
					return
				}
			}
			var buf bytes.Buffer
			for l := range 20 {
				if l == 10 && i%(benchFiles/benchMatches) == 0 {
					fmt.Fprintf(&buf, "the NEEDLE_%d is here\n", i)
					continue
				}
				buf.WriteString(line)
			}
			if treeErr = os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%05d.txt", i)), buf.Bytes(), 0o644); treeErr != nil {
				return
			}
		}
		treeErr = os.WriteFile(filepath.Join(treeDir, ".complete"), nil, 0o644)
	})
	if treeErr != nil {
		b.Fatalf("grep tree: %v", treeErr)
	}
	return treeDir
}

// BenchmarkGrep50k: the grep tool over the 50,000-file tree.
func BenchmarkGrep50k(b *testing.B) {
	root := grepTree(b)
	args := fmt.Sprintf(`{"pattern":%q}`, benchPattern)
	out, err := run(b, "grep", root, args)
	if err != nil || strings.Count(out, "\n")+1 != benchMatches {
		b.Fatalf("grep found %d lines, %v", strings.Count(out, "\n")+1, err)
	}
	for b.Loop() {
		if _, err := run(b, "grep", root, args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGrepR50k: its baseline, ripgrep when installed, else grep -r,
// on the same tree, its output read as the tool reads its own.
func BenchmarkGrepR50k(b *testing.B) {
	root := grepTree(b)
	cmd := []string{"grep", "-rnE", benchPattern, "."}
	if rg, err := exec.LookPath("rg"); err == nil {
		cmd = []string{rg, "-n", benchPattern, "."}
	}
	b.Logf("baseline: %s", strings.Join(cmd, " "))
	search := func() []byte {
		c := exec.Command(cmd[0], cmd[1:]...)
		c.Dir = root
		out, err := c.Output()
		if err != nil {
			b.Fatalf("%s: %v", cmd[0], err)
		}
		return out
	}
	if n := bytes.Count(search(), []byte("\n")); n != benchMatches {
		b.Fatalf("%s found %d lines", cmd[0], n)
	}
	for b.Loop() {
		search()
	}
}

// bigFile is a 5 MB source-like file with one line to edit in its middle.
func bigFile(b *testing.B) (root string, text []byte) {
	b.Helper()
	root = b.TempDir()
	var buf bytes.Buffer
	for i := 0; buf.Len() < 5<<20; i++ {
		if i == 50000 {
			buf.WriteString("\tvalue := computeTheAnswer() // EDIT ME\n")
			continue
		}
		fmt.Fprintf(&buf, "\tx%06d := compute(%d) + offset\n", i, i)
	}
	writeBytes(b, root, "big.go", buf.Bytes())
	return root, buf.Bytes()
}

// BenchmarkEditFile5MB: edit_file changing one line of a 5 MB file (the
// plan, with its encoding checks, and the atomic, fsync'd write).
func BenchmarkEditFile5MB(b *testing.B) {
	root, _ := bigFile(b)
	there := json.RawMessage(`{"path":"big.go","old_string":"// EDIT ME","new_string":"// EDITED"}`)
	back := json.RawMessage(`{"path":"big.go","old_string":"// EDITED","new_string":"// EDIT ME"}`)
	edit := planned("edit_file")
	i := 0
	for b.Loop() {
		args := there
		if i%2 == 1 {
			args = back
		}
		i++
		if _, err := edit(context.Background(), root, args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadWrite5MB: its baseline, the same change as a plain read,
// replace and write of the file.
func BenchmarkReadWrite5MB(b *testing.B) {
	root, _ := bigFile(b)
	p := filepath.Join(root, "big.go")
	i := 0
	for b.Loop() {
		old, new := []byte("// EDIT ME"), []byte("// EDITED")
		if i%2 == 1 {
			old, new = new, old
		}
		i++
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, bytes.Replace(data, old, new, 1), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadAtomicWrite5MB: the same change read and written through
// atomicfile (temp file, fsync, rename), the floor of a write that a crash
// cannot tear: what the tool adds beyond it is its planning.
func BenchmarkReadAtomicWrite5MB(b *testing.B) {
	root, _ := bigFile(b)
	p := filepath.Join(root, "big.go")
	i := 0
	for b.Loop() {
		old, new := []byte("// EDIT ME"), []byte("// EDITED")
		if i%2 == 1 {
			old, new = new, old
		}
		i++
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		if err := atomicfile.Write(p, bytes.Replace(data, old, new, 1), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}
