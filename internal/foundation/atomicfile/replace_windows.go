//go:build windows

package atomicfile

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// replaceFor is how long replace keeps trying while another handle holds
// the target: Go (and most programs) open files without FILE_SHARE_DELETE,
// so a reader of a session or of settings — ours, or a virus scanner or
// indexer — makes MoveFileEx fail with a sharing violation or "access
// denied" until it closes the file, which is a matter of milliseconds.
const replaceFor = 2 * time.Second

// replace renames from over to (MoveFileEx with MOVEFILE_REPLACE_EXISTING
// through os.Rename), retrying the transient failures a handle open on the
// target causes, with a growing pause between tries: no event says when
// another process closes a file.
func replace(from, to string) error {
	deadline := time.Now().Add(replaceFor)
	pause := time.Millisecond
	for {
		err := os.Rename(from, to)
		if err == nil || !transient(err) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(pause)
		pause = min(2*pause, 100*time.Millisecond)
	}
}

func transient(err error) bool {
	return errors.Is(err, windows.ERROR_SHARING_VIOLATION) || errors.Is(err, windows.ERROR_ACCESS_DENIED) ||
		errors.Is(err, windows.ERROR_LOCK_VIOLATION)
}
