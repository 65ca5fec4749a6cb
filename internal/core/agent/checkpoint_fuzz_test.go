package agent

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
)

// Whatever a checkpoint file holds (a torn disk, another build, a hostile
// edit), opening the store never panics and never leaves a session file
// that does not load: recovery either folds it into a valid chat or sets
// it aside.
func FuzzRecoverCheckpoint(f *testing.F) {
	id := "0b7c6e0e-1d2f-4a5b-8c9d-0e1f2a3b4c5d"
	f.Add([]byte(`{"version":1,"pid":0,"base":0,"session":{"version":1,"id":"` + id + `","messages":[{"role":"user","content":"hi"}]},"text":"Hel"}`))
	f.Add([]byte(`{"version":1,"base":5,"fileUpdated":"2026-12-07T10:00:00Z","session":{"id":"` + id + `","messages":[{"role":"assistant","toolCalls":[{"id":"1","name":"x"}]}]}}`))
	f.Add([]byte(`{"version":1,"session":{"id":"` + id + `","messages":null,"notes":[{"after":-3,"kind":"failed"}]}}`))
	f.Add([]byte(`{"version":2}`))
	f.Add([]byte(`{`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, turnsDir), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, turnsDir, id+".json"), data, 0o600); err != nil {
			t.Fatal(err)
		}
		st, err := openSessionStore(dir, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Load(id); err != nil && !errors.Is(err, ErrNoSession) {
			t.Fatalf("recovery left a chat that does not load: %v", err)
		}
	})
}
