// Command hookok is the smallest hook: it reads the event and exits 0
// (allow). The benchmark runs it as a real hook process.
package main

import (
	"io"
	"os"
)

func main() {
	_, _ = io.Copy(io.Discard, os.Stdin)
}
