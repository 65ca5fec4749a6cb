package redact

import (
	"strings"
	"testing"
)

// benchText builds n bytes of realistic plugin output: the negative corpus
// (paths, hashes, logs, prose full of "key" and "token", code) cycled, with
// a credential from the positive corpus every 4 KiB, as a noisy stderr tail
// or a tool result would carry.
func benchText(tb testing.TB, n int) string {
	lines := negativeCorpus(tb)
	secrets := positiveCorpus(1)
	var b strings.Builder
	for i, next := 0, 0; b.Len() < n; i++ {
		if b.Len() >= next {
			b.WriteString("warning: " + secrets[i%len(secrets)].Text + "\n")
			next += 4 << 10
		}
		b.WriteString(lines[i%len(lines)])
		b.WriteByte('\n')
	}
	return b.String()[:n]
}

// The baselines scan the same bytes once with strings.Index for a needle
// that is not there: the floor of any pass that reads all of its input.
var sink int

func benchRedact(b *testing.B, n int) {
	text := benchText(b, n)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		sink += len(String(text))
	}
}

func benchIndex(b *testing.B, n int) {
	text := benchText(b, n)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		sink += strings.Index(text, "\x00never\x00")
	}
}

func BenchmarkRedactTail16KiB(b *testing.B)  { benchRedact(b, 16<<10) }
func BenchmarkIndexTail16KiB(b *testing.B)   { benchIndex(b, 16<<10) }
func BenchmarkRedactResult1MiB(b *testing.B) { benchRedact(b, 1<<20) }
func BenchmarkIndexResult1MiB(b *testing.B)  { benchIndex(b, 1<<20) }
