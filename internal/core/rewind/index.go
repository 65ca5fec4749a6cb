package rewind

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"runtime"
	"strings"
)

// indexVersion is written on every line so a later host that changes the
// shape can tell the lines apart; a line of another version is refused
// rather than misread.
const indexVersion = 1

const (
	opChange    = "change"
	opUntracked = "untracked"
)

// record is one line of the index. Blobs are named by the sha256 of their
// bytes in lowercase hex; "" stands for nil (the file absent), which no
// content hashes to.
type record struct {
	V       int         `json:"v"`
	Op      string      `json:"op"`
	Msg     int         `json:"msg"`
	Call    string      `json:"call,omitempty"`
	Tool    string      `json:"tool,omitempty"`
	Changes []changeRec `json:"changes,omitempty"`
	Note    string      `json:"note,omitempty"`
}

type changeRec struct {
	Rel    string `json:"rel"`
	NewRel string `json:"newRel,omitempty"`
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
}

// errSyntax marks a line that is not JSON at all: the only kind of line a
// writer killed mid-append can leave, and so the only kind forgiven at the end.
var errSyntax = errors.New("not a journal line")

// decodeLine decodes and validates one index line (without its newline).
// A line that parses but names an escaping path or a malformed blob is an
// error of its own kind: the journal was written by hand or damaged, and it
// must not be half-trusted.
func decodeLine(line []byte) (record, error) {
	var r record
	if err := json.Unmarshal(line, &r); err != nil {
		return record{}, fmt.Errorf("%w: %v", errSyntax, err)
	}
	if err := r.validate(); err != nil {
		return record{}, err
	}
	return r, nil
}

func (r record) validate() error {
	if r.V != indexVersion {
		return fmt.Errorf("version %d, this host reads %d", r.V, indexVersion)
	}
	if r.Msg < 0 {
		return fmt.Errorf("message index %d is negative", r.Msg)
	}
	switch r.Op {
	case opUntracked:
		if len(r.Changes) != 0 {
			return errors.New("an untracked note carries changes")
		}
	case opChange:
		for _, c := range r.Changes {
			if err := validRel(c.Rel); err != nil {
				return err
			}
			if c.NewRel != "" {
				if err := validRel(c.NewRel); err != nil {
					return err
				}
			}
			for _, h := range []string{c.Before, c.After} {
				if h != "" && !validHash(h) {
					return fmt.Errorf("blob name %q is not a sha256", h)
				}
			}
		}
	default:
		return fmt.Errorf("unknown op %q", r.Op)
	}
	return nil
}

// validRel checks a journaled path lexically: workspace-relative, slash
// separated, clean, with no ".." and no volume. The symlink half of
// confinement needs the workspace and is done by confine when restoring.
func validRel(rel string) error {
	bad := func(why string) error { return fmt.Errorf("path %q %s", rel, why) }
	switch {
	case rel == "" || rel == ".":
		return bad("is empty")
	case strings.ContainsRune(rel, 0):
		return bad("holds a NUL byte")
	case strings.HasPrefix(rel, "/") || filepath.IsAbs(filepath.FromSlash(rel)):
		return bad("is absolute")
	case path.Clean(rel) != rel:
		return bad("is not clean")
	}
	// Windows takes a backslash as a separator and "C:x" as a volume: there
	// such a name could climb out where the slash form looks harmless.
	if runtime.GOOS == "windows" && (strings.ContainsAny(rel, `\:`) || filepath.VolumeName(filepath.FromSlash(rel)) != "") {
		return bad("names a volume or holds a backslash")
	}
	for _, el := range strings.Split(rel, "/") {
		if el == ".." {
			return bad("escapes the workspace")
		}
	}
	return nil
}

func validHash(h string) bool {
	if len(h) != 64 {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// encodeLine is decodeLine's inverse, newline included.
func encodeLine(r record) ([]byte, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("encode journal line: %w", err)
	}
	return append(b, '\n'), nil
}

// parseIndex reads a whole index. good is the length of the prefix of data
// that holds the records returned, ending after a newline (or at len(data)
// when the last line is whole but lacks its newline: then terminated is
// false). A last line that is not JSON is a torn append and is dropped;
// anything wrong before it, or a last line that parses but is invalid, is an
// error naming the line.
func parseIndex(data []byte) (recs []record, good int, terminated bool, err error) {
	terminated = true
	lineNo := 0
	for off := 0; off < len(data); {
		lineNo++
		end := bytes.IndexByte(data[off:], '\n')
		last := end < 0
		var line []byte
		next := len(data)
		if last {
			line = data[off:]
		} else {
			line = data[off : off+end]
			next = off + end + 1
			last = len(bytes.TrimSpace(data[next:])) == 0
		}
		if len(bytes.TrimSpace(line)) == 0 {
			if end >= 0 {
				good = next
			}
			off = next
			continue
		}
		r, derr := decodeLine(line)
		if derr != nil {
			if last && errors.Is(derr, errSyntax) {
				return recs, good, true, nil
			}
			return nil, 0, true, fmt.Errorf("journal index line %d: %w", lineNo, derr)
		}
		recs = append(recs, r)
		good = next
		if end < 0 {
			terminated = false
		}
		off = next
	}
	return recs, good, terminated, nil
}
