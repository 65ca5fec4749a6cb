package tools

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func mustEncode(t testing.TB, text, enc string) []byte {
	t.Helper()
	b, err := Encode(text, enc)
	if err != nil {
		t.Fatalf("encode %s: %v", enc, err)
	}
	return b
}

// Text in each encoding is detected as that encoding and reads back.
func TestDetectAndRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, text, enc string }{
		{"ascii", "package main\n", UTF8},
		{"utf-8", "你好，世界\n", UTF8},
		{"utf-8 bom", "héllo\n", UTF8BOM},
		{"utf-16le", "hello 世界\r\n", UTF16LE},
		{"utf-16be", "hello 世界\n", UTF16BE},
		{"utf-16le without bom", "// a Windows source file\r\nint x;\r\n", UTF16LENoBOM},
		{"utf-16be without bom", "// a source file\nint x;\n", UTF16BENoBOM},
		{"gb18030", "// 这是一个中文注释，说明这个函数的用途\nfunc main() {}\n", GB18030},
		{"gbk short", "中文\n", GB18030},
		{"big5", "// 這是一個中文註解，說明這個函數的用途\nfunc main() {}\n", Big5},
		{"shift_jis", "// これは日本語のコメントです。関数の説明\nfunc main() {}\n", ShiftJIS},
		{"gbk two characters", "中文", GB18030},
		{"gbk sentence", "错误：文件不存在，请检查路径。\n", GB18030},
		{"big5 short", "這是測試", Big5},
		{"big5 one word", "測試", Big5},
		{"big5 path", "路徑", Big5},
		{"big5 error", "錯誤", Big5},
		{"big5 wrong password", "密碼錯誤", Big5},
		{"shift_jis kanji", "設定", ShiftJIS},
		{"big5 sentence", "錯誤：檔案不存在，請檢查路徑。\n", Big5},
		{"shift_jis katakana", "テスト", ShiftJIS},
		{"shift_jis sentence", "エラー：ファイルが存在しません。\n", ShiftJIS},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := mustEncode(t, tt.text, tt.enc)
			if got := Detect(raw); got != tt.enc {
				t.Fatalf("Detect = %s, want %s", got, tt.enc)
			}
			text, err := Decode(raw, tt.enc)
			if err != nil || text != tt.text {
				t.Fatalf("Decode = %q, %v", text, err)
			}
			if back := mustEncode(t, text, tt.enc); !bytes.Equal(back, raw) {
				t.Fatalf("encode(decode) changed the bytes")
			}
		})
	}
}

func TestParseEncoding(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"GBK": GB18030, "gb2312": GB18030, "UTF-8": UTF8, "Shift-JIS": ShiftJIS,
		"sjis": ShiftJIS, "BIG5": Big5, "utf-16le": UTF16LE} {
		if got, ok := ParseEncoding(in); !ok || got != want {
			t.Errorf("ParseEncoding(%q) = %q %v, want %q", in, got, ok, want)
		}
	}
	if _, ok := ParseEncoding("klingon"); ok {
		t.Error("an unknown name parsed")
	}
}

func TestUnencodableTextIsRefused(t *testing.T) {
	t.Parallel()
	if _, err := Encode("emoji 😀", GB18030); err != nil {
		t.Fatalf("GB18030 holds all of Unicode: %v", err)
	}
	if _, err := Encode("한국어", Big5); err == nil {
		t.Fatal("Big5 took Hangul")
	}
}

// FuzzDetectDecode: any bytes get an encoding; decoding them never panics,
// gives valid UTF-8 for the legacy encodings, and text that decodes and
// encodes back to the same bytes stays stable on a second round.
func FuzzDetectDecode(f *testing.F) {
	for _, s := range []string{"hello\n", "\xef\xbb\xbfbom", "\xff\xfeh\x00i\x00", "\xfe\xff\x00h", "\xc4\xe3\xba\xc3", "\xa7\x41\xa6\x6e", "\x82\xa0\x82\xa2", "\x00\x01bin"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		enc := Detect(data)
		text, err := Decode(data, enc)
		if err != nil {
			if !strings.HasPrefix(enc, "utf-16") { // an odd number of bytes
				t.Fatalf("Decode(%s) failed: %v", enc, err)
			}
			return
		}
		if enc != UTF8 && enc != UTF8BOM && !utf8.ValidString(text) { // UTF-8 keeps any bytes it is given
			t.Fatalf("Decode(%s) gave invalid UTF-8", enc)
		}
		back, err := Encode(text, enc)
		if err != nil || !bytes.Equal(back, data) {
			return // not a round trip: readText refuses such a file for editing
		}
		again, err := Decode(back, enc)
		if err != nil || again != text {
			t.Fatalf("second round differs: %q vs %q", again, text)
		}
	})
}

// NUL bytes on both sides of the pairs are a binary file, on one side
// only UTF-16 without a byte order mark.
func TestBinaryOrUTF16(t *testing.T) {
	t.Parallel()
	le := mustEncode(t, "plain ascii text here", UTF16LENoBOM)
	if isBinary(le) || Detect(le) != UTF16LENoBOM {
		t.Fatalf("BOM-less UTF-16 taken for binary or %s", Detect(le))
	}
	bin := []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x3e\x00\x01\x00\x00\x00")
	if !isBinary(bin) {
		t.Fatal("an ELF header is not binary")
	}
	if isBinary([]byte("short\x00")) != true {
		t.Fatal("a short NUL file is not binary")
	}
}
