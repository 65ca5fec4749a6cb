package desktop

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"golang.org/x/image/font/sfnt"
)

// cjk reports a Chinese, Japanese or Korean character or CJK punctuation:
// no font Fyne bundles has them, a language's own words (the Language
// picker's "简体中文") are drawn by the system's CJK font, and the window
// says so when that font is missing (fontcheck.go).
func cjk(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) ||
		(r >= 0x3000 && r <= 0x303F) || (r >= 0xFF00 && r <= 0xFFEF)
}

// The window's own words draw with the fonts Fyne bundles, on every
// platform: a character they lack is left to the system's fonts, and
// where none has it (the Windows build under wine showed "� done" for
// "● done") it is drawn as a replacement box. Every string and rune the
// desktop packages write must be in the text font or Fyne's symbol font.
func TestUITextUsesBundledGlyphs(t *testing.T) {
	var fonts []*sfnt.Font
	for _, r := range []fyne.Resource{
		theme.DefaultTextFont(), theme.DefaultTextBoldFont(), theme.DefaultTextItalicFont(),
		theme.DefaultTextBoldItalicFont(), theme.DefaultSymbolFont(),
	} {
		f, err := sfnt.Parse(r.Content())
		if err != nil {
			t.Fatalf("%s: %v", r.Name(), err)
		}
		fonts = append(fonts, f)
	}
	var buf sfnt.Buffer
	drawn := func(r rune) bool {
		// The text font for a style, or the symbol font, must have it; a
		// bold label lacking a glyph its regular face has still falls
		// back, so any one of them is enough.
		for _, f := range fonts {
			if i, err := f.GlyphIndex(&buf, r); err == nil && i != 0 {
				return true
			}
		}
		return false
	}
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || (lit.Kind != token.STRING && lit.Kind != token.CHAR) {
				return true
			}
			s := lit.Value
			if lit.Kind == token.CHAR {
				r, _, _, err := strconv.UnquoteChar(strings.Trim(s, "'"), '\'')
				if err != nil {
					return true
				}
				s = string(r)
			} else if u, err := strconv.Unquote(s); err == nil {
				s = u
			}
			for _, r := range s {
				if r < 0x80 || cjk(r) {
					continue
				}
				checked++
				if !drawn(r) {
					t.Errorf("%s: %q (U+%04X) is in no font Fyne bundles", fset.Position(lit.Pos()), r, r)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no character past ASCII found: the walk read nothing")
	}
}
