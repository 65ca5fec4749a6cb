package proc

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// runnableExts are the extensions Windows runs: a program, or a batch file
// (which CreateProcess runs through cmd.exe).
var runnableExts = []string{".exe", ".com", ".bat", ".cmd"}

// Executable resolves the file that running path starts and reports
// whether it can be run. Windows has no execute bit: a regular file with a
// runnable extension is. A path without an extension is taken with ".exe"
// added, as os/exec does, so a manifest's portable
// ${REASONIX_PLUGIN_ROOT}/bin/name runs bin/name.exe.
func Executable(path string) (string, bool) {
	if filepath.Ext(path) == "" {
		path += ".exe"
	}
	if !slices.Contains(runnableExts, strings.ToLower(filepath.Ext(path))) {
		return path, false
	}
	st, err := os.Stat(path)
	return path, err == nil && st.Mode().IsRegular()
}
