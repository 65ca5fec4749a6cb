package testutil

import (
	"os"
	"sort"
	"strings"
	"testing"
)

// Txtar is a txtar archive (the format of golang.org/x/tools/txtar): a
// comment, then files each introduced by a line "-- name --".
type Txtar struct {
	Comment string
	Files   map[string]string
}

// ParseTxtar reads a txtar archive.
func ParseTxtar(data string) Txtar {
	a := Txtar{Files: map[string]string{}}
	name, body := "", &strings.Builder{}
	commit := func() {
		if name == "" {
			a.Comment = body.String()
		} else {
			a.Files[name] = body.String()
		}
		body.Reset()
	}
	for _, line := range strings.SplitAfter(data, "\n") {
		bare := strings.TrimSuffix(line, "\n")
		if n, ok := strings.CutPrefix(bare, "-- "); ok && strings.HasSuffix(n, " --") {
			commit()
			name = strings.TrimSpace(strings.TrimSuffix(n, " --"))
			continue
		}
		body.WriteString(line)
	}
	commit()
	return a
}

// Format renders the archive with its files in name order, each ending in a
// newline.
func (a Txtar) Format() string {
	var b strings.Builder
	b.WriteString(a.Comment)
	names := make([]string, 0, len(a.Files))
	for n := range a.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		b.WriteString("-- " + n + " --\n")
		body := a.Files[n]
		if body != "" && !strings.HasSuffix(body, "\n") {
			body += "\n"
		}
		b.WriteString(body)
	}
	return b.String()
}

// Golden compares got (file name → content) with the txtar archive at path,
// file by file, or rewrites the archive when update is set (keeping its
// comment). A file missing on either side is a failure.
func Golden(t *testing.T, path string, update bool, got map[string]string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !(update && os.IsNotExist(err)) {
		t.Fatalf("golden %s: %v (run with -update to create it)", path, err)
	}
	want := ParseTxtar(string(data))
	if update {
		want.Files = got
		if err := os.WriteFile(path, []byte(want.Format()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for name, body := range got {
		w, ok := want.Files[name]
		if !ok {
			t.Errorf("%s: no golden file %q (run with -update)", path, name)
			continue
		}
		if strings.TrimSuffix(w, "\n") != strings.TrimSuffix(body, "\n") {
			t.Errorf("%s: %q differs\n got %s\nwant %s", path, name, body, w)
		}
	}
	for name := range want.Files {
		if _, ok := got[name]; !ok {
			t.Errorf("%s: golden file %q was not produced", path, name)
		}
	}
}
