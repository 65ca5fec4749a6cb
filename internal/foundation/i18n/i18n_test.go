package i18n

import (
	"testing"
	"testing/fstest"
	"time"
)

// withLang runs f with the language set to tag, restoring English after.
func withLang(t *testing.T, tag string) {
	t.Helper()
	SetLang(tag)
	t.Cleanup(func() { SetLang(English) })
}

func TestMatch(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"zh_CN.UTF-8", SimplifiedChinese}, {"zh-TW", SimplifiedChinese}, {"zh", SimplifiedChinese},
		{"zh-Hans", SimplifiedChinese}, {"en_US.UTF-8", English}, {"de_DE", English}, {"", English},
		{"ZH_cn@pinyin", SimplifiedChinese},
	} {
		if got := Match(c.in); got != c.want {
			t.Errorf("Match(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestDetectFollowsPOSIXPrecedence(t *testing.T) {
	for _, c := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"LANG", map[string]string{"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "zh_CN.UTF-8"}, SimplifiedChinese},
		{"LC_ALL over LANG", map[string]string{"LANGUAGE": "", "LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "", "LANG": "zh_CN.UTF-8"}, English},
		{"LANGUAGE list", map[string]string{"LANGUAGE": "zh_CN:en", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "en_US.UTF-8"}, SimplifiedChinese},
		{"C skipped", map[string]string{"LANGUAGE": "", "LC_ALL": "C.UTF-8", "LC_MESSAGES": "", "LANG": "zh_CN.UTF-8"}, SimplifiedChinese},
	} {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			if got := Detect(); got != c.want {
				t.Errorf("Detect() = %q, want %q", got, c.want)
			}
		})
	}
}

func TestLoadRejectsConflictingTranslations(t *testing.T) {
	fsys := fstest.MapFS{
		"locales/zh-Hans/a.json": {Data: []byte(`{"Send": "发送"}`)},
		"locales/zh-Hans/b.json": {Data: []byte(`{"Send": "寄出"}`)},
	}
	if _, err := load(fsys); err == nil {
		t.Fatal("two areas translating Send differently loaded without an error")
	}
	fsys["locales/zh-Hans/b.json"] = &fstest.MapFile{Data: []byte(`{"Send": "发送", "Stop": "停止"}`)}
	c, err := load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if c[SimplifiedChinese]["Stop"] != "停止" {
		t.Errorf("catalog = %v", c)
	}
}

func TestTranslateAndPlural(t *testing.T) {
	if got := N("%d file", "%d files", 1, 1); got != "1 file" {
		t.Errorf("English singular = %q", got)
	}
	if got := N("%d file", "%d files", 2, 2); got != "2 files" {
		t.Errorf("English plural = %q", got)
	}
	if got := T("no such text %s", "x"); got != "no such text x" {
		t.Errorf("untranslated = %q", got)
	}
	changed := 0
	OnChange(func() { changed++ })
	withLang(t, "zh_CN.UTF-8")
	if changed != 1 || Lang() != SimplifiedChinese || !Chinese() {
		t.Fatalf("after SetLang: lang %q, listeners ran %d times", Lang(), changed)
	}
	SetLang(SimplifiedChinese) // no change: listeners stay quiet
	if changed != 1 {
		t.Errorf("listeners ran on a non-change")
	}
	// A missing translation falls back to the English text, formatted.
	if got := T("no such text %s", "x"); got != "no such text x" {
		t.Errorf("fallback = %q", got)
	}
}

func TestFormats(t *testing.T) {
	now := time.Date(2026, 12, 7, 10, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		lang   string
		t      time.Time
		want   string
		format func(time.Time) string
	}{
		{English, now.Add(-time.Hour), "09:30", nil},
		{English, time.Date(2026, 12, 6, 23, 28, 0, 0, time.UTC), "Dec 6 23:28", nil},
		{English, time.Date(2025, 3, 1, 8, 0, 0, 0, time.UTC), "Mar 1, 2025", nil},
		{SimplifiedChinese, time.Date(2026, 12, 6, 23, 28, 0, 0, time.UTC), "12月6日 23:28", nil},
		{SimplifiedChinese, time.Date(2025, 3, 1, 8, 0, 0, 0, time.UTC), "2025年3月1日", nil},
	} {
		SetLang(c.lang)
		if got := Date(c.t, now); got != c.want {
			t.Errorf("%s Date(%v) = %q, want %q", c.lang, c.t, got, c.want)
		}
	}
	SetLang(English)
	for _, c := range []struct {
		n    int64
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {-1234567, "-1,234,567"}} {
		if got := Int(c.n); got != c.want {
			t.Errorf("Int(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	for _, c := range []struct {
		amount float64
		cur    string
		want   string
	}{{0.0123, "CNY", "¥0.0123"}, {1.5, "usd", "$1.50"}, {0.00004, "", "$0.0000"}, {12, "CHF", "12.00 CHF"}, {-0.5, "CNY", "-¥0.5000"}} {
		if got := Money(c.amount, c.cur); got != c.want {
			t.Errorf("Money(%v, %q) = %q, want %q", c.amount, c.cur, got, c.want)
		}
	}
}
