package tools

import (
	"fmt"
	"strings"
	"testing"
)

func searchTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for rel, content := range map[string]string{
		"main.go":                "package main\n// TODO: one\n",
		"a/b/deep.go":            "package b\nfunc Deep() {} // TODO: deep\n",
		"a/b/deep_test.go":       "package b\n",
		"a/notes.md":             "TODO in markdown\n",
		"build/out.go":           "// TODO: generated\n",
		"logs/app.log":           "TODO log\n",
		"logs/keep.log":          "TODO kept\n",
		".hidden/h.go":           "// TODO hidden\n",
		".env":                   "TODO=secret\n",
		".git/config":            "TODO git\n",
		"vendor/v.go":            "// TODO vendored\n",
		"vendor/.gitignore":      "*.go\n!keep.go\n",
		"vendor/keep.go":         "// TODO keep\n",
		"node_modules/m/i.go":    "// TODO module\n",
		".gitignore":             "/build/\n*.log\n!keep.log\n",
		"bin/tool":               "TODO\x00binary",
		"docs/中文.txt":            "",
		"a/b/c/d/e/very_deep.go": "package e\n",
	} {
		writeFile(t, root, rel, content)
	}
	writeBytes(t, root, "gb/说明.txt", mustEncode(t, "第一行\n待办 TODO 中文说明\n", GB18030))
	writeBytes(t, root, "win/w.h", mustEncode(t, "#pragma once\r\n// TODO utf-16\r\n", UTF16LENoBOM))
	return root
}

func TestGlob(t *testing.T) {
	t.Parallel()
	root := searchTree(t)
	tests := []struct{ pattern, want string }{
		{"*.go", "main.go"},
		{"**/*.go", ".hidden/h.go\na/b/c/d/e/very_deep.go\na/b/deep.go\na/b/deep_test.go\nmain.go\nvendor/keep.go"},
		{"a/**/*_test.go", "a/b/deep_test.go"},
		{"a/*/*.go", "a/b/deep.go\na/b/deep_test.go"},
		{"very_deep.go", "a/b/c/d/e/very_deep.go"},
		{"**/*.log", "logs/keep.log"},
		{"docs/*.txt", "docs/中文.txt"},
		{"./a/notes.md", "a/notes.md"},
		{root + "/a/*.md", "a/notes.md"},
		{"**/nothing", "(no matches)"},
	}
	for _, tt := range tests {
		if out, err := run(t, "glob", root, fmt.Sprintf(`{"pattern":%q}`, tt.pattern)); err != nil || out != tt.want {
			t.Errorf("glob %s = %q, %v; want %q", tt.pattern, out, err, tt.want)
		}
	}
	if _, err := run(t, "glob", root, `{"pattern":"[a"}`); err == nil {
		t.Error("a bad pattern was taken")
	}
}

func TestGlobCap(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for i := range GlobMaxResults + 5 {
		writeFile(t, root, fmt.Sprintf("d/f%04d.txt", i), "")
	}
	out, err := run(t, "glob", root, `{"pattern":"**/*.txt"}`)
	lines := strings.Split(out, "\n")
	if err != nil || len(lines) != GlobMaxResults+1 || lines[0] != "d/f0000.txt" || lines[GlobMaxResults] != "... (truncated at 1000 results)" {
		t.Fatalf("%d lines, %v, last %q", len(lines), err, lines[len(lines)-1])
	}
}

func TestGrep(t *testing.T) {
	t.Parallel()
	root := searchTree(t)
	tests := []struct{ args, want string }{
		{`{"pattern":"TODO"}`, "a/b/deep.go:2:func Deep() {} // TODO: deep\na/notes.md:1:TODO in markdown\ngb/说明.txt:2:待办 TODO 中文说明\nlogs/keep.log:1:TODO kept\nmain.go:2:// TODO: one\nvendor/keep.go:1:// TODO keep\nwin/w.h:2:// TODO utf-16"},
		{`{"pattern":"TODO","glob":"*.go"}`, "a/b/deep.go:2:func Deep() {} // TODO: deep\nmain.go:2:// TODO: one\nvendor/keep.go:1:// TODO keep"},
		{`{"pattern":"TODO","glob":"a/**/*.go"}`, "a/b/deep.go:2:func Deep() {} // TODO: deep"},
		{`{"pattern":"^package \\w+$","path":"a/b"}`, "a/b/c/d/e/very_deep.go:1:package e\na/b/deep.go:1:package b\na/b/deep_test.go:1:package b"},
		{`{"pattern":"中文","path":"gb"}`, "gb/说明.txt:2:待办 TODO 中文说明"},
		{`{"pattern":"TODO","path":"build/out.go"}`, "build/out.go:1:// TODO: generated"},
		{`{"pattern":"nothing here"}`, "(no matches)"},
		{`{"pattern":"\\Apackage","path":"a/b/deep.go"}`, "a/b/deep.go:1:package b"},
	}
	for _, tt := range tests {
		if out, err := run(t, "grep", root, tt.args); err != nil || out != tt.want {
			t.Errorf("grep %s = %q, %v;\nwant %q", tt.args, out, err, tt.want)
		}
	}
	if _, err := run(t, "grep", root, `{"pattern":"("}`); err == nil || !contains(err.Error(), "invalid pattern") {
		t.Errorf("bad regex: %v", err)
	}
	if _, err := run(t, "grep", root, `{"pattern":"x","path":"missing"}`); err == nil || !contains(err.Error(), "missing not found") {
		t.Errorf("missing path: %v", err)
	}
}

// Past 200 matches grep stops and says so; the 200 are the first ones in
// path order whatever the workers did; a long line is cut.
func TestGrepCaps(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for i := range 50 {
		writeFile(t, root, fmt.Sprintf("f%02d.txt", i), strings.Repeat("match\n", 10))
	}
	writeFile(t, root, "long.txt", "x"+strings.Repeat("é", 2*GrepLineCut)+"\n")
	out, err := run(t, "grep", root, `{"pattern":"match"}`)
	lines := strings.Split(out, "\n")
	if err != nil || len(lines) != GrepMaxMatches+1 || lines[0] != "f00.txt:1:match" || lines[GrepMaxMatches-1] != "f19.txt:10:match" ||
		lines[GrepMaxMatches] != "... (truncated at 200 matches)" {
		t.Fatalf("%d lines, %v: first %q, last %q", len(lines), err, lines[0], lines[len(lines)-1])
	}
	out, err = run(t, "grep", root, `{"pattern":"^x","path":"long.txt"}`)
	if err != nil || len(out) > GrepLineCut+40 || !strings.HasSuffix(out, "é…") {
		t.Fatalf("long line: %d bytes %v", len(out), err)
	}
}

// A file over MaxEditSize is streamed, not read whole, and still searched.
func TestGrepStreamsABigFile(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeFile(t, root, "big.log", strings.Repeat("filler line\n", MaxEditSize/12+10)+"the needle\n")
	out, err := run(t, "grep", root, `{"pattern":"needle"}`)
	if err != nil || out != fmt.Sprintf("big.log:%d:the needle", MaxEditSize/12+11) {
		t.Fatalf("%q %v", out, err)
	}
}
