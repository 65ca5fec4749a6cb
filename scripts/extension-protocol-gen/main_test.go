package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedArtifactsAreDeterministicAndCommitted regenerates every
// artifact twice and fails on any difference from the committed files.
func TestGeneratedArtifactsAreDeterministicAndCommitted(t *testing.T) {
	first, second := artifacts(), artifacts()
	for path, want := range first {
		if !bytes.Equal(want, second[path]) {
			t.Errorf("%s: two generations differ", path)
		}
		got, err := os.ReadFile(filepath.Join("..", "..", path))
		if err != nil {
			t.Fatalf("read committed %s: %v", path, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s drifted from the Go types: run `go run ./scripts/extension-protocol-gen`", path)
		}
	}
}

func TestIndexCounts(t *testing.T) {
	idx := string(index())
	for _, want := range []string{"## Methods (21)", "## Hook points (17)", "## Limits (4)", "## Errors (28)"} {
		if !strings.Contains(idx, want) {
			t.Errorf("generated index lacks %q", want)
		}
	}
}

func TestCheckModeDetectsDrift(t *testing.T) {
	dir := t.TempDir()
	if err := run(dir, false); err != nil {
		t.Fatal(err)
	}
	if err := run(dir, true); err != nil {
		t.Fatalf("fresh artifacts fail the check: %v", err)
	}
	stale := filepath.Join(dir, schemaPath)
	if err := os.WriteFile(stale, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(dir, true); err == nil || !strings.Contains(err.Error(), "stale") {
		t.Fatalf("check of a stale schema: got %v, want a stale error", err)
	}
}
