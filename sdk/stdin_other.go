//go:build !unix

package sdk

import "os"

// pollableStdin is os.Stdin where descriptors cannot be made non-blocking.
func pollableStdin() *os.File { return os.Stdin }
