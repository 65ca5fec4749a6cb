package dialogs

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
)

// The variables Settings offers for a plugin come from its manifest and
// its README, read inside the package: a README that links out of it
// (here to a file naming SECRET_FROM_HOME) is not read.
func TestEnvNamesReadsTheREADMEInsideThePackage(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	outside := filepath.Join(t.TempDir(), "notes.md")
	if err := os.WriteFile(outside, []byte("export SECRET_FROM_HOME=1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	inside := t.TempDir()
	if err := os.WriteFile(filepath.Join(inside, "README.md"), []byte("Set `OPENAI_API_KEY` first.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	linked := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(linked, "README.md")); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		root string
		want []string
	}{
		{inside, []string{"DECLARED", "OPENAI_API_KEY"}},
		{linked, []string{"DECLARED"}},
	} {
		if got := envNames(tt.root, []string{"DECLARED"}); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.root, got, tt.want)
		}
	}
}
