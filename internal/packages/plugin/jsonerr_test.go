package plugin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A manifest that is not JSON says where and which character, as the
// person who typed it sees it: encoding/json named the first byte of "你"
// ('ä') at a byte offset.
func TestManifestSyntaxErrorNamesTheCharacter(t *testing.T) {
	doc := "{\"apiVersion\": \"reasonix.io/plugin/v2\",\n  \"name\": 你好}"
	_, err := ParseManifest([]byte(doc))
	want := "reasonix-plugin.json: name: invalid JSON: line 2, column 11: invalid character '你' (U+4F60) looking for beginning of value"
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}

	write := func(t *testing.T, root, rel, text string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ name, file, text, want string }{
		{"native manifest", ManifestFile, doc, "line 2, column 11: invalid character '你' (U+4F60)"},
		{"claude manifest, full-width comma", ClaudeManifestFile, "{\"name\": \"审查\"，\"version\": \"1\"}",
			"line 1, column 14: invalid character '，' (U+FF0C, JSON needs ',') after object key:value pair"},
		{"claude marketplace", MarketplaceFile, "{\n\"name\": “m”}", "line 2, column 9: invalid character '“' (U+201C, JSON needs '\"')"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, tc.file, tc.text)
			var err error
			if tc.file == MarketplaceFile {
				_, err = ReadMarketplace(root)
			} else {
				_, err = LoadPackage(root)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "'ä'") {
				t.Fatalf("got  %v\nwant %s", err, tc.want)
			}
		})
	}

	t.Run("package store", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "plugin-packages.json")
		write(t, filepath.Dir(path), filepath.Base(path), "{\"version\": 1,\n \"plugins\": [ 插件 ]}")
		_, err := readStore(path)
		if want := "invalid JSON: line 2, column 15: invalid character '插' (U+63D2)"; err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("got  %v\nwant %s", err, want)
		}
	})
}
