//go:build !windows

package atomicfile

import "os"

// replace renames from over to: atomic on POSIX, whoever has to open.
func replace(from, to string) error { return os.Rename(from, to) }
