package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/text/transform"
)

// Limits of read_file and ls.
const (
	ReadDefaultLimit = 2000      // lines read_file returns when limit is unset (the real host's)
	ReadOutputCap    = 256 << 10 // bytes of text one read_file call returns
	readDetectSample = 256 << 10 // bytes sampled for the encoding before streaming
	lsRecursiveCap   = 5000      // entries ls -R lists
)

func readFile(ctx context.Context, workspace string, raw json.RawMessage) (string, error) {
	var a struct {
		Path   string `json:"path"`
		Offset int    `json:"offset"`
		Limit  int    `json:"limit"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return "", err
	}
	if a.Path == "" {
		return "", errors.New("path is required")
	}
	a.Offset = max(a.Offset, 0)
	if a.Limit <= 0 {
		a.Limit = ReadDefaultLimit
	}
	full, err := Confine(workspace, a.Path)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(full)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("%s not found", a.Path)
	case err != nil:
		return "", fmt.Errorf("read %s: %w", a.Path, err)
	case st.IsDir():
		return "", fmt.Errorf("%s is a directory, not a file — use the ls tool to list it, or read a specific file inside it", a.Path)
	case !st.Mode().IsRegular():
		// A FIFO or a device would block the open or never end.
		return "", fmt.Errorf("%s is not a regular file", a.Path)
	}
	f, err := os.Open(full)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", a.Path, err)
	}
	defer f.Close()
	// The first 8 KiB decide binary or text before anything more is read,
	// so a large archive is not read just to be refused.
	head := make([]byte, readDetectSample)
	n, err := io.ReadFull(f, head[:binaryPeek])
	head = head[:n]
	whole := err != nil
	if isBinary(head) {
		return "", fmt.Errorf("binary file %s (NUL byte detected); read_file shows text files only", a.Path)
	}
	if isUTF16(head) {
		// UTF-16 does not stream line by line: it is read whole.
		if st.Size() > MaxEditSize {
			return "", fmt.Errorf("%s is too large for read_file as UTF-16 (%d bytes; the limit is %d MiB)", a.Path, st.Size(), MaxEditSize>>20)
		}
		rest, err := io.ReadAll(f)
		if err != nil {
			return "", fmt.Errorf("read %s: %w", a.Path, err)
		}
		all := append(head, rest...)
		text, err := Decode(all, Detect(all))
		if err != nil {
			return "", fmt.Errorf("read %s: %w", a.Path, err)
		}
		return window(ctx, strings.NewReader(text), a.Offset, a.Limit)
	}
	if !whole {
		m, err := io.ReadFull(f, head[n:cap(head)])
		head = head[:n+m]
		whole = err != nil
	}
	// Detect on whole lines: a sample cut inside a multi-byte character
	// would read as invalid UTF-8.
	sample := head
	if i := bytes.LastIndexByte(head, '\n'); !whole && i >= 0 {
		sample = head[:i+1]
	}
	var src io.Reader = io.MultiReader(bytes.NewReader(head), f)
	switch enc := Detect(sample); enc {
	case UTF8BOM:
		src = io.MultiReader(bytes.NewReader(head[3:]), f)
	case GB18030, Big5, ShiftJIS:
		src = transform.NewReader(src, legacy[enc].NewDecoder())
	}
	return window(ctx, src, a.Offset, a.Limit)
}

// window numbers the lines offset+1 .. offset+limit of src, as the real
// host prints them, within ReadOutputCap.
func window(ctx context.Context, src io.Reader, offset, limit int) (string, error) {
	r := bufio.NewReaderSize(src, 64<<10)
	var lines []string
	size, lineNo, more, capped := 0, 0, false, false
	for {
		line, err := readLine(r, ReadOutputCap)
		if err != nil && !errors.Is(err, io.EOF) {
			return "", fmt.Errorf("read: %w", err)
		}
		if line == nil {
			break
		}
		lineNo++
		if lineNo > offset {
			if len(lines) == limit {
				more = true
				break
			}
			// A line costs its text and its number (at most 8 bytes more).
			if size+len(line)+8 > ReadOutputCap && len(lines) > 0 {
				capped = true
				break
			}
			size += len(line) + 8
			lines = append(lines, string(line))
		}
		if err != nil {
			break
		}
		if lineNo%4096 == 0 && ctx.Err() != nil {
			return "", ctx.Err()
		}
	}
	if lineNo == 0 {
		return "(empty file)", nil
	}
	if len(lines) == 0 {
		return fmt.Sprintf("(offset %d is past EOF — file has %d lines)", offset, lineNo), nil
	}
	w := len(fmt.Sprint(offset + len(lines)))
	var b strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&b, "%*d→%s\n", w, offset+i+1, l)
	}
	switch {
	case capped:
		fmt.Fprintf(&b, "\n[output capped at %d KiB; pass offset=%d to continue]\n", ReadOutputCap>>10, offset+len(lines))
	case more:
		fmt.Fprintf(&b, "\n[more lines below; pass offset=%d to continue]\n", offset+len(lines))
	}
	return b.String(), nil
}

// readLine reads one line without its "\n" or "\r\n", keeping at most
// limit bytes of it (a longer line is cut and marked). nil at the end.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	cut := false
	for {
		part, err := r.ReadSlice('\n')
		if len(line)+len(part) <= limit {
			line = append(line, part...)
		} else if !cut {
			line = append(line, part[:limit-len(line)]...)
			cut = true
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && len(line) == 0 && !cut {
			return nil, err
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		if cut {
			line = append(line, fmt.Sprintf("… [line cut at %d KiB]", limit>>10)...)
		}
		return line, err
	}
}

func ls(ctx context.Context, workspace string, raw json.RawMessage) (string, error) {
	var a struct {
		Path      string `json:"path"`
		Recursive bool   `json:"recursive"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return "", err
	}
	if a.Path == "" {
		a.Path = "."
	}
	full, err := Confine(workspace, a.Path)
	if err != nil {
		return "", err
	}
	if a.Recursive {
		return lsRecursive(ctx, full, a.Path)
	}
	entries, err := readDir(full, a.Path)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, e := range entries {
		if e.IsDir() {
			fmt.Fprintf(&b, "%s/\n", e.Name())
			continue
		}
		size := int64(-1)
		if info, err := e.Info(); err == nil {
			size = info.Size()
		}
		fmt.Fprintf(&b, "%s\t%d\n", e.Name(), size)
	}
	if b.Len() == 0 {
		return "(empty directory)", nil
	}
	return b.String(), nil
}

func readDir(full, shown string) ([]fs.DirEntry, error) {
	entries, err := os.ReadDir(full)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s not found", shown)
	case err != nil:
		return nil, fmt.Errorf("ls %s: %w", shown, err)
	}
	return entries, nil
}

func lsRecursive(ctx context.Context, root, shown string) (string, error) {
	if _, err := readDir(root, shown); err != nil {
		return "", err
	}
	var b strings.Builder
	count, truncated := 0, false
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil || p == root {
			return nil
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "__pycache__", ".idea", ".vscode":
				return filepath.SkipDir
			}
		}
		if count >= lsRecursiveCap {
			truncated = true
			return filepath.SkipAll
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			rel += "/"
		} else if info, err := d.Info(); err == nil {
			rel += fmt.Sprintf("\t%d", info.Size())
		}
		b.WriteString(rel + "\n")
		count++
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("ls -R %s: %w", shown, err)
	}
	if b.Len() == 0 {
		return "(empty directory tree)", nil
	}
	if truncated {
		fmt.Fprintf(&b, "\n... (truncated at %d entries)\n", lsRecursiveCap)
	}
	return b.String(), nil
}

// listDir is this host's first listing tool, kept with its output (sorted
// names, directories with a slash) for the chats and plugins that call it.
func listDir(_ context.Context, workspace string, raw json.RawMessage) (string, error) {
	var a struct {
		Path string `json:"path"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return "", err
	}
	full, err := Confine(workspace, a.Path)
	if err != nil {
		return "", err
	}
	entries, err := readDir(full, a.Path)
	if err != nil {
		return "", err
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			name += "/"
		}
		names = append(names, name)
	}
	sort.Strings(names)
	return strings.Join(names, "\n"), nil
}
