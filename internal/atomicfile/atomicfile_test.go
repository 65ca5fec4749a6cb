package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplacesAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.json")
	for _, content := range []string{"one", "two"} {
		if err := Write(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(p)
		if string(got) != content {
			t.Fatalf("got %q", got)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("leftovers: %v", entries)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Fatalf("perm %v", st.Mode())
	}
}

func TestRemoveStaleOnlyTouchesThatFilesTemps(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.json")
	stale := filepath.Join(dir, TempPrefix+"s.json-123")
	other := filepath.Join(dir, TempPrefix+"t.json-123")
	os.WriteFile(stale, []byte("torn"), 0o600)
	os.WriteFile(other, []byte("x"), 0o600)
	RemoveStale(p)
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatal("stale temp kept")
	}
	if _, err := os.Stat(other); err != nil {
		t.Fatal("another file's temp removed")
	}
}

func TestWriteIntoMissingDirFails(t *testing.T) {
	if err := Write(filepath.Join(t.TempDir(), "no", "x"), nil, 0o600); err == nil {
		t.Fatal("want an error")
	}
}
