package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
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
	// Windows has no permission bits (a writable file reads as 0666).
	if st, _ := os.Stat(p); runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
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

// A reader holding the file open (Go opens without FILE_SHARE_DELETE, so on
// Windows the rename over it fails until the reader closes) delays the
// write; it does not fail it. The wine lane runs this as a Windows binary.
func TestWriteOverAFileAReaderHoldsOpen(t *testing.T) {
	p := filepath.Join(t.TempDir(), "session.json")
	if err := Write(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- Write(p, []byte("new"), 0o600) }()
	select {
	case err := <-done: // POSIX: the rename does not wait for the reader
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(50 * time.Millisecond): // Windows: it waits
		r.Close()
		if err := <-done; err != nil {
			t.Fatalf("the write failed after the reader closed: %v", err)
		}
	}
	if got, _ := os.ReadFile(p); string(got) != "new" {
		t.Fatalf("got %q, want the new content", got)
	}
}
