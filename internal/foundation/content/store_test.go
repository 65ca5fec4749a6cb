package content

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/protocol"
)

func readAll(t *testing.T, s *Store, ref string) ([]byte, int) {
	t.Helper()
	var out []byte
	pages := 0
	for off := int64(0); ; {
		res, err := s.Read(protocol.ContentReadParams{ContentRef: ref, Offset: off})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		b, err := base64.StdEncoding.DecodeString(res.DataBase64)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > protocol.ContentRefChunkBytes {
			t.Fatalf("page of %d bytes", len(b))
		}
		out = append(out, b...)
		if res.NextOffset == 0 {
			if int64(len(out)) != res.TotalBytes {
				t.Fatalf("read %d of %d bytes", len(out), res.TotalBytes)
			}
			sum := sha256.Sum256(out)
			if hex.EncodeToString(sum[:]) != res.SHA256 || res.Encoding != protocol.EncodingUTF8 {
				t.Fatalf("sha/encoding mismatch: %+v", res)
			}
			return out, pages
		}
		off = res.NextOffset
	}
}

func TestPagingRoundTrip(t *testing.T) {
	tests := []struct {
		name  string
		size  int
		pages int
	}{
		{"empty", 0, 1},
		{"one byte", 1, 1},
		{"exactly one page", protocol.ContentRefChunkBytes, 1},
		{"one page and a byte", protocol.ContentRefChunkBytes + 1, 2},
		{"1 MiB", 1 << 20, 4},
		{"7.9 MiB", 79 << 20 / 10, 32},
	}
	s := NewStore()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := bytes.Repeat([]byte("ab"), tt.size/2+1)[:tt.size]
			d, err := s.Put(PayloadPointer, data)
			if err != nil {
				t.Fatal(err)
			}
			if !regexp.MustCompile(`^content_[0-9a-f]{24}$`).MatchString(d.ContentRef) {
				t.Fatalf("ref %q", d.ContentRef)
			}
			got, pages := readAll(t, s, d.ContentRef)
			if !bytes.Equal(got, data) || pages != tt.pages {
				t.Fatalf("pages %d (want %d), equal %t", pages, tt.pages, bytes.Equal(got, data))
			}
		})
	}
}

func TestLimitsAndExpiry(t *testing.T) {
	s := NewStore()
	if _, err := s.Put(PayloadPointer, make([]byte, protocol.ContentRefObjectBytes+1)); protocol.ReasonOf(err) != protocol.ReasonFrameTooLarge {
		t.Fatalf("8 MiB + 1: %v", err)
	}
	if _, err := s.Put(PayloadPointer, make([]byte, protocol.ContentRefObjectBytes)); err != nil {
		t.Fatalf("exactly 8 MiB: %v", err)
	}
	first, _ := s.Put(PayloadPointer, []byte(`"first"`))
	for i := 0; i < MaxObjects; i++ {
		s.Put(PayloadPointer, []byte(`"x"`))
	}
	if s.Len() != MaxObjects {
		t.Fatalf("len %d", s.Len())
	}
	if _, err := s.Read(protocol.ContentReadParams{ContentRef: first.ContentRef}); protocol.ReasonOf(err) != protocol.ReasonContentRefExpired {
		t.Fatalf("evicted ref: %v", err)
	}
	last, _ := s.Put(PayloadPointer, []byte(`"abc"`))
	if _, err := s.Read(protocol.ContentReadParams{ContentRef: last.ContentRef, Offset: 6}); protocol.ReasonOf(err) != protocol.ReasonContentRefExpired {
		t.Fatalf("offset past the end: %v", err)
	}
	if _, err := s.Read(protocol.ContentReadParams{ContentRef: "content_000000000000000000000000"}); protocol.ReasonOf(err) != protocol.ReasonContentRefExpired {
		t.Fatalf("unknown ref: %v", err)
	}
}

func TestExternalizeThreshold(t *testing.T) {
	s := NewStore()
	small := json.RawMessage(`"` + strings.Repeat("a", protocol.ExternalizeFieldBytes-2) + `"`)
	p, ext, err := s.Externalize(small)
	if err != nil || len(ext) != 0 || !bytes.Equal(p, small) {
		t.Fatalf("64 KiB stays inline: %v %v", ext, err)
	}
	big := json.RawMessage(`"` + strings.Repeat("a", protocol.ExternalizeFieldBytes-1) + `"`)
	p, ext, err = s.Externalize(big)
	if err != nil || string(p) != "null" || len(ext) != 1 || ext[0].JSONPointer != "/payload" || ext[0].TotalBytes != int64(len(big)) {
		t.Fatalf("64 KiB + 1 is externalized: %s %+v %v", p, ext, err)
	}
}

func TestResolveReplacement(t *testing.T) {
	s := NewStore()
	data := []byte(`{"text":"` + strings.Repeat("z", 100<<10) + `"}`)
	d, _ := s.Put(ReplacementPointer, data)
	good := d
	tests := []struct {
		name    string
		res     protocol.InterceptResult
		wantErr string
	}{
		{"inline", protocol.InterceptResult{Replacement: json.RawMessage(`{"a":1}`)}, ""},
		{"by reference", protocol.InterceptResult{Replacement: json.RawMessage(`null`), Externalized: []protocol.ExternalizedField{good}}, ""},
		{"lying sha256", protocol.InterceptResult{Externalized: []protocol.ExternalizedField{{JSONPointer: "/replacement", ContentRef: d.ContentRef, TotalBytes: d.TotalBytes, SHA256: strings.Repeat("0", 64)}}}, "sha256"},
		{"lying size", protocol.InterceptResult{Externalized: []protocol.ExternalizedField{{JSONPointer: "/replacement", ContentRef: d.ContentRef, TotalBytes: 5, SHA256: d.SHA256}}}, "totalBytes 5"},
		{"two descriptors", protocol.InterceptResult{Externalized: []protocol.ExternalizedField{good, good}}, "exactly one"},
		{"wrong pointer", protocol.InterceptResult{Externalized: []protocol.ExternalizedField{{JSONPointer: "/payload", ContentRef: d.ContentRef, TotalBytes: d.TotalBytes, SHA256: d.SHA256}}}, "points at"},
		{"inline not null", protocol.InterceptResult{Replacement: json.RawMessage(`{}`), Externalized: []protocol.ExternalizedField{good}}, "must be null"},
		{"over 8 MiB", protocol.InterceptResult{Externalized: []protocol.ExternalizedField{{JSONPointer: "/replacement", ContentRef: d.ContentRef, TotalBytes: 8<<20 + 1, SHA256: d.SHA256}}}, "limit"},
		{"unknown ref", protocol.InterceptResult{Externalized: []protocol.ExternalizedField{{JSONPointer: "/replacement", ContentRef: "content_ffffffffffffffffffffffff", TotalBytes: 1, SHA256: "x"}}}, "unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.ResolveReplacement(&tt.res)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if len(tt.res.Externalized) == 1 && !bytes.Equal(got, data) {
					t.Fatal("resolved bytes differ")
				}
				return
			}
			if protocol.ReasonOf(err) != protocol.ReasonProtocolError || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want protocol_error with %q", err, tt.wantErr)
			}
		})
	}
}

func FuzzRead(f *testing.F) {
	s := NewStore()
	d, _ := s.Put(PayloadPointer, bytes.Repeat([]byte("q"), 300<<10))
	f.Add(d.ContentRef, int64(0))
	f.Add(d.ContentRef, int64(262144))
	f.Add("content_x", int64(-1))
	f.Fuzz(func(t *testing.T, ref string, off int64) {
		if off < 0 {
			return // the strict decoder refuses negative offsets before Read
		}
		res, err := s.Read(protocol.ContentReadParams{ContentRef: ref, Offset: off})
		if err != nil {
			if protocol.ReasonOf(err) != protocol.ReasonContentRefExpired {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if res.NextOffset != 0 && res.NextOffset <= off {
			t.Fatalf("nextOffset %d does not advance from %d", res.NextOffset, off)
		}
	})
}
