package market

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
)

// BenchmarkStage: a market install's download, check and unpack of a
// package the size of a large published plugin (400 files, 16 MiB), over
// loopback HTTP. The check reads the archive in memory: its cost is the
// gunzip, one sha256 pass and the writes.
func BenchmarkStage(b *testing.B) {
	files := map[string]string{}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 400 {
		buf := make([]byte, 40<<10)
		for j := range buf {
			buf[j] = byte('a' + rng.IntN(26)) // text-like, compresses as source does
		}
		files[fmt.Sprintf("skills/s%03d/SKILL.md", i)] = string(buf)
	}
	t := &testing.T{}
	archive := tarGz(t, "pkg", files)
	sum := digestOf(files)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(archive) }))
	defer srv.Close()
	idx := &Index{SchemaVersion: 1, URL: srv.URL + "/index.json"}
	e := Entry{ID: "big", Kind: KindPlugin, Name: "big", Version: "1", Source: "big.tar.gz", ContentSHA256: sum}
	c := &Client{}
	dir := b.TempDir()
	b.SetBytes(int64(len(files) * (40 << 10)))
	b.ReportMetric(float64(len(archive))/(1<<20), "archive-MiB")
	for b.Loop() {
		st, err := c.Stage(context.Background(), dir, idx, e, nil)
		if err != nil {
			b.Fatal(err)
		}
		st.Discard()
	}
}

// BenchmarkWriteBaseline writes the same 400 files with os.MkdirAll and
// os.WriteFile, no archive, no hash: what any unpack of them costs here.
func BenchmarkWriteBaseline(b *testing.B) {
	buf := make([]byte, 40<<10)
	dir := b.TempDir()
	b.SetBytes(400 * (40 << 10))
	n := 0
	for b.Loop() {
		n++
		for i := range 400 {
			d := fmt.Sprintf("%s/%d/skills/s%03d", dir, n, i)
			if err := os.MkdirAll(d, 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(d+"/SKILL.md", buf, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		os.RemoveAll(fmt.Sprintf("%s/%d", dir, n))
	}
}
