package tools

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFile(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&b, "line %d\r\n", i)
	}
	writeFile(t, root, "f.txt", b.String())
	writeFile(t, root, "empty.txt", "")
	writeBytes(t, root, "bom.txt", mustEncode(t, "héllo\nworld", UTF8BOM))
	writeBytes(t, root, "sjis.txt", mustEncode(t, "これは日本語です\n", ShiftJIS))
	tests := []struct{ args, want string }{
		{`{"path":"f.txt","limit":2}`, "1→line 1\n2→line 2\n\n[more lines below; pass offset=2 to continue]\n"},
		{`{"path":"f.txt","offset":10}`, "11→line 11\n12→line 12\n"},
		{`{"path":"f.txt","offset":8,"limit":1}`, "9→line 9\n\n[more lines below; pass offset=9 to continue]\n"},
		{`{"path":"f.txt","offset":12}`, "(offset 12 is past EOF — file has 12 lines)"},
		{`{"path":"empty.txt"}`, "(empty file)"},
		{`{"path":"bom.txt"}`, "1→héllo\n2→world\n"},
		{`{"path":"sjis.txt"}`, "1→これは日本語です\n"},
	}
	for _, tt := range tests {
		if out, err := run(t, "read_file", root, tt.args); err != nil || out != tt.want {
			t.Errorf("read_file %s = %q, %v; want %q", tt.args, out, err, tt.want)
		}
	}
}

// A window bigger than the output cap stops at a whole line and says
// where to go on; a single huge line is cut.
func TestReadFileCaps(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	line := strings.Repeat("x", 1000)
	writeFile(t, root, "big.txt", strings.Repeat(line+"\n", 1000))
	out, err := run(t, "read_file", root, `{"path":"big.txt"}`)
	if err != nil || len(out) > ReadOutputCap+100 || !strings.Contains(out, "[output capped at 256 KiB; pass offset=260 to continue]") {
		t.Fatalf("%d bytes, %v, tail %q", len(out), err, out[max(0, len(out)-100):])
	}
	writeFile(t, root, "long.txt", strings.Repeat("y", 3*ReadOutputCap)+"\nnext\n")
	out, err = run(t, "read_file", root, `{"path":"long.txt"}`)
	if err != nil || !strings.Contains(out, "… [line cut at 256 KiB]") || len(out) > ReadOutputCap+100 {
		t.Fatalf("%d bytes, %v", len(out), err)
	}
}

func TestLs(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeFile(t, root, "b.txt", "12345")
	writeFile(t, root, "a/x.go", "x")
	writeFile(t, root, ".git/HEAD", "ref")
	writeFile(t, root, "node_modules/m/i.js", "x")
	if out, err := run(t, "ls", root, `{}`); err != nil || out != ".git/\na/\nb.txt\t5\nnode_modules/\n" {
		t.Fatalf("ls = %q %v", out, err)
	}
	if out, err := run(t, "ls", root, `{"path":".","recursive":true}`); err != nil || out != "a/\na/x.go\t1\nb.txt\t5\n" {
		t.Fatalf("ls -R = %q %v", out, err)
	}
	if out, err := run(t, "list_dir", root, `{"path":"."}`); err != nil || out != ".git/\na/\nb.txt\nnode_modules/" {
		t.Fatalf("list_dir = %q %v", out, err)
	}
	if _, err := run(t, "ls", root, `{"path":"nope"}`); err == nil || !contains(err.Error(), "nope not found") {
		t.Fatalf("ls nope: %v", err)
	}
	writeFile(t, root, "e/.keep", "")
	if out, _ := run(t, "ls", root, `{"path":"e/.keep/.."}`); out != ".keep\t0\n" {
		t.Fatalf("ls e = %q", out)
	}
}

// A FIFO is refused at once: opening it would wait for a writer forever.
func TestNotARegularFile(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if err := mkfifo(filepath.Join(root, "pipe")); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	for _, c := range []struct{ tool, args string }{
		{"read_file", `{"path":"pipe"}`},
		{"grep", `{"pattern":"x","path":"pipe"}`},
		{"edit_file", `{"path":"pipe","old_string":"a","new_string":"b"}`},
		{"write_file", `{"path":"pipe","content":"b"}`},
		{"move_file", `{"source_path":"pipe","destination_path":"p2"}`},
	} {
		if out, err := run(t, c.tool, root, c.args); err == nil || !strings.Contains(err.Error(), "pipe is not a regular file") {
			t.Errorf("%s = %q, %v", c.tool, out, err)
		}
	}
}
