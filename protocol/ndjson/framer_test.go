package ndjson

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// Lines come back without their newline, in order; a
// line over the cap fails; trailing bytes without a newline are dropped.
func TestLineReaderLines(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		max     int
		want    []string
		wantErr error
	}{
		{"two lines", "a\nbc\n", 8, []string{"a", "bc"}, io.EOF},
		{"blank line kept", "\nx\n", 8, []string{"", "x"}, io.EOF},
		{"unterminated tail dropped", "a\ntail", 8, []string{"a"}, io.EOF},
		{"exactly the cap", "abc\n", 4, []string{"abc"}, io.EOF},
		{"one past the cap", "abcd\n", 4, nil, ErrLineTooLong},
		{"long line over the buffer", strings.Repeat("x", 3*lineBufferSize) + "\n", 4 * lineBufferSize,
			[]string{strings.Repeat("x", 3*lineBufferSize)}, io.EOF},
		{"over the cap without newline", strings.Repeat("x", 2*lineBufferSize), lineBufferSize + 10, nil, ErrLineTooLong},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := NewLineReader(strings.NewReader(tc.in), tc.max)
			var got []string
			for {
				line, err := l.ReadLine()
				if err != nil {
					if !errors.Is(err, tc.wantErr) {
						t.Fatalf("err %v, want %v", err, tc.wantErr)
					}
					break
				}
				got = append(got, string(line))
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func FuzzLineReader(f *testing.F) {
	f.Add([]byte("a\nb\n"), 4)
	f.Add([]byte("\n\n\nxyz"), 2)
	f.Fuzz(func(t *testing.T, in []byte, max int) {
		if max <= 0 || max > 1<<20 {
			return
		}
		l := NewLineReader(bytes.NewReader(in), max)
		var out []byte
		for {
			line, err := l.ReadLine()
			if err != nil {
				if errors.Is(err, io.EOF) {
					// Every whole line came back: the input up to its last newline.
					if i := bytes.LastIndexByte(in, '\n'); !bytes.Equal(out, in[:i+1]) {
						t.Fatalf("lines %q from %q", out, in)
					}
				} else if !errors.Is(err, ErrLineTooLong) {
					t.Fatal(err)
				}
				return
			}
			if len(line)+1 > max {
				t.Fatalf("line of %d bytes over the cap %d", len(line), max)
			}
			out = append(append(out, line...), '\n')
		}
	})
}
