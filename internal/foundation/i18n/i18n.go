package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// English is the source language: its texts are the catalog keys.
const English = "en"

// SimplifiedChinese is the Simplified Chinese catalog's tag.
const SimplifiedChinese = "zh-Hans"

// Language is one language the app speaks.
type Language struct {
	Tag  string // BCP 47: "en", "zh-Hans"
	Name string // in the language itself: "English", "简体中文"
}

// Languages are the complete translations, English first.
var Languages = []Language{
	{Tag: English, Name: "English"},
	{Tag: SimplifiedChinese, Name: "简体中文"},
}

//go:embed locales
var locales embed.FS

// catalogs maps a language tag to its messages (English key → translation).
// Loaded once; never written after.
var catalogs = sync.OnceValue(func() map[string]map[string]string {
	c, err := load(locales)
	if err != nil {
		// The catalog is embedded and checked by tests: a bad file is a
		// build defect, not a user's problem.
		panic(fmt.Sprintf("i18n: %v", err))
	}
	return c
})

// load reads locales/<tag>/*.json from fsys.
func load(fsys fs.FS) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	dirs, err := fs.ReadDir(fsys, "locales")
	if err != nil {
		return nil, fmt.Errorf("read locales: %w", err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, err := fs.Glob(fsys, path.Join("locales", d.Name(), "*.json"))
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", d.Name(), err)
		}
		sort.Strings(files)
		msgs := map[string]string{}
		for _, f := range files {
			data, err := fs.ReadFile(fsys, f)
			if err != nil {
				return nil, fmt.Errorf("read %s: %w", f, err)
			}
			var m map[string]string
			if err := json.Unmarshal(data, &m); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			for k, v := range m {
				if old, dup := msgs[k]; dup && old != v {
					return nil, fmt.Errorf("%s: %q translated twice (%q and %q)", f, k, old, v)
				}
				msgs[k] = v
			}
		}
		out[d.Name()] = msgs
	}
	return out, nil
}

// Catalog returns a copy of one language's messages (for the checks).
func Catalog(tag string) map[string]string {
	src := catalogs()[tag]
	out := make(map[string]string, len(src))
	for k, v := range src {
		out[k] = v
	}
	return out
}

var (
	current   atomic.Value // string: the language tag in use
	listenMu  sync.Mutex
	listeners []func()
)

// Lang is the language in use: English until SetLang.
func Lang() string {
	if s, ok := current.Load().(string); ok {
		return s
	}
	return English
}

// Chinese reports whether the language in use is a Chinese one.
func Chinese() bool { return strings.HasPrefix(Lang(), "zh") }

// SetLang switches the language: tag is a Languages tag, or a locale such
// as "zh_CN.UTF-8" or "zh-TW" matched to the closest one, or "" for the
// system's (Detect). Listeners registered with OnChange run after a change,
// on the caller's goroutine. It returns the tag now in use.
func SetLang(tag string) string {
	if tag == "" {
		tag = Detect()
	}
	tag = Match(tag)
	old := Lang()
	current.Store(tag)
	if old != tag {
		listenMu.Lock()
		ls := append([]func(){}, listeners...)
		listenMu.Unlock()
		for _, f := range ls {
			f()
		}
	}
	return tag
}

// OnChange registers f to run after each language change. f runs on the
// goroutine that called SetLang: a window hands its work to its UI thread.
func OnChange(f func()) {
	listenMu.Lock()
	listeners = append(listeners, f)
	listenMu.Unlock()
}

// Match maps a locale or tag to the closest complete language: any Chinese
// (zh, zh_CN, zh-TW, zh-Hant…) to Simplified Chinese until a Traditional
// catalog exists, anything else to English.
func Match(locale string) string {
	l := strings.ToLower(strings.TrimSpace(locale))
	if i := strings.IndexAny(l, ".@"); i >= 0 {
		l = l[:i]
	}
	l = strings.ReplaceAll(l, "_", "-")
	switch {
	case l == "zh" || strings.HasPrefix(l, "zh-"):
		return SimplifiedChinese
	default:
		return English
	}
}

// T translates msg (English, a fmt format) and formats it with args.
func T(msg string, args ...any) string {
	return format(lookup(msg), args)
}

// N chooses one or other by n and the language's plural rule, translates
// it (the catalog key is other) and formats it with args.
func N(one, other string, n int, args ...any) string {
	msg := other
	if Lang() == English && n == 1 {
		msg = one
	}
	// Chinese has a single form: the catalog's translation of other.
	return format(lookup(msg), args)
}

func lookup(msg string) string {
	tag := Lang()
	if tag == English {
		return msg
	}
	if t, ok := catalogs()[tag][msg]; ok && t != "" {
		return t
	}
	return msg
}

func format(msg string, args []any) string {
	if len(args) == 0 {
		return msg
	}
	return fmt.Sprintf(msg, args...)
}

// M marks msg as a catalog key without translating it: for a table of
// labels written at package level and translated with T where shown
// (T(label)). The check collects M's literals as keys.
func M(msg string) string { return msg }
