package tools

import (
	"context"
	"encoding/json"
	"testing"
)

func plan(t *testing.T, root, tool, args string) *Edit {
	t.Helper()
	e, err := PlanEdit(context.Background(), root, tool, json.RawMessage(args))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestDiffs(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeBytes(t, root, "gb.txt", mustEncode(t, "第一行\n第二行\n", GB18030))
	writeFile(t, root, "m.txt", "moved\n")
	writeBytes(t, root, "bin.dat", []byte("a\x00b"))

	d := plan(t, root, "edit_file", `{"path":"gb.txt","old_string":"第二行","new_string":"第二行（改）"}`).Diffs()
	if len(d) != 1 || d[0].OldPath != "gb.txt" || d[0].NewPath != "gb.txt" || d[0].Added != 1 || d[0].Removed != 1 || d[0].Binary {
		t.Fatalf("edit diff %+v", d)
	}
	if u := d[0].Unified(); !contains(u, "-第二行\n+第二行（改）\n") {
		t.Fatalf("the diff is not the decoded text:\n%s", u)
	}
	d = plan(t, root, "write_file", `{"path":"new/f.txt","content":"a\nb\n"}`).Diffs()
	if d[0].OldPath != "" || d[0].NewPath != "new/f.txt" || d[0].Added != 2 {
		t.Fatalf("create diff %+v", d)
	}
	d = plan(t, root, "move_file", `{"source_path":"m.txt","destination_path":"n/m.txt"}`).Diffs()
	if d[0].OldPath != "m.txt" || d[0].NewPath != "n/m.txt" || d[0].Added != 0 || len(d[0].Hunks) != 0 {
		t.Fatalf("move diff %+v", d)
	}
	d = plan(t, root, "write_file", `{"path":"bin.dat","content":"text now\n"}`).Diffs()
	if !d[0].Binary {
		t.Fatalf("binary diff %+v", d)
	}
	if d := plan(t, root, "write_file", `{"path":"m.txt","content":"moved\n"}`).Diffs(); len(d) != 0 {
		t.Fatalf("no-op write has a diff: %+v", d)
	}
}
