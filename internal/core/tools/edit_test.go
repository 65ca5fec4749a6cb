package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestEditFile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, args, want, result, err string
	}{
		{name: "exact", file: "a\nb\nc\n", args: `{"old_string":"b","new_string":"B"}`, want: "a\nB\nc\n", result: "edited f.txt"},
		{name: "delete", file: "a\nb\nc\n", args: `{"old_string":"b\n","new_string":""}`, want: "a\nc\n"},
		{name: "crlf kept", file: "one\r\ntwo\r\nthree\r\n", args: `{"old_string":"one\ntwo\n","new_string":"1\n2\n"}`, want: "1\r\n2\r\nthree\r\n"},
		{name: "crlf kept by one line made two", file: "a\r\nb\r\nc\r\n", args: `{"old_string":"b","new_string":"B\nB2"}`, want: "a\r\nB\r\nB2\r\nc\r\n"},
		{name: "lf file stays lf", file: "a\nb\nc\n", args: `{"old_string":"b","new_string":"B\nB2"}`, want: "a\nB\nB2\nc\n"},
		{name: "trailing blanks", file: "func f() {  \n\treturn 1\n}\n", args: `{"old_string":"func f() {\n\treturn 1","new_string":"func f() {\n\treturn 2"}`,
			want: "func f() {\n\treturn 2\n}\n", result: "edited f.txt (fuzzy match)"},
		{name: "tabs as spaces", file: "x\n\tif a {\n\t\tb()\n\t}\n", args: `{"old_string":"    if a {\n        b()","new_string":"\tif a {\n\t\tc()"}`,
			want: "x\n\tif a {\n\t\tc()\n\t}\n", result: "(fuzzy match)"},
		{name: "indentation", file: "  x := 1\n  y := 2\n", args: `{"old_string":"x := 1\ny := 2","new_string":"  x := 3\n  y := 4"}`, want: "  x := 3\n  y := 4\n"},
		{name: "fuzzy in crlf", file: "a  \r\nb\r\n", args: `{"old_string":"a\nb","new_string":"c\nd"}`, want: "c\r\nd\r\n"},
		{name: "replace_all", file: "x x x\n", args: `{"old_string":"x","new_string":"y","replace_all":true}`, want: "y y y\n", result: "(3 replacements)"},
		{name: "not unique", file: "x\ny\nx\ny\nx\n", args: `{"old_string":"x","new_string":"z"}`,
			err: "old_string is not unique in f.txt (3 matches at line 1, line 3, line 5); add more surrounding context"},
		{name: "not found nearest", file: "func main() {\n\tfmt.Println(\"hi\")\n}\n", args: `{"old_string":"func main() {\n\tfmt.Printf(\"hi\")","new_string":"x"}`,
			err: "old_string not found in f.txt. Nearest match at line 1:\n  expected: «func main() {↵→fmt.Printf(\"hi\")»\n  actual:   «func main() {↵→fmt.Println(\"hi\")»"},
		{name: "not found at all", file: "abc\n", args: `{"old_string":"zzzz","new_string":"x"}`, err: "old_string not found in f.txt (no close match found)"},
		{name: "fuzzy twice is no match", file: "a \nb\na\t\nb\n", args: `{"old_string":"a\nb","new_string":"x"}`, err: "not found"},
		{name: "empty old", file: "a", args: `{"old_string":"","new_string":"x"}`, err: "old_string is required"},
		{name: "unknown argument", file: "a", args: `{"old_string":"a","new_string":"b","file_path":"x"}`, err: "invalid arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			writeFile(t, root, "f.txt", tt.file)
			var args map[string]any
			if err := json.Unmarshal([]byte(tt.args), &args); err != nil {
				t.Fatal(err)
			}
			args["path"] = "f.txt"
			raw, _ := json.Marshal(args)
			out, err := run(t, "edit_file", root, string(raw))
			if tt.err != "" {
				if err == nil || !contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				if got := readBack(t, root, "f.txt"); got != tt.file {
					t.Fatalf("a failed edit changed the file: %q", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !contains(out, tt.result) {
				t.Errorf("result %q, want %q", out, tt.result)
			}
			if got := readBack(t, root, "f.txt"); got != tt.want {
				t.Fatalf("file = %q, want %q", got, tt.want)
			}
		})
	}
}

// An edit keeps the file's encoding: the bytes it did not touch are the
// same and the new text is in the file's encoding.
func TestEditKeepsEncoding(t *testing.T) {
	t.Parallel()
	for _, enc := range []string{GB18030, Big5, ShiftJIS, UTF8BOM, UTF16LE, UTF16BE, UTF16LENoBOM, UTF16BENoBOM} {
		t.Run(enc, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			before := "// 中文說明文字です\r\nvalue = 1\r\n"
			if enc == ShiftJIS {
				before = "// これは日本語のコメントです\r\nvalue = 1\r\n"
			}
			writeBytes(t, root, "f.txt", mustEncode(t, before, enc))
			if _, err := run(t, "edit_file", root, `{"path":"f.txt","old_string":"value = 1\n","new_string":"value = 2 // 二\n"}`); err != nil {
				t.Fatal(err)
			}
			want := mustEncode(t, strings.Replace(before, "value = 1", "value = 2 // 二", 1), enc)
			if got := readBack(t, root, "f.txt"); got != string(want) {
				t.Fatalf("file bytes %x, want %x", got, want)
			}
			out, err := run(t, "read_file", root, `{"path":"f.txt"}`)
			if err != nil || !contains(out, "value = 2 // 二") || !contains(out, "1→//") {
				t.Fatalf("read back: %q %v", out, err)
			}
		})
	}
}

func TestEditRefusals(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeBytes(t, root, "bin.dat", []byte("abc\x00def"))
	big := bytes.Repeat([]byte("x"), MaxEditSize+1)
	writeBytes(t, root, "big.txt", big)
	if err := os.Mkdir(filepath.Join(root, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ tool, args, err string }{
		{"edit_file", `{"path":"missing.txt","old_string":"a","new_string":"b"}`, "missing.txt not found"},
		{"edit_file", `{"path":"bin.dat","old_string":"abc","new_string":"b"}`, "binary file bin.dat (NUL byte detected)"},
		{"edit_file", `{"path":"big.txt","old_string":"x","new_string":"y"}`, "big.txt is too large for edit_file (16777217 bytes; the limit is 16 MiB)"},
		{"edit_file", `{"path":"dir","old_string":"x","new_string":"y"}`, "dir is a directory"},
		{"multi_edit", `{"path":"missing.txt","edits":[{"old_string":"a","new_string":"b"}]}`, "missing.txt not found"},
		{"multi_edit", `{"path":"bin.dat","edits":[{"old_string":"a","new_string":"b"}]}`, "binary file"},
		{"multi_edit", `{"path":"big.txt","edits":[]}`, "edits must not be empty"},
		{"move_file", `{"source_path":"missing.txt","destination_path":"b.txt"}`, "missing.txt not found"},
		{"move_file", `{"source_path":"big.txt","destination_path":"b.txt"}`, "too large"},
		{"move_file", `{"source_path":"bin.dat","destination_path":"big.txt"}`, "destination big.txt already exists"},
		{"move_file", `{"source_path":"dir","destination_path":"d2"}`, "dir is a directory; move_file only moves files"},
		{"read_file", `{"path":"missing.txt"}`, "missing.txt not found"},
		{"read_file", `{"path":"bin.dat"}`, "binary file bin.dat (NUL byte detected); read_file shows text files only"},
		{"read_file", `{"path":"dir"}`, "dir is a directory, not a file — use the ls tool"},
	}
	for _, tt := range tests {
		if out, err := run(t, tt.tool, root, tt.args); err == nil || !contains(err.Error(), tt.err) {
			t.Errorf("%s %s = %q, %v; want %q", tt.tool, tt.args, out, err, tt.err)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(root, "bin.dat")); string(data) != "abc\x00def" {
		t.Fatal("a refused call changed a file")
	}
}

func TestMultiEditIsAllOrNothingAndInOrder(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeFile(t, root, "f.go", "a := 1\nb := a\nc := a\n")
	_, err := run(t, "multi_edit", root, `{"path":"f.go","edits":[{"old_string":"a := 1","new_string":"x := 1"},{"old_string":"nope","new_string":"y"}]}`)
	if err == nil || !contains(err.Error(), "edit 2: old_string not found in f.go") {
		t.Fatalf("err = %v", err)
	}
	if got := readBack(t, root, "f.go"); got != "a := 1\nb := a\nc := a\n" {
		t.Fatalf("a failed multi_edit changed the file: %q", got)
	}
	// The second step sees the first's result: "a" is unique only after it.
	out, err := run(t, "multi_edit", root, `{"path":"f.go","edits":[{"old_string":"b := a\nc := a","new_string":"b := x\nc := x"},{"old_string":"a := 1","new_string":"x := 1"},{"old_string":"x","new_string":"v","replace_all":true}]}`)
	if err != nil || out != "multi_edit f.go: 3 edits applied (5 total replacements)" {
		t.Fatalf("%q %v", out, err)
	}
	if got := readBack(t, root, "f.go"); got != "v := 1\nb := v\nc := v\n" {
		t.Fatalf("file %q", got)
	}
	_, err = run(t, "multi_edit", root, `{"path":"f.go","edits":[{"old_string":"v","new_string":"w"}]}`)
	if err == nil || !contains(err.Error(), "edit 1: old_string is not unique in f.go (3 matches at line 1, line 2, line 3)") {
		t.Fatalf("err = %v", err)
	}
}

func TestWriteFile(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	out, err := run(t, "write_file", root, `{"path":"d/e/new.txt","content":"line1\nline2"}`)
	if err != nil || out != "wrote 11 bytes to d/e/new.txt" || readBack(t, root, "d/e/new.txt") != "line1\nline2" {
		t.Fatalf("%q %v", out, err)
	}
	out, err = run(t, "write_file", root, `{"path":"d/e/new.txt","content":"line1\nline2"}`)
	if err != nil || out != "d/e/new.txt already contains the exact content; no changes made" {
		t.Fatalf("%q %v", out, err)
	}
	writeBytes(t, root, "gb.txt", mustEncode(t, "旧的内容\n", GB18030))
	if _, err := run(t, "write_file", root, `{"path":"gb.txt","content":"新的内容\n"}`); err != nil {
		t.Fatal(err)
	}
	if got := readBack(t, root, "gb.txt"); got != string(mustEncode(t, "新的内容\n", GB18030)) {
		t.Fatalf("write_file did not keep GB18030: %x", got)
	}
}

func TestMoveFile(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeFile(t, root, "a.txt", "content\n")
	if err := os.Chmod(filepath.Join(root, "a.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	e, err := PlanEdit(context.Background(), root, "move_file", json.RawMessage(`{"source_path":"a.txt","destination_path":"sub/b.txt"}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Changes) != 1 || e.Changes[0].Rel != "a.txt" || e.Changes[0].NewRel != "sub/b.txt" || string(e.Changes[0].After) != "content\n" {
		t.Fatalf("plan %+v", e.Changes)
	}
	if _, err := os.Stat(filepath.Join(root, "sub")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("planning wrote something")
	}
	out, err := e.Apply(root)
	if err != nil || out != "moved a.txt to sub/b.txt" {
		t.Fatalf("%q %v", out, err)
	}
	st, err := os.Stat(filepath.Join(root, "sub", "b.txt"))
	if err != nil || runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 { // Windows has no such modes
		t.Fatalf("moved file: %v %v", st, err)
	}
	if _, err := os.Stat(filepath.Join(root, "a.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("source still there")
	}
}

// A plan writes nothing; Apply writes exactly the planned bytes and keeps
// the file's mode, and refuses when the file changed in between.
func TestPlanThenApply(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeFile(t, root, "f.sh", "echo one\n")
	if err := os.Chmod(filepath.Join(root, "f.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	args := json.RawMessage(`{"path":"f.sh","old_string":"one","new_string":"two"}`)
	e, err := PlanEdit(context.Background(), root, "edit_file", args)
	if err != nil {
		t.Fatal(err)
	}
	if readBack(t, root, "f.sh") != "echo one\n" {
		t.Fatal("PlanEdit wrote")
	}
	c := e.Changes[0]
	if e.Tool != "edit_file" || c.Rel != "f.sh" || string(c.Before) != "echo one\n" || string(c.After) != "echo two\n" || c.Encoding != UTF8 {
		t.Fatalf("plan %+v", e)
	}
	out, err := e.Apply(root)
	if err != nil || out != "edited f.sh" || readBack(t, root, "f.sh") != "echo two\n" {
		t.Fatalf("%q %v", out, err)
	}
	if st, _ := os.Stat(filepath.Join(root, "f.sh")); runtime.GOOS != "windows" && st.Mode().Perm() != 0o755 {
		t.Fatalf("mode %v", st.Mode())
	}

	// Changed between the plan (what the user approved) and the write.
	e, err = PlanEdit(context.Background(), root, "edit_file", json.RawMessage(`{"path":"f.sh","old_string":"two","new_string":"three"}`))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "f.sh", "echo two\necho user\n")
	if _, err := e.Apply(root); !errors.Is(err, ErrChangedSincePreview) {
		t.Fatalf("err = %v, want ErrChangedSincePreview", err)
	}
	if readBack(t, root, "f.sh") != "echo two\necho user\n" {
		t.Fatal("the user's change was overwritten")
	}
	// A file planned as new that appeared meanwhile.
	e, err = PlanEdit(context.Background(), root, "write_file", json.RawMessage(`{"path":"new.txt","content":"x"}`))
	if err != nil || e.Changes[0].Before != nil {
		t.Fatalf("%+v %v", e, err)
	}
	writeFile(t, root, "new.txt", "mine")
	if _, err := e.Apply(root); !errors.Is(err, ErrChangedSincePreview) {
		t.Fatalf("err = %v", err)
	}
	if !Plans("edit_file") || !Plans("move_file") || Plans("read_file") || Plans("run_command") {
		t.Fatal("Plans")
	}
}

// FuzzEditMatch: replace never panics; when it succeeds without the fuzzy
// fallback the new text is in the result and the text around the match is
// kept; an exact unique match replaces exactly that occurrence.
func FuzzEditMatch(f *testing.F) {
	f.Add("a\nb\nc\n", "b", "B", false)
	f.Add("a\r\nb\r\n", "a\nb", "x\ny", false)
	f.Add("  x  \n\ty\n", "x\n    y", "z", false)
	f.Add("x x", "x", "", true)
	f.Fuzz(func(t *testing.T, text, old, new string, all bool) {
		out, n, fuzzy, err := replace(text, old, new, all)
		if err != nil {
			if old != "" && !all && strings.Count(text, old) == 1 {
				t.Fatalf("a unique exact match failed: %v", err)
			}
			_ = diagnose(err, "f", old, text)
			return
		}
		if n < 1 {
			t.Fatalf("success with %d replacements", n)
		}
		if !fuzzy && !all && strings.Count(text, old) == 1 {
			i := strings.Index(text, old)
			if crlf := strings.Count(text, "\r\n"); crlf > 0 && crlf*2 > strings.Count(text, "\n") {
				new = toCRLF(new) // a CRLF file stays CRLF
			}
			if out != text[:i]+new+text[i+len(old):] {
				t.Fatalf("unique replace gave %q", out)
			}
		}
	})
}

func TestEncodingLimits(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeBytes(t, root, "b5.txt", mustEncode(t, "這是中文\n", Big5))
	_, err := run(t, "edit_file", root, `{"path":"b5.txt","old_string":"中文","new_string":"한국어"}`)
	if err == nil || !contains(err.Error(), "the new text for b5.txt has characters big5 cannot encode") {
		t.Fatalf("err = %v", err)
	}
	// Bytes that do not read back the same in their encoding (here a
	// UTF-16 file with a lone surrogate) are not rewritten by an edit...
	odd := append([]byte{0xFF, 0xFE}, 'a', 0, 0x00, 0xD8, 'b', 0)
	writeBytes(t, root, "odd.txt", odd)
	if _, err := run(t, "edit_file", root, `{"path":"odd.txt","old_string":"b","new_string":"c"}`); err == nil || !contains(err.Error(), "does not read back byte for byte as utf-16le") {
		t.Fatalf("err = %v", err)
	}
	if readBack(t, root, "odd.txt") != string(odd) {
		t.Fatal("the odd file changed")
	}
	// ...but write_file replaces them whole, in the file's encoding.
	if _, err := run(t, "write_file", root, `{"path":"odd.txt","content":"new"}`); err != nil {
		t.Fatal(err)
	}
	if got := readBack(t, root, "odd.txt"); got != string(mustEncode(t, "new", UTF16LE)) {
		t.Fatalf("odd.txt = %x", got)
	}
	// An edit in a forced encoding.
	writeBytes(t, root, "forced.txt", mustEncode(t, "中文\n", GB18030))
	if _, err := run(t, "edit_file", root, `{"path":"forced.txt","old_string":"中文","new_string":"汉字","encoding":"GBK"}`); err != nil {
		t.Fatal(err)
	}
	if got := readBack(t, root, "forced.txt"); got != string(mustEncode(t, "汉字\n", GB18030)) {
		t.Fatalf("forced.txt = %x", got)
	}
}

// An Edit made by hand (as rewind makes one) deletes a file whose After is
// nil, and checks its Before first like any other.
func TestApplyDeletes(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeFile(t, root, "gone.txt", "bye\n")
	e := &Edit{Changes: []FileChange{{Rel: "gone.txt", Before: []byte("other\n")}}, Summary: "deleted"}
	if _, err := e.Apply(root); !errors.Is(err, ErrChangedSincePreview) {
		t.Fatalf("err = %v", err)
	}
	e.Changes[0].Before = []byte("bye\n")
	if out, err := e.Apply(root); err != nil || out != "deleted" {
		t.Fatalf("%q %v", out, err)
	}
	if _, err := os.Stat(filepath.Join(root, "gone.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("not deleted")
	}
	if d := e.Diffs(); len(d) != 1 || d[0].OldPath != "gone.txt" || d[0].NewPath != "" || d[0].Removed != 1 {
		t.Fatalf("diff %+v", d)
	}
}
