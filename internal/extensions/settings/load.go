package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/atomicfile"
	"github.com/reasonix/reasonix-desktop/internal/foundation/jsonerr"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Problem is why settings.json is not used as it is written. A broken file
// (Broken) is not used at all: the app runs on the defaults and never
// overwrites it until it is fixed or reset. Otherwise the problem is a
// warning: the file is used (unknown top-level members are ignored and
// kept when the file is saved; an empty file is the defaults).
type Problem struct {
	Path   string
	Broken bool
	// Line and Column (1-based) locate invalid JSON; 0 when the problem has
	// no place in the text.
	Line, Column int
	// Field is the JSON path of the member that is wrong ("alwaysApprove",
	// "rules[0].tool"); empty for the whole file.
	Field string
	// Reason says what is wrong, without the file or the place.
	Reason string
	// Err is the cause (a *protocol.DecodeError, *json.SyntaxError or
	// *fs.PathError).
	Err error
}

// Where is the place of the problem in words ("line 3, column 5", "field
// rules[0].tool"), or "".
func (p *Problem) Where() string {
	switch {
	case p.Line > 0:
		return fmt.Sprintf("line %d, column %d", p.Line, p.Column)
	case p.Field != "":
		return "field " + p.Field
	}
	return ""
}

// Consequence says what the app does about it.
func (p *Problem) Consequence() string {
	if p.Broken {
		return "using the default settings (no standing approvals, no hooks, no default model); the file is left as it is until you fix or reset it"
	}
	if p.Field != "" {
		return "ignored (kept in the file)"
	}
	return "using the default settings"
}

// What is the file, the place and the reason, without the consequence.
func (p *Problem) What() string {
	var b strings.Builder
	b.WriteString(p.Path)
	if w := p.Where(); w != "" {
		b.WriteString(": ")
		b.WriteString(w)
	}
	b.WriteString(": ")
	b.WriteString(p.Reason)
	return b.String()
}

func (p *Problem) Error() string { return "settings " + p.What() + "; " + p.Consequence() }

func (p *Problem) Unwrap() error { return p.Err }

// ErrBroken marks an Update refused because the file on disk is broken:
// writing would destroy what the user wrote.
var ErrBroken = errors.New("settings file is broken")

// Load opens path for the app: unlike Open, a file that cannot be used
// never fails it. The File it returns is always usable; the Problem (nil
// when there is none) says what was wrong. While the file is broken, Get
// re-reads it (so a fixed or reset file takes effect at once) and Update
// refuses with ErrBroken.
func Load(path string) (*File, *Problem) {
	f := &File{path: path}
	p := f.read()
	if p != nil && p.Broken {
		f.broken = p
	}
	return f, p
}

// Check reads path and reports its problem, nil when it is fine.
func Check(path string) *Problem {
	_, p := Load(path)
	return p
}

// read loads the file into f.s and f.extra (f.mu held or f not shared);
// on a broken file f is left with the defaults.
func (f *File) read() *Problem {
	f.s, f.extra = Settings{}, nil
	data, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &Problem{Path: f.path, Broken: true, Reason: readReason(f.path, err), Err: err}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return &Problem{Path: f.path, Reason: "the file is empty"}
	}
	s, extra, p := decode(f.path, data)
	if p != nil && p.Broken {
		return p
	}
	f.s, f.extra = s, extra
	return p
}

func readReason(path string, err error) string {
	if st, serr := os.Stat(path); serr == nil && st.IsDir() {
		return "it is a directory, not a file"
	}
	if errors.Is(err, fs.ErrPermission) {
		return "it cannot be read (permission denied)"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return "it cannot be read: " + pe.Err.Error()
	}
	return "it cannot be read: " + err.Error()
}

// decode reads a non-empty file: strictly, except that unknown top-level
// members are a warning (a typo, or a newer version's setting) and are
// returned to be kept on save.
func decode(path string, data []byte) (Settings, map[string]json.RawMessage, *Problem) {
	var s Settings
	err := protocol.DecodeStrict(data, &s)
	if err == nil {
		return s, nil, nil
	}
	broken := func(err error) (Settings, map[string]json.RawMessage, *Problem) {
		p := &Problem{Path: path, Broken: true, Err: err, Reason: err.Error()}
		var de *protocol.DecodeError
		if errors.As(err, &de) {
			p.Field, p.Reason = de.Path, de.Msg
		}
		// jsonerr places the error in characters and names the real
		// character ('你', not the first byte of its encoding).
		var je *jsonerr.Error
		var v any
		if errors.As(jsonerr.Unmarshal(data, &v), &je) {
			p.Line, p.Column, p.Reason, p.Field = je.Line, je.Column, "invalid JSON: "+je.Msg, ""
		}
		return Settings{}, nil, p
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil || protocol.CheckDuplicateKeys(data) != nil {
		return broken(err)
	}
	known := knownFields()
	extra := map[string]json.RawMessage{}
	for k, v := range top {
		if !known[k] {
			extra[k] = v
			delete(top, k)
		}
	}
	if len(extra) == 0 {
		return broken(err)
	}
	rest, merr := json.Marshal(top)
	if merr != nil {
		return broken(err)
	}
	s = Settings{}
	if err := protocol.DecodeStrict(rest, &s); err != nil {
		return broken(err)
	}
	names := make([]string, 0, len(extra))
	for k := range extra {
		names = append(names, k)
	}
	sort.Strings(names)
	reason := "unknown field"
	if len(names) > 1 {
		reason = "unknown fields"
	}
	return s, extra, &Problem{Path: path, Field: strings.Join(names, ", "), Reason: reason}
}

// knownFields are the JSON names of Settings' members.
func knownFields() map[string]bool {
	t := reflect.TypeFor[Settings]()
	out := make(map[string]bool, t.NumField())
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		out[name] = true
	}
	return out
}

// recheck re-reads a broken file (f.mu held): once it is fixed, reset or
// removed, its settings take effect.
func (f *File) recheck() {
	if f.broken == nil {
		return
	}
	if p := f.read(); p == nil || !p.Broken {
		f.broken = nil
		return
	}
	f.s, f.extra = Settings{}, nil
}

// BackupTimeFormat is the timestamp in a reset's backup name.
const BackupTimeFormat = "20060102-150405"

// Reset replaces the file at path with the default settings, written
// atomically, and keeps what was there (a broken file, a directory) next to
// it as path.broken-<UTC time>. It returns the backup's path ("" when
// there was nothing to keep). A File open on path picks the defaults up at
// its next Get if it was broken.
func Reset(path string, now time.Time) (string, error) {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", writeDefaults(path)
	}
	if err != nil {
		return "", fmt.Errorf("settings: reset: %w", err)
	}
	backup := path + ".broken-" + now.UTC().Format(BackupTimeFormat)
	for i := 2; ; i++ {
		if _, err := os.Lstat(backup); errors.Is(err, fs.ErrNotExist) {
			break
		}
		backup = fmt.Sprintf("%s.broken-%s-%d", path, now.UTC().Format(BackupTimeFormat), i)
	}
	if st.Mode().IsRegular() {
		// A second name for the old file, then an atomic replace: the path
		// never goes missing for a reader in between.
		if err := os.Link(path, backup); err == nil {
			return backup, writeDefaults(path)
		}
	}
	if err := os.Rename(path, backup); err != nil {
		return "", fmt.Errorf("settings: reset: keep a backup: %w", err)
	}
	return backup, writeDefaults(path)
}

func writeDefaults(path string) error {
	if err := atomicfile.Write(path, []byte("{}\n"), 0o600); err != nil {
		return fmt.Errorf("settings: reset: %w", err)
	}
	return nil
}
