package plugin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sparse makes a file of apparent size n that takes no disk.
func sparse(t *testing.T, p string, n int64) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(n); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestCopyCapsSizes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]int64
		err   string
	}{
		{"sparse 1 GiB file", map[string]int64{"data/big.bin": 1 << 30}, "data/big.bin is 1.0 GiB (1073741824 bytes), over the 64.0 MiB cap for one file of a package"},
		{"just over the file cap", map[string]int64{"x.bin": MaxPackageFileBytes + 1}, "x.bin is 64.0 MiB (67108865 bytes), over the 64.0 MiB cap"},
		{"over the total cap", map[string]int64{"a.bin": 60 << 20, "b.bin": 60 << 20, "c.bin": 60 << 20, "d.bin": 60 << 20, "e.bin": 60 << 20},
			"the package is over the 256.0 MiB cap for a whole package: e.bin (60.0 MiB) took it to 3145728"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, layout := newStore(t)
			src := writePlugin(t, t.TempDir(), "demo", "1.0.0")
			for p, n := range tc.files {
				sparse(t, filepath.Join(src, p), n)
			}
			_, err := Preview(s, src, InstallOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("preview: %v; want %q", err, tc.err)
			}
			// The copy itself refuses too, and writes none of the big file.
			dst := filepath.Join(t.TempDir(), "dst")
			if err := os.Mkdir(dst, 0o700); err != nil {
				t.Fatal(err)
			}
			if _, err := copyTree(src, dst); err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("copy: %v; want %q", err, tc.err)
			}
			var copied int64
			filepath.Walk(dst, func(_ string, fi os.FileInfo, err error) error {
				if err == nil && fi.Mode().IsRegular() {
					copied += fi.Size()
				}
				return nil
			})
			if copied != 0 {
				t.Fatalf("the refused copy wrote %d bytes", copied)
			}
			if _, err := os.Stat(layout.PluginDir("demo")); !os.IsNotExist(err) {
				t.Fatalf("installed anyway: %v", err)
			}
		})
	}
}

func TestPreviewShowsSize(t *testing.T) {
	s, _ := newStore(t)
	src := writePlugin(t, t.TempDir(), "demo", "1.0.0")
	sparse(t, filepath.Join(src, "data/blob.bin"), 3<<20)
	plan, err := Preview(s, src, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "Size: 3.0 MiB in 4 files (largest: data/blob.bin, 3.0 MiB)"; !strings.Contains(plan.Text, want) {
		t.Fatalf("preview lacks %q:\n%s", want, plan.Text)
	}
}
