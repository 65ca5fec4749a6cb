// Command treecheck fails when the git index of the repository holds a file
// that does not belong in source control: anything over 1 MiB, or an
// executable image (ELF, PE/COFF, Mach-O) of any size. Built binaries go in
// bin/ and examples/*/bin/ (ignored); a committed one would ship a blob
// nobody can review and bloat every clone forever.
//
// Usage: go run ./scripts/treecheck [repo-dir]
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// maxTracked is the largest file the tree may hold.
const maxTracked = 1 << 20

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	problems, err := check(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "treecheck:", err)
		os.Exit(2)
	}
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, "treecheck:", p)
	}
	if len(problems) > 0 {
		fmt.Fprintf(os.Stderr, "treecheck: %d tracked file(s) must leave the tree (git rm --cached, then ignore them)\n", len(problems))
		os.Exit(1)
	}
}

// check lists the tracked files of the repository at dir and returns one
// line per offending file.
func check(dir string) ([]string, error) {
	out, err := exec.Command("git", "-C", dir, "ls-files", "-z").Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files in %s: %w", dir, err)
	}
	var problems []string
	for _, name := range strings.Split(string(out), "\x00") {
		if name == "" {
			continue
		}
		p, err := checkFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		if p != "" {
			problems = append(problems, name+": "+p)
		}
	}
	return problems, nil
}

// checkFile says what is wrong with one file, or "" when nothing is. A
// tracked file deleted from the work tree is not this check's business.
func checkFile(path string) (string, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("stat %s: %w", path, err)
	}
	if st.IsDir() { // a submodule or a symlink to a folder
		return "", nil
	}
	head := make([]byte, 4)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	if kind := executableKind(head[:n]); kind != "" {
		return kind + " executable", nil
	}
	if st.Size() > maxTracked {
		return fmt.Sprintf("%d bytes, over the %d-byte limit", st.Size(), maxTracked), nil
	}
	return "", nil
}

// executableKind names the executable format whose magic starts head.
func executableKind(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\x7fELF")):
		return "ELF"
	case bytes.HasPrefix(head, []byte("MZ")):
		return "PE (Windows)"
	case bytes.HasPrefix(head, []byte{0xfe, 0xed, 0xfa, 0xce}), bytes.HasPrefix(head, []byte{0xfe, 0xed, 0xfa, 0xcf}),
		bytes.HasPrefix(head, []byte{0xce, 0xfa, 0xed, 0xfe}), bytes.HasPrefix(head, []byte{0xcf, 0xfa, 0xed, 0xfe}),
		bytes.HasPrefix(head, []byte{0xca, 0xfe, 0xba, 0xbe}):
		return "Mach-O"
	}
	return ""
}
