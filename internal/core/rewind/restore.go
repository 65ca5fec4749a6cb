package rewind

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/core/tools"
	"github.com/reasonix/reasonix-desktop/internal/foundation/atomicfile"
)

// ErrOutsideWorkspace is wrapped when a journaled path resolves outside the
// workspace (through "..", an absolute path or a symlink).
var ErrOutsideWorkspace = tools.ErrOutsideWorkspace

// effect is what one change did to one path; a move is two effects (its
// source gone, its destination created). Hashes as in record: "" = absent.
type effect struct {
	rel           string
	before, after string
}

func effects(c changeRec) []effect {
	if c.NewRel == "" {
		return []effect{{c.Rel, c.Before, c.After}}
	}
	moved := c.After
	if moved == "" {
		moved = c.Before // moved unchanged
	}
	// move_file refuses a destination that exists, so it was absent before.
	return []effect{{c.Rel, c.Before, ""}, {c.NewRel, "", moved}}
}

// rewoundFrom is where the records a rewind to messageIndex takes back
// begin: the last run of records with a message index from messageIndex on.
// Records are chronological, and within one line of the conversation their
// message indexes never go down; an index going down means the conversation
// went back (a regenerated answer, an edited message) without the journal
// being rewound. Records of messageIndex's earlier version, before such a
// step back to messageIndex itself (or below), belong to a line of the
// conversation that is not on screen, and restoring their Before would undo
// the present line's work; a step back to a later message keeps
// messageIndex's turn shared by both lines, so the walk goes on past it.
func rewoundFrom(recs []record, messageIndex int) int {
	start := len(recs)
	for k := len(recs) - 1; k >= 0; k-- {
		if recs[k].Msg < messageIndex {
			break
		}
		if k+1 < len(recs) && recs[k].Msg > recs[k+1].Msg && recs[k+1].Msg <= messageIndex {
			break
		}
		start = k
	}
	return start
}

// restoreTarget is a Restore with what Apply needs besides: the resolved
// path on disk and whether the file there is not a regular file.
type restoreTarget struct {
	Restore
	abs     string
	special bool
}

// Plan computes what rewinding the workspace to before messageIndex's turn
// does, writing nothing: each path the entries from messageIndex on touched
// goes back to what the earliest of them found (absent if it created it).
// With a conversation that went back without a rewind, only the entries of
// the line of it now on screen count (see rewoundFrom).
func (j *Journal) Plan(workspace string, messageIndex int) (Plan, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	p, _, err := j.plan(workspace, messageIndex)
	return p, err
}

// plan is Plan with j.mu held; it also returns the resolved targets.
func (j *Journal) plan(workspace string, messageIndex int) (Plan, []restoreTarget, error) {
	p := Plan{MessageIndex: messageIndex}
	first := map[string]string{} // rel -> before, of the earliest rewound effect
	last := map[string]string{}  // rel -> after, of the journal's last effect
	var order []string
	start := rewoundFrom(j.recs, messageIndex)
	for i, r := range j.recs {
		switch r.Op {
		case opUntracked:
			if i >= start && !slices.Contains(p.Untracked, r.Note) {
				p.Untracked = append(p.Untracked, r.Note)
			}
		case opChange:
			for _, c := range r.Changes {
				for _, e := range effects(c) {
					last[e.rel] = e.after
					if i < start {
						continue
					}
					if _, seen := first[e.rel]; !seen {
						first[e.rel] = e.before
						order = append(order, e.rel)
					}
				}
			}
		}
	}
	sort.Strings(order)
	var targets []restoreTarget
	for _, rel := range order {
		abs, err := confine(workspace, rel)
		if err != nil {
			return Plan{}, nil, fmt.Errorf("plan rewind: %w", err)
		}
		t := restoreTarget{Restore: Restore{Rel: rel}, abs: abs}
		cur := ""
		st, err := os.Stat(abs)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return Plan{}, nil, fmt.Errorf("plan rewind: %w", err)
		case !st.Mode().IsRegular():
			// A directory (or device) where the agent left a file: never
			// what it left, and nothing Apply will write over.
			t.special = true
			cur = "not a file" // equal to no hash nor to absent

		default:
			if t.Current, err = os.ReadFile(abs); err != nil {
				return Plan{}, nil, fmt.Errorf("plan rewind: %w", err)
			}
			cur = hashOf(t.Current)
		}
		if cur == first[rel] {
			continue // already as restoring would leave it
		}
		if cur != last[rel] {
			p.Conflicts = append(p.Conflicts, rel)
		}
		if t.Restored, err = j.readBlob(first[rel]); err != nil {
			return Plan{}, nil, fmt.Errorf("plan rewind of %s: %w", rel, err)
		}
		p.Files = append(p.Files, t.Restore)
		targets = append(targets, t)
	}
	return p, targets, nil
}

// Apply restores the files of p and then forgets the entries from
// p.MessageIndex on. The plan is made again against the disk as it is now:
// it refuses, naming them, when files changed outside the agent, unless
// force; and force covers only the conflicts p showed, not files changed
// after it was made. Deletions go first (a file restored where the agent
// made a directory's file), then writes, each atomic and keeping the mode
// of the file it replaces. A failure midway leaves the entries journaled, so
// the rewind can be tried again; it returns what it restored before.
func (j *Journal) Apply(workspace string, p Plan, force bool) ([]string, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	now, targets, err := j.plan(workspace, p.MessageIndex)
	if err != nil {
		return nil, fmt.Errorf("rewind: %w", err)
	}
	if len(now.Conflicts) > 0 {
		if !force {
			return nil, fmt.Errorf("rewind refused: %s %w", strings.Join(now.Conflicts, ", "), ErrConflict)
		}
		var unseen []string
		for _, c := range now.Conflicts {
			if !slices.Contains(p.Conflicts, c) {
				unseen = append(unseen, c)
			}
		}
		if len(unseen) > 0 {
			return nil, fmt.Errorf("rewind refused: %s changed after the rewind was planned: %w", strings.Join(unseen, ", "), ErrConflict)
		}
	}
	var restored []string
	for _, t := range targets {
		if t.Restored != nil {
			continue
		}
		if t.special {
			return restored, fmt.Errorf("rewind: %s is not a regular file; not removing it", t.Rel)
		}
		if err := os.Remove(t.abs); err != nil && !errors.Is(err, os.ErrNotExist) {
			return restored, fmt.Errorf("rewind: %w", err)
		}
		restored = append(restored, t.Rel)
	}
	for _, t := range targets {
		if t.Restored == nil {
			continue
		}
		if t.special {
			return restored, fmt.Errorf("rewind: %s is not a regular file; not writing over it", t.Rel)
		}
		if err := writeKeepingMode(t.abs, t.Restored); err != nil {
			return restored, fmt.Errorf("rewind: %w", err)
		}
		restored = append(restored, t.Rel)
	}
	sort.Strings(restored)
	if err := j.dropFrom(p.MessageIndex); err != nil {
		return restored, fmt.Errorf("rewind: files restored, but %w", err)
	}
	return restored, nil
}

// writeKeepingMode writes data to abs atomically, with the mode of the file
// it replaces (0644 for a new one), creating parent directories.
func writeKeepingMode(abs string, data []byte) error {
	mode := os.FileMode(0o644)
	if st, err := os.Stat(abs); err == nil {
		mode = st.Mode().Perm()
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return fmt.Errorf("restore %s: %w", abs, err)
	}
	return atomicfile.Write(abs, data, mode)
}

// confine resolves a journaled path in the workspace by the file tools'
// own rule (tools.Confine: lexically inside it, and inside it still once
// the deepest existing ancestor's symlinks are resolved), after refusing
// what no journal the core writes holds (absolute, "..", unclean).
func confine(workspace, rel string) (string, error) {
	if err := validRel(rel); err != nil {
		return "", fmt.Errorf("%w: %w", err, ErrOutsideWorkspace)
	}
	root, err := filepath.Abs(workspace)
	if err != nil {
		return "", fmt.Errorf("workspace root %s: %w", workspace, err)
	}
	return tools.Confine(root, filepath.FromSlash(rel))
}
