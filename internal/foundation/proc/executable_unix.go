//go:build unix

package proc

import "os"

// Executable resolves the file that running path starts and reports
// whether it can be run: here, a regular file with an execute bit.
func Executable(path string) (string, bool) {
	st, err := os.Stat(path)
	return path, err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}
