package ndjson

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// txtarFile is a parsed txtar archive: a comment and named sections.
type txtarFile struct {
	comment  string
	sections map[string]string
	order    []string
}

// parseTxtar parses the txtar format: sections start with a line
// "-- name --"; everything before the first marker is the comment.
func parseTxtar(data []byte) txtarFile {
	f := txtarFile{sections: map[string]string{}}
	var name string
	var buf strings.Builder
	flush := func() {
		if name == "" {
			f.comment = buf.String()
		} else {
			f.sections[name] = buf.String()
			f.order = append(f.order, name)
		}
		buf.Reset()
	}
	for _, line := range strings.SplitAfter(string(data), "\n") {
		trimmed := strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(trimmed, "-- ") && strings.HasSuffix(trimmed, " --") && len(trimmed) >= 6 {
			flush()
			name = strings.TrimSpace(trimmed[3 : len(trimmed)-3])
			continue
		}
		buf.WriteString(line)
	}
	flush()
	return f
}

// lines splits a section into lines, dropping the final newline.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func TestParseTxtar(t *testing.T) {
	f := parseTxtar([]byte("comment\n-- in --\na\n\nb\n-- out --\n-- x --\nlast"))
	if f.comment != "comment\n" || f.sections["in"] != "a\n\nb\n" || f.sections["out"] != "" || f.sections["x"] != "last" {
		t.Fatalf("%+v", f)
	}
	if got := lines(f.sections["in"]); len(got) != 3 || got[1] != "" {
		t.Fatalf("lines = %q", got)
	}
}

// TestTranscripts replays testdata/transcripts/*.txtar: every "in" line is
// written raw to a Conn with an "echo" handler and a "note" notification
// handler; its output must equal the "out" lines byte for byte, in order,
// and nothing else may follow. Handler answers are asynchronous, so a
// transcript holds at most one handler-answered request, as its last line.
func TestTranscripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "transcripts", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			f := parseTxtar(data)
			in, ok1 := f.sections["in"]
			out, ok2 := f.sections["out"]
			if !ok1 || !ok2 {
				t.Fatalf("%s needs sections in and out, has %v", file, f.order)
			}
			p := newRawPeer(t, Options{}, func(c *Conn) {
				c.Handle("echo", echo)
				c.HandleNotification("note", func(context.Context, json.RawMessage) {})
			})
			var input bytes.Buffer
			for _, l := range lines(in) {
				input.WriteString(l + "\n")
			}
			p.sendSync(input.String())
			for i, want := range lines(out) {
				if got := p.line(); got != want {
					t.Fatalf("out line %d\n got %s\nwant %s", i+1, got, want)
				}
			}
			if extra := p.rest(); len(extra) > 0 {
				t.Fatalf("unexpected extra output: %q", extra)
			}
		})
	}
}
