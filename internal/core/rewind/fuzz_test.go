package rewind

import (
	"bytes"
	"path"
	"strings"
	"testing"
)

// FuzzParseIndex feeds the index decoder arbitrary bytes: it must never
// panic, never accept a path that could leave the workspace or a blob name
// that is not a sha256, and what it keeps must read back the same.
func FuzzParseIndex(f *testing.F) {
	h := strings.Repeat("0f", 32)
	f.Add([]byte(`{"v":1,"op":"change","msg":1,"call":"c","tool":"edit_file","changes":[{"rel":"a/b.go","before":"` + h + `","after":"` + h + `"}]}` + "\n"))
	f.Add([]byte(`{"v":1,"op":"untracked","msg":3,"note":"make ran"}` + "\n" + `{"v":1,"op":"chan`))
	f.Add([]byte(`{"v":1,"op":"change","msg":0,"changes":[{"rel":"x","newRel":"y/z"}]}`))
	f.Add([]byte("\n\n{\"v\":1,\"op\":\"change\",\"msg\":2,\"changes\":[{\"rel\":\"../x\"}]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, good, _, err := parseIndex(data)
		if err != nil {
			return
		}
		if good < 0 || good > len(data) {
			t.Fatalf("good %d of %d", good, len(data))
		}
		for _, r := range recs {
			for _, c := range r.Changes {
				for _, p := range []string{c.Rel, c.NewRel} {
					if p == "" && p == c.NewRel {
						continue
					}
					if strings.HasPrefix(p, "/") || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, "/../") {
						t.Fatalf("accepted path %q", p)
					}
				}
				for _, b := range []string{c.Before, c.After} {
					if b != "" && !validHash(b) {
						t.Fatalf("accepted blob %q", b)
					}
				}
			}
		}
		// The kept prefix reads back as the same records, and so does
		// their re-encoding.
		again, _, _, err := parseIndex(data[:good])
		if err != nil || len(again) != len(recs) {
			t.Fatalf("prefix: %v, %d vs %d", err, len(again), len(recs))
		}
		var buf []byte
		for _, r := range recs {
			line, err := encodeLine(r)
			if err != nil {
				t.Fatal(err)
			}
			buf = append(buf, line...)
		}
		re, g2, _, err := parseIndex(buf)
		if err != nil || len(re) != len(recs) || g2 != len(buf) {
			t.Fatalf("re-encoded: %v, %d vs %d", err, len(re), len(recs))
		}
		for i := range re {
			a, _ := encodeLine(re[i])
			b, _ := encodeLine(recs[i])
			if !bytes.Equal(a, b) {
				t.Fatalf("record %d: %s vs %s", i, a, b)
			}
		}
	})
}
