package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The kill test's own reading of the data dir (issue 39): the session
// file as docs/session-file.md describes it, decoded raw rather than
// through internal/core/agent, so a change in the core's own structs
// cannot make the check agree with a file the document does not.

// rawSession is sessions/<id>.json: only what the kill test checks.
type rawSession struct {
	Version  int          `json:"version"`
	ID       string       `json:"id"`
	Messages []rawMessage `json:"messages"`
	Notes    []rawNote    `json:"notes"`
}

type rawMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// rawNote is one of "notes": a failed note's end says how its turn ended;
// input is the message when it never reached "messages".
type rawNote struct {
	After     int    `json:"after"`
	Kind      string `json:"kind"`
	Text      string `json:"text"`
	Reasoning string `json:"reasoning"`
	Input     string `json:"input"`
	End       *struct {
		Outcome string `json:"outcome"`
	} `json:"end"`
}

func (n rawNote) interrupted() bool {
	return n.Kind == "failed" && n.End != nil && n.End.Outcome == "interrupted"
}

// dataFiles is what the kill test found under <data>/sessions.
type dataFiles struct {
	sessions    map[string]*rawSession // by id: every <id>.json that parsed
	unreadable  []string               // a file that does not parse, and why
	checkpoints []string               // a turn's checkpoint left on disk
	temps       []string               // an atomic write's temp file a kill left behind
}

// readDataFiles reads every file under dir (sessions/): each .json must be
// one JSON document (a session file a version-1 session), each .jsonl one
// JSON value a line but its last (a torn last line is dropped by its reader,
// see "The change journal").
func readDataFiles(dir string) (*dataFiles, error) {
	out := &dataFiles{sessions: map[string]*rawSession{}}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("walk %s: %w", path, err)
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		name := d.Name()
		switch {
		case strings.HasPrefix(name, ".tmp-") || strings.HasPrefix(name, ".import-"):
			out.temps = append(out.temps, rel)
			return nil
		case strings.HasSuffix(name, ".turn.json") || filepath.Dir(rel) == ".turns":
			// A turn's checkpoint: .turns/<id>.json (the lead's name for it,
			// parts.md) or <id>.turn.json (the brief's).
			out.checkpoints = append(out.checkpoints, rel)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			out.unreadable = append(out.unreadable, fmt.Sprintf("%s: %v", rel, err))
			return nil
		}
		switch {
		case strings.HasSuffix(name, ".jsonl"):
			lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
			for i, l := range lines[:max(len(lines)-1, 0)] {
				if !json.Valid([]byte(l)) {
					out.unreadable = append(out.unreadable, fmt.Sprintf("%s: line %d is not JSON", rel, i+1))
				}
			}
		case strings.HasSuffix(name, ".json"):
			if !json.Valid(b) {
				out.unreadable = append(out.unreadable, fmt.Sprintf("%s: not JSON (%d bytes)", rel, len(b)))
				return nil
			}
			if filepath.Dir(rel) != "." || strings.HasSuffix(name, ".turn.json") {
				return nil // the trash, a checkpoint: JSON is all they must be
			}
			var s rawSession
			if err := json.Unmarshal(b, &s); err != nil || s.Version != 1 || s.ID+".json" != name {
				out.unreadable = append(out.unreadable, fmt.Sprintf("%s: not a version-1 session file of its id (%v)", rel, err))
				return nil
			}
			out.sessions[s.ID] = &s
		}
		return nil
	})
	return out, err
}

// userIndex is the index in messages of the user message holding text (a
// hook may put context before it), -1 when none does.
func (s *rawSession) userIndex(text string) int {
	for i, m := range s.Messages {
		if m.Role == "user" && strings.Contains(m.Content, text) {
			return i
		}
	}
	return -1
}

// turnNotes are the notes shown with the turn of the user message at u:
// after it and before the next user message.
func (s *rawSession) turnNotes(u int) []rawNote {
	next := len(s.Messages)
	for i := u + 1; i < len(s.Messages); i++ {
		if s.Messages[i].Role == "user" {
			next = i
			break
		}
	}
	var out []rawNote
	for _, n := range s.Notes {
		if n.After > u && n.After <= next {
			out = append(out, n)
		}
	}
	return out
}

// interruptedFor is the interrupted note of the turn that sent text: the
// one holding it as input (it never reached messages), else one shown
// after its message. ok is false when there is none.
func (s *rawSession) interruptedFor(text string) (rawNote, bool) {
	for _, n := range s.Notes {
		if n.interrupted() && strings.Contains(n.Input, text) {
			return n, true
		}
	}
	if u := s.userIndex(text); u >= 0 {
		for _, n := range s.turnNotes(u) {
			if n.interrupted() {
				return n, true
			}
		}
	}
	return rawNote{}, false
}

// replyAfter is the assistant text that followed the user message at u.
func (s *rawSession) replyAfter(u int) string {
	var b strings.Builder
	for _, m := range s.Messages[u+1:] {
		if m.Role == "user" {
			break
		}
		if m.Role == "assistant" {
			b.WriteString(m.Content)
		}
	}
	return b.String()
}
