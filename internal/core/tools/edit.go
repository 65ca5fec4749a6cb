package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unsafe"

	"github.com/reasonix/reasonix-desktop/internal/foundation/atomicfile"
)

// MaxEditSize bounds a file the editing tools read whole into memory (and
// the content write_file takes): beyond it they refuse with "too large".
const MaxEditSize = 16 << 20

// ErrChangedSincePreview is why Apply refuses: a file no longer holds what
// the plan (and the diff the user approved) was computed from.
var ErrChangedSincePreview = errors.New("the file changed since the change was shown")

// Edit is what a file-changing call will do, computed without writing.
type Edit struct {
	Tool    string
	Changes []FileChange
	// Summary is the result text the model gets once the change is applied.
	Summary string
}

// FileChange is one file's planned change. Its bytes may share memory with
// the text they were made from: read them, never modify them.
type FileChange struct {
	Rel, NewRel   string // workspace-relative, slash; NewRel set only for a move
	Before, After []byte // raw bytes on disk; nil Before = did not exist; nil After = gone
	Encoding      string // see the constants of encoding.go
}

var planners = map[string]func(ctx context.Context, workspace string, args json.RawMessage) (*Edit, error){
	"write_file": planWrite,
	"edit_file":  planEditFile,
	"multi_edit": planMultiEdit,
	"move_file":  planMove,
}

// Plans reports whether a tool changes files and is planned before it runs.
func Plans(tool string) bool {
	_, ok := planners[tool]
	return ok
}

// PlanEdit computes what a file-changing call will do, writing nothing.
// Its errors are the tool's failure texts the model sees.
func PlanEdit(ctx context.Context, workspace, tool string, args json.RawMessage) (*Edit, error) {
	plan, ok := planners[tool]
	if !ok {
		return nil, fmt.Errorf("%s does not change files", tool)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e, err := plan(ctx, workspace, args)
	if err != nil {
		return nil, err
	}
	e.Tool = tool
	return e, nil
}

// Apply writes exactly the planned bytes, each file atomically and keeping
// its mode, after checking every file still holds its Before: a file
// changed in between (by the user, another tool) is refused with an error
// wrapping ErrChangedSincePreview, as the approval covered the old content.
// It returns e.Summary.
func (e *Edit) Apply(workspace string) (string, error) {
	type target struct {
		full, newFull string
		mode          fs.FileMode
	}
	targets := make([]target, len(e.Changes))
	for i, c := range e.Changes {
		full, err := Confine(workspace, filepath.FromSlash(c.Rel))
		if err != nil {
			return "", err
		}
		t := target{full: full, mode: 0o644}
		mode, same, err := holds(full, c.Before)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if c.Before != nil {
				return "", fmt.Errorf("%s is gone: %w", c.Rel, ErrChangedSincePreview)
			}
		case err != nil:
			return "", fmt.Errorf("read %s: %w", c.Rel, err)
		case !same:
			return "", fmt.Errorf("%s: %w", c.Rel, ErrChangedSincePreview)
		default:
			t.mode = mode
		}
		if c.NewRel != "" {
			if t.newFull, err = Confine(workspace, filepath.FromSlash(c.NewRel)); err != nil {
				return "", err
			}
			if _, err := os.Lstat(t.newFull); err == nil {
				return "", fmt.Errorf("destination %s appeared: %w", c.NewRel, ErrChangedSincePreview)
			}
		}
		targets[i] = t
	}
	for i, c := range e.Changes {
		t := targets[i]
		switch {
		case c.NewRel != "":
			if err := os.MkdirAll(filepath.Dir(t.newFull), 0o755); err != nil {
				return "", fmt.Errorf("mkdir for %s: %w", c.NewRel, err)
			}
			if err := os.Rename(t.full, t.newFull); err != nil {
				return "", fmt.Errorf("move %s to %s: %w", c.Rel, c.NewRel, err)
			}
		case c.After == nil:
			if err := os.Remove(t.full); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return "", fmt.Errorf("delete %s: %w", c.Rel, err)
			}
		default:
			if err := os.MkdirAll(filepath.Dir(t.full), 0o755); err != nil {
				return "", fmt.Errorf("mkdir for %s: %w", c.Rel, err)
			}
			if err := atomicfile.Write(t.full, c.After, t.mode); err != nil {
				return "", fmt.Errorf("write %s: %w", c.Rel, err)
			}
		}
	}
	return e.Summary, nil
}

// holds reports whether the file at full holds exactly want (nil: the
// file must not exist, so an existing one does not hold it), and its mode.
// It compares as it reads, block by block, without a copy of the file.
func holds(full string, want []byte) (fs.FileMode, bool, error) {
	f, err := os.Open(full)
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, false, err
	}
	if want == nil || st.IsDir() || st.Size() != int64(len(want)) {
		return st.Mode().Perm(), false, nil
	}
	buf := make([]byte, 64<<10)
	for off := 0; ; {
		n, err := f.Read(buf)
		if n > len(want)-off || !bytes.Equal(buf[:n], want[off:off+n]) {
			return 0, false, nil
		}
		off += n
		if errors.Is(err, io.EOF) {
			return st.Mode().Perm(), off == len(want), nil
		}
		if err != nil {
			return 0, false, err
		}
	}
}

// textFile is a file read for editing: its bytes, encoding and text.
type textFile struct {
	full, rel string
	raw       []byte // nil: the file does not exist
	enc       string
	text      string
}

// readText reads a file to edit, refusing what the editing tools cannot
// handle: a directory, a binary file, a file over MaxEditSize, a file
// whose bytes would not survive a decode and encode in its encoding.
func readText(workspace, path, forced, tool string, mustExist bool) (*textFile, error) {
	if path == "" {
		return nil, errors.New("path is required")
	}
	full, rel, err := confineRel(workspace, path)
	if err != nil {
		return nil, err
	}
	f := &textFile{full: full, rel: rel, enc: UTF8}
	st, err := os.Stat(full)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if mustExist {
			return nil, fmt.Errorf("%s not found", path)
		}
		if enc, ok := ParseEncoding(forced); ok {
			f.enc = enc
		}
		return f, nil
	case err != nil:
		return nil, fmt.Errorf("stat %s: %w", path, err)
	case st.IsDir():
		return nil, fmt.Errorf("%s is a directory, not a file", path)
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file", path)
	case st.Size() > MaxEditSize:
		return nil, fmt.Errorf("%s is too large for %s (%d bytes; the limit is %d MiB)", path, tool, st.Size(), MaxEditSize>>20)
	}
	raw, err := os.ReadFile(full)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	f.raw = raw
	if raw == nil {
		f.raw = []byte{}
	}
	if isBinary(raw) {
		if tool == "write_file" {
			f.enc = ""
			return f, nil
		}
		return nil, fmt.Errorf("binary file %s (NUL byte detected); %s edits text files only", path, tool)
	}
	f.enc = Detect(raw)
	if enc, ok := ParseEncoding(forced); ok {
		f.enc = enc
	}
	if f.enc == UTF8 && len(raw) > 0 {
		// The text is the bytes: shared, not copied (neither is ever
		// modified), which on a 5 MB file saves a copy and its allocation.
		f.text = unsafe.String(unsafe.SliceData(raw), len(raw))
		return f, nil
	}
	if f.text, err = Decode(raw, f.enc); err != nil {
		if tool == "write_file" { // its content replaces whatever this was
			f.enc, f.text = UTF8, ""
			return f, nil
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if tool == "write_file" {
		return f, nil // nothing of the old bytes is kept: no round trip to check
	}
	// An encoding whose decode and encode do not give back the same bytes
	// would rewrite the parts of the file the edit never touched. UTF-8
	// gives them back by construction (it is a copy), and is not checked:
	// on a 5 MB file the check was a fifth of an edit's time.
	if f.enc == UTF8 || f.enc == UTF8BOM {
		return f, nil
	}
	if back, err := Encode(f.text, f.enc); err != nil || !bytes.Equal(back, raw) {
		return nil, fmt.Errorf("%s does not read back byte for byte as %s; %s refuses to rewrite its other bytes", path, f.enc, tool)
	}
	return f, nil
}

// change is the FileChange that writes text into f in its encoding. In
// UTF-8 its After shares the text's memory: a FileChange's bytes are never
// modified by anyone (see FileChange).
func (f *textFile) change(text, path string) (FileChange, error) {
	if f.enc == UTF8 && text != "" {
		return FileChange{Rel: f.rel, Before: f.raw, After: unsafe.Slice(unsafe.StringData(text), len(text)), Encoding: f.enc}, nil
	}
	out, err := Encode(text, f.enc)
	if err != nil {
		return FileChange{}, fmt.Errorf("the new text for %s has characters %s cannot encode, and the file is %s; keep to characters it has", path, f.enc, f.enc)
	}
	return FileChange{Rel: f.rel, Before: f.raw, After: out, Encoding: f.enc}, nil
}

func planWrite(_ context.Context, workspace string, raw json.RawMessage) (*Edit, error) {
	var a struct {
		Path    string `json:"path"`
		Content string `json:"content"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if len(a.Content) > MaxEditSize {
		return nil, fmt.Errorf("content is too large for write_file (%d bytes; the limit is %d MiB)", len(a.Content), MaxEditSize>>20)
	}
	f, err := readText(workspace, a.Path, "", "write_file", false)
	if err != nil {
		return nil, err
	}
	if f.raw != nil && f.enc != "" && f.text == a.Content {
		return &Edit{Summary: fmt.Sprintf("%s already contains the exact content; no changes made", a.Path)}, nil
	}
	if f.enc == "" { // a binary file replaced by text
		f.enc = UTF8
	}
	c, err := f.change(a.Content, a.Path)
	if err != nil {
		return nil, err
	}
	return &Edit{Changes: []FileChange{c}, Summary: fmt.Sprintf("wrote %d bytes to %s", len(a.Content), a.Path)}, nil
}

func planEditFile(_ context.Context, workspace string, raw json.RawMessage) (*Edit, error) {
	var a struct {
		Path       string `json:"path"`
		OldString  string `json:"old_string"`
		NewString  string `json:"new_string"`
		ReplaceAll bool   `json:"replace_all"`
		Encoding   string `json:"encoding"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if a.Path == "" {
		return nil, errors.New("path is required")
	}
	if a.OldString == "" {
		return nil, errors.New("old_string is required")
	}
	f, err := readText(workspace, a.Path, a.Encoding, "edit_file", true)
	if err != nil {
		return nil, err
	}
	text, n, fuzzy, err := replace(f.text, a.OldString, a.NewString, a.ReplaceAll)
	if err != nil {
		return nil, diagnose(err, a.Path, a.OldString, f.text)
	}
	c, err := f.change(text, a.Path)
	if err != nil {
		return nil, err
	}
	summary := "edited " + a.Path
	switch {
	case fuzzy:
		summary += " (fuzzy match)"
	case a.ReplaceAll:
		summary += fmt.Sprintf(" (%d replacements)", n)
	}
	return &Edit{Changes: []FileChange{c}, Summary: summary}, nil
}

func planMultiEdit(_ context.Context, workspace string, raw json.RawMessage) (*Edit, error) {
	var a struct {
		Path  string `json:"path"`
		Edits []struct {
			OldString  string `json:"old_string"`
			NewString  string `json:"new_string"`
			ReplaceAll bool   `json:"replace_all"`
		} `json:"edits"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if a.Path == "" {
		return nil, errors.New("path is required")
	}
	if len(a.Edits) == 0 {
		return nil, errors.New("edits must not be empty")
	}
	f, err := readText(workspace, a.Path, "", "multi_edit", true)
	if err != nil {
		return nil, err
	}
	// Every step runs on the text the previous one left, in memory: a step
	// that fails leaves the file as it was.
	text, total := f.text, 0
	for i, step := range a.Edits {
		if step.OldString == "" {
			return nil, fmt.Errorf("edit %d: old_string is required", i+1)
		}
		next, n, _, err := replace(text, step.OldString, step.NewString, step.ReplaceAll)
		if err != nil {
			return nil, fmt.Errorf("edit %d: %w", i+1, diagnose(err, a.Path, step.OldString, text))
		}
		text, total = next, total+n
	}
	c, err := f.change(text, a.Path)
	if err != nil {
		return nil, err
	}
	return &Edit{Changes: []FileChange{c},
		Summary: fmt.Sprintf("multi_edit %s: %d edits applied (%d total replacements)", a.Path, len(a.Edits), total)}, nil
}

func planMove(_ context.Context, workspace string, raw json.RawMessage) (*Edit, error) {
	var a struct {
		SourcePath      string `json:"source_path"`
		DestinationPath string `json:"destination_path"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if a.SourcePath == "" {
		return nil, errors.New("source_path is required")
	}
	if a.DestinationPath == "" {
		return nil, errors.New("destination_path is required")
	}
	src, srcRel, err := confineRel(workspace, a.SourcePath)
	if err != nil {
		return nil, err
	}
	dst, dstRel, err := confineRel(workspace, a.DestinationPath)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(src)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s not found", a.SourcePath)
	case err != nil:
		return nil, fmt.Errorf("stat %s: %w", a.SourcePath, err)
	case st.IsDir():
		return nil, fmt.Errorf("%s is a directory; move_file only moves files", a.SourcePath)
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file; move_file only moves files", a.SourcePath)
	case st.Size() > MaxEditSize:
		// The plan carries the bytes (for the diff and the change journal).
		return nil, fmt.Errorf("%s is too large for move_file (%d bytes; the limit is %d MiB)", a.SourcePath, st.Size(), MaxEditSize>>20)
	}
	if src == dst {
		return &Edit{Summary: fmt.Sprintf("%s is already at %s; no changes made", a.SourcePath, a.DestinationPath)}, nil
	}
	if _, err := os.Lstat(dst); err == nil {
		return nil, fmt.Errorf("destination %s already exists", a.DestinationPath)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", a.SourcePath, err)
	}
	if data == nil {
		data = []byte{}
	}
	enc := ""
	if !isBinary(data) {
		enc = Detect(data)
	}
	return &Edit{
		Changes: []FileChange{{Rel: srcRel, NewRel: dstRel, Before: data, After: data, Encoding: enc}},
		Summary: fmt.Sprintf("moved %s to %s", a.SourcePath, a.DestinationPath),
	}, nil
}

// planned is a planned tool's Run: the plan, then its application, so a
// caller that does not preview (xdev invoke) gets the same result.
func planned(name string) func(context.Context, string, json.RawMessage) (string, error) {
	return func(ctx context.Context, workspace string, args json.RawMessage) (string, error) {
		e, err := PlanEdit(ctx, workspace, name, args)
		if err != nil {
			return "", err
		}
		return e.Apply(workspace)
	}
}

// trimForError shortens a sample quoted in an error.
func trimForError(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
