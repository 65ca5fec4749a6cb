package tools

import "github.com/reasonix/reasonix-desktop/internal/foundation/textdiff"

// Diffs is what the edit does to each file, its text decoded from the
// file's encoding (a GB18030 file's diff shows Chinese, not bytes). A file
// created has no old path, one moved has both; a binary one has no hunks.
func (e *Edit) Diffs() []textdiff.File {
	out := make([]textdiff.File, 0, len(e.Changes))
	for _, c := range e.Changes {
		var oldPath, newPath string
		if c.Before != nil {
			oldPath = c.Rel
		}
		if c.After != nil {
			newPath = c.Rel
			if c.NewRel != "" {
				newPath = c.NewRel
			}
		}
		out = append(out, textdiff.Compute(oldPath, newPath, decoded(c.Before, c.Encoding), decoded(c.After, c.Encoding), textdiff.Options{}))
	}
	return out
}

// decoded is a side of a change as text; bytes that are not text in the
// encoding are passed as they are (textdiff calls them binary).
func decoded(b []byte, enc string) string {
	if b == nil || enc == "" || isBinary(b) {
		return string(b)
	}
	text, err := Decode(b, enc)
	if err != nil {
		return string(b)
	}
	return text
}
