package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"
)

// The everyday tools through the real binary: the echo model calls each
// one ("call <tool> <json>"), the terminal answers its approval, and the
// test checks what the terminal printed, what the model was given (the
// echo model quotes the first line of a tool result as "Tool result: …")
// and the bytes on disk.

// callLine is the echo model's line calling tool with args.
func callLine(tool string, args any) string {
	b, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return "call " + tool + " " + string(b)
}

// toolChat runs one message calling tool in a headless chat; answer is
// what the terminal answers an approval ("" declines: not interactive).
func (h *host) toolChat(answer, tool string, args any, extra ...string) cliResult {
	h.t.Helper()
	base := []string{"--model", xdevEchoModel, "--prompt", callLine(tool, args)}
	if answer == "" {
		base = append(base, "--non-interactive")
	}
	return h.headless(answer, append(base, extra...)...)
}

func (h *host) writeFile(rel string, data []byte) {
	h.t.Helper()
	p := filepath.Join(h.workdir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		h.t.Fatal(err)
	}
}

// fileIs fails t unless rel holds exactly want.
func (h *host) fileIs(t *testing.T, rel string, want []byte, r cliResult) {
	t.Helper()
	got, err := os.ReadFile(filepath.Join(h.workdir, filepath.FromSlash(rel)))
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s holds %q (%v), want %q\nstdout:\n%s\nstderr:\n%s", rel, got, err, want, r.stdout, r.stderr)
	}
}

// saw fails unless the chat's output holds every want.
func saw(t *testing.T, r cliResult, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(r.stdout+r.stderr, w) {
			t.Errorf("no %q in the output (exit %d):\nstdout:\n%s\nstderr:\n%s", w, r.code, r.stdout, r.stderr)
		}
	}
}

func TestHeadlessReadingTools(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	var lines strings.Builder
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&lines, "line %d\n", i)
	}
	h.writeFile("lines.txt", []byte(lines.String()))
	h.writeFile("src/hello.go", []byte("package src\n\nfunc Hello() string { return \"hi\" }\n"))
	h.writeFile("src/deep/util.go", []byte("package deep\n\n// Hello is not here\nfunc Other() {}\n"))
	h.writeFile("docs/readme.md", []byte("# Hello docs\n"))
	h.writeFile("bin.dat", []byte("\x00\x01\x02binary\x00"))
	h.writeFile("hello.bin", []byte("func Hello\x00"))
	h.writeFile(".gitignore", []byte("build/\n"))
	h.writeFile("build/gen.go", []byte("package build\n\nfunc Hello() {}\n"))
	if err := os.WriteFile(filepath.Join(filepath.Dir(h.workdir), "outside.txt"), []byte("secret outside"), 0o644); err != nil {
		t.Fatal(err)
	}

	t.Run("read_file window", func(t *testing.T) {
		r := h.toolChat("", "read_file", map[string]any{"path": "lines.txt", "offset": 3, "limit": 2})
		saw(t, r, "line 4", "line 5", "offset=5")
		if strings.Contains(r.stdout, "line 3") || strings.Contains(r.stdout, "line 6") {
			t.Errorf("read outside the window:\n%s", r.stdout)
		}
	})
	t.Run("read_file outside the workspace", func(t *testing.T) {
		r := h.toolChat("", "read_file", map[string]any{"path": "../outside.txt"})
		saw(t, r, "outside the workspace")
		if strings.Contains(r.stdout, "secret outside") {
			t.Errorf("a file outside the workspace was read:\n%s", r.stdout)
		}
	})
	t.Run("read_file binary file", func(t *testing.T) {
		r := h.toolChat("", "read_file", map[string]any{"path": "bin.dat"})
		saw(t, r, "binary file bin.dat")
	})
	t.Run("glob", func(t *testing.T) {
		r := h.toolChat("", "glob", map[string]any{"pattern": "**/*.go"})
		saw(t, r, "src/hello.go", "src/deep/util.go")
		if strings.Contains(r.stdout, "readme.md") || strings.Contains(r.stdout, "build/gen.go") {
			t.Errorf("glob matched a .md file or an ignored one:\n%s", r.stdout)
		}
	})
	t.Run("grep", func(t *testing.T) {
		r := h.toolChat("", "grep", map[string]any{"pattern": "func Hello"})
		saw(t, r, "src/hello.go")
		if strings.Contains(r.stdout, "hello.bin") || strings.Contains(r.stdout, "util.go") || strings.Contains(r.stdout, "build/gen.go") {
			t.Errorf("grep matched what it should not:\n%s", r.stdout)
		}
	})
	t.Run("grep caps its output", func(t *testing.T) {
		var many strings.Builder
		for i := 1; i <= 300; i++ {
			fmt.Fprintf(&many, "match %d\n", i)
		}
		h.writeFile("many.txt", []byte(many.String()))
		r := h.toolChat("", "grep", map[string]any{"pattern": "^match", "path": "many.txt"}, "--json")
		saw(t, r, `many.txt:200:match 200\n... (truncated at 200 matches)`)
		if strings.Contains(r.stdout, "many.txt:201:") {
			t.Errorf("grep went past its cap:\n%.2000s", r.stdout)
		}
	})
	t.Run("list_dir", func(t *testing.T) {
		r := h.toolChat("", "list_dir", map[string]any{"path": "src"})
		saw(t, r, "hello.go", "deep/")
	})
	t.Run("ls recursive", func(t *testing.T) {
		r := h.toolChat("", "ls", map[string]any{"path": "src", "recursive": true})
		saw(t, r, "hello.go", "util.go")
	})
	t.Run("list_dir outside the workspace", func(t *testing.T) {
		r := h.toolChat("", "list_dir", map[string]any{"path": ".."})
		saw(t, r, "outside the workspace")
	})
}

func TestHeadlessEditingTools(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")

	t.Run("write_file", func(t *testing.T) {
		r := h.toolChat("o\n", "write_file", map[string]any{"path": "new/hello.txt", "content": "hello\nworld\n"})
		saw(t, r, "+++ b/new/hello.txt", "+hello", "+world")
		h.fileIs(t, "new/hello.txt", []byte("hello\nworld\n"), r)
	})
	t.Run("edit_file", func(t *testing.T) {
		h.writeFile("notes.txt", []byte("one\ntwo\nthree\n"))
		r := h.toolChat("o\n", "edit_file", map[string]any{"path": "notes.txt", "old_string": "two", "new_string": "2"})
		saw(t, r, "--- a/notes.txt", "-two", "+2")
		h.fileIs(t, "notes.txt", []byte("one\n2\nthree\n"), r)
	})
	t.Run("edit_file not found", func(t *testing.T) {
		h.writeFile("notes.txt", []byte("one\ntwo\nthree\n"))
		r := h.toolChat("o\n", "edit_file", map[string]any{"path": "notes.txt", "old_string": "four", "new_string": "4"})
		saw(t, r, "Tool result: error: old_string not found in notes.txt")
		if strings.Contains(r.stderr, "Allow edit_file") {
			t.Errorf("a change that cannot be made was asked about:\n%s", r.stderr)
		}
		h.fileIs(t, "notes.txt", []byte("one\ntwo\nthree\n"), r)
	})
	t.Run("edit_file not unique", func(t *testing.T) {
		h.writeFile("dup.txt", []byte("x = 1\ny = 2\nx = 1\n"))
		r := h.toolChat("o\n", "edit_file", map[string]any{"path": "dup.txt", "old_string": "x = 1", "new_string": "x = 3"})
		saw(t, r, "Tool result: error: old_string is not unique in dup.txt (2 matches at line 1, line 3)")
		h.fileIs(t, "dup.txt", []byte("x = 1\ny = 2\nx = 1\n"), r)
	})
	t.Run("multi_edit", func(t *testing.T) {
		h.writeFile("multi.txt", []byte("alpha\nbeta\ngamma\n"))
		r := h.toolChat("o\n", "multi_edit", map[string]any{"path": "multi.txt", "edits": []map[string]any{
			{"old_string": "alpha", "new_string": "ALPHA"}, {"old_string": "gamma", "new_string": "GAMMA"}}})
		saw(t, r, "-alpha", "+ALPHA", "-gamma", "+GAMMA", "2 edits applied")
		h.fileIs(t, "multi.txt", []byte("ALPHA\nbeta\nGAMMA\n"), r)
	})
	t.Run("multi_edit all or none", func(t *testing.T) {
		h.writeFile("multi.txt", []byte("alpha\nbeta\n"))
		r := h.toolChat("o\n", "multi_edit", map[string]any{"path": "multi.txt", "edits": []map[string]any{
			{"old_string": "alpha", "new_string": "ALPHA"}, {"old_string": "zeta", "new_string": "ZETA"}}})
		saw(t, r, "Tool result: error: edit 2: old_string not found in multi.txt")
		h.fileIs(t, "multi.txt", []byte("alpha\nbeta\n"), r)
	})
	t.Run("move_file onto an existing file", func(t *testing.T) {
		h.writeFile("a.txt", []byte("a\n"))
		h.writeFile("b.txt", []byte("b\n"))
		r := h.toolChat("o\n", "move_file", map[string]any{"source_path": "a.txt", "destination_path": "b.txt"})
		saw(t, r, "Tool result: error: destination b.txt already exists")
		h.fileIs(t, "a.txt", []byte("a\n"), r)
		h.fileIs(t, "b.txt", []byte("b\n"), r)
	})
	t.Run("move_file", func(t *testing.T) {
		h.writeFile("from.txt", []byte("moving\n"))
		r := h.toolChat("o\n", "move_file", map[string]any{"source_path": "from.txt", "destination_path": "to/dest.txt"})
		saw(t, r, "moved from.txt to to/dest.txt")
		h.fileIs(t, "to/dest.txt", []byte("moving\n"), r)
		if _, err := os.Stat(filepath.Join(h.workdir, "from.txt")); !os.IsNotExist(err) {
			t.Errorf("the source is still there: %v", err)
		}
	})
	t.Run("write_file outside the workspace", func(t *testing.T) {
		r := h.toolChat("o\n", "write_file", map[string]any{"path": "../escaped.txt", "content": "x"})
		saw(t, r, "outside the workspace")
		if _, err := os.Stat(filepath.Join(filepath.Dir(h.workdir), "escaped.txt")); !os.IsNotExist(err) {
			t.Errorf("a file was written outside the workspace: %v", err)
		}
	})
	t.Run("edit_file binary file", func(t *testing.T) {
		h.writeFile("bin.dat", []byte("ab\x00cd"))
		r := h.toolChat("o\n", "edit_file", map[string]any{"path": "bin.dat", "old_string": "ab", "new_string": "xy"})
		saw(t, r, "binary file bin.dat")
		h.fileIs(t, "bin.dat", []byte("ab\x00cd"), r)
	})
	t.Run("edit_file too large", func(t *testing.T) {
		f, err := os.Create(filepath.Join(h.workdir, "huge.txt"))
		if err == nil {
			err = f.Truncate(17 << 20) // sparse: the size is what is refused
			f.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
		r := h.toolChat("o\n", "edit_file", map[string]any{"path": "huge.txt", "old_string": "a", "new_string": "b"})
		saw(t, r, "huge.txt is too large for edit_file")
	})
	t.Run("GB18030 stays GB18030", func(t *testing.T) {
		enc := simplifiedchinese.GB18030.NewEncoder()
		before, err := enc.Bytes([]byte("你好，世界\n第二行\n"))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := simplifiedchinese.GB18030.NewEncoder().Bytes([]byte("你好，朋友\n第二行\n"))
		h.writeFile("gb.txt", before)
		r := h.toolChat("o\n", "edit_file", map[string]any{"path": "gb.txt", "old_string": "世界", "new_string": "朋友"})
		saw(t, r, "-你好，世界", "+你好，朋友")
		h.fileIs(t, "gb.txt", want, r)
	})
	t.Run("CRLF stays CRLF", func(t *testing.T) {
		h.writeFile("crlf.txt", []byte("a\r\nb\r\nc\r\n"))
		r := h.toolChat("o\n", "edit_file", map[string]any{"path": "crlf.txt", "old_string": "b", "new_string": "B\nB2"})
		h.fileIs(t, "crlf.txt", []byte("a\r\nB\r\nB2\r\nc\r\n"), r)
	})
	t.Run("denied, nothing is written", func(t *testing.T) {
		h.writeFile("keep.txt", []byte("keep\nme\n"))
		r := h.toolChat("n\n", "edit_file", map[string]any{"path": "keep.txt", "old_string": "me", "new_string": "you"})
		i, j := strings.Index(r.stderr, "+you"), strings.Index(r.stderr, "[o]nce")
		if i < 0 || j < 0 || i > j {
			t.Errorf("the approval does not show the diff before its question:\n%s", r.stderr)
		}
		saw(t, r, "Allow edit_file", "-me", "edit_file", "denied")
		h.fileIs(t, "keep.txt", []byte("keep\nme\n"), r)
	})
}
