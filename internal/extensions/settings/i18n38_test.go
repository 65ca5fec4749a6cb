package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The language and the currency the user picked are settings.json members
// that survive a reload (before issue 38 they were unknown members).
func TestLanguageAndCurrencyAreKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	f, p := Load(path)
	if p != nil {
		t.Fatal(p)
	}
	if err := f.Update(func(s *Settings) { s.Language, s.Currency = "zh-Hans", "CNY" }); err != nil {
		t.Fatal(err)
	}
	again, p := Load(path)
	if p != nil {
		t.Fatalf("reload: %v", p)
	}
	if s := again.Get(); s.Language != "zh-Hans" || s.Currency != "CNY" {
		t.Fatalf("reloaded %+v", s)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"language": "zh-Hans"`) || !strings.Contains(string(data), `"currency": "CNY"`) {
		t.Fatalf("file reads %s", data)
	}
}

// A Chinese character where JSON wants a value is named as it is, at its
// column in characters ('ä' and the byte column before jsonerr).
func TestBrokenJSONNamesTheChineseCharacter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	writeBroken(t, path, "{\n  \"defaultModel\": 你好\n}\n")
	_, p := Load(path)
	if p == nil || !p.Broken {
		t.Fatalf("problem %v, want broken", p)
	}
	if !strings.Contains(p.Reason, "'你'") || p.Line != 2 || p.Column != 19 {
		t.Fatalf("problem at %d:%d: %s; want '你' at 2:19", p.Line, p.Column, p.Reason)
	}
}
