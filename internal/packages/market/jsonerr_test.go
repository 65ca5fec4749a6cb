package market

import "testing"

// A market index with a Chinese character where JSON needs a value is
// reported at its place and by the character, not its first byte ('å').
func TestParseIndexNamesTheCharacter(t *testing.T) {
	_, err := ParseIndex([]byte("{\"schemaVersion\": 1,\n \"plugins\": [插件]}"))
	want := "not a market index: line 2, column 14: invalid character '插' (U+63D2) looking for beginning of value"
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
}
