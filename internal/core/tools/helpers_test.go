package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func run(t testing.TB, name, root, args string) (string, error) {
	t.Helper()
	for _, tool := range Builtins() {
		if tool.Name == name {
			return tool.Run(context.Background(), root, json.RawMessage(args))
		}
	}
	t.Fatalf("no tool %s", name)
	return "", nil
}

func writeFile(t testing.TB, root, rel, content string) {
	t.Helper()
	writeBytes(t, root, rel, []byte(content))
}

func writeBytes(t testing.TB, root, rel string, data []byte) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readBack(t testing.TB, root, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
