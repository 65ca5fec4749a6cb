package tools

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/transform"
)

// The encodings a file is read and written in (FileChange.Encoding).
const (
	UTF8    = "utf-8"
	UTF8BOM = "utf-8-bom"
	UTF16LE = "utf-16le"
	UTF16BE = "utf-16be"
	// UTF-16 without a byte order mark (what some Windows tools save),
	// told by where its NUL bytes fall, and written back without one.
	UTF16LENoBOM = "utf-16le-nobom"
	UTF16BENoBOM = "utf-16be-nobom"
	GB18030      = "gb18030"
	Big5         = "big5"
	ShiftJIS     = "shift_jis"
)

// binaryPeek is how much of a file is looked at for a NUL byte, as the
// real host does: enough to catch nearly every binary format cheaply.
const binaryPeek = 8 << 10

var legacy = map[string]encoding.Encoding{
	GB18030:  simplifiedchinese.GB18030,
	Big5:     traditionalchinese.Big5,
	ShiftJIS: japanese.ShiftJIS,
}

// ParseEncoding reads an encoding name as a user or a model writes it
// ("GBK", "utf8", "Shift-JIS", ...). ok is false for "" or an unknown name.
func ParseEncoding(s string) (string, bool) {
	switch strings.NewReplacer("-", "", "_", "", " ", "").Replace(strings.ToLower(strings.TrimSpace(s))) {
	case "utf8":
		return UTF8, true
	case "utf8bom", "utf8withbom":
		return UTF8BOM, true
	case "utf16le", "utf16":
		return UTF16LE, true
	case "utf16be":
		return UTF16BE, true
	case "utf16lenobom":
		return UTF16LENoBOM, true
	case "utf16benobom":
		return UTF16BENoBOM, true
	case "gb18030", "gbk", "gb2312", "cp936":
		return GB18030, true
	case "big5", "cp950":
		return Big5, true
	case "shiftjis", "sjis", "cp932":
		return ShiftJIS, true
	}
	return "", false
}

// isBinary reports whether data looks like a binary file: a NUL byte in
// its first 8 KiB, unless UTF-16 (a byte order mark, or NULs on one side
// of every pair) explains the NULs.
func isBinary(data []byte) bool {
	peek := data[:min(len(data), binaryPeek)]
	if hasUTF16BOM(peek) || bytes.IndexByte(peek, 0) < 0 {
		return false
	}
	_, utf16 := utf16NoBOM(peek)
	return !utf16
}

// isUTF16 reports whether data is UTF-16, with or without a byte order
// mark: text that is read whole, as it cannot be cut into lines bytewise.
func isUTF16(data []byte) bool {
	_, ok := utf16NoBOM(data[:min(len(data), binaryPeek)])
	return ok || hasUTF16BOM(data)
}

// utf16NoBOM tells UTF-16 without a byte order mark by its NUL bytes, as
// the real host does: text mostly in ASCII has a NUL in every high byte,
// so at least 30% of one side's bytes are NUL and at most 5% of the other's
// (a binary file has NULs on both sides, UTF-8 text none).
func utf16NoBOM(b []byte) (string, bool) {
	n := len(b) &^ 1
	if n < 16 {
		return "", false
	}
	var even, odd int
	for i := 0; i < n; i++ {
		if b[i] == 0 {
			if i%2 == 0 {
				even++
			} else {
				odd++
			}
		}
	}
	half := n / 2
	switch {
	case odd*10 >= half*3 && even*20 <= half:
		return UTF16LENoBOM, true
	case even*10 >= half*3 && odd*20 <= half:
		return UTF16BENoBOM, true
	}
	return "", false
}

func hasUTF16BOM(data []byte) bool {
	return len(data) >= 2 && (data[0] == 0xFF && data[1] == 0xFE || data[0] == 0xFE && data[1] == 0xFF)
}

// Detect names the encoding of a text file's bytes: a byte order mark
// first, then valid UTF-8, then the legacy CJK encodings. Bytes that are
// none of them read as UTF-8 (Go strings hold any byte, so an edit keeps
// the bytes it does not touch).
//
// GB18030, Big5 and Shift-JIS overlap heavily: most byte pairs are valid
// in two or three of them. The real host only knows GB18030; here each
// candidate that decodes without an invalid sequence is scored by what its
// text holds (the most common Chinese and Japanese characters and kana
// count for it; private-use, half-width katakana and rare ideographs,
// what a wrong guess produces, count against it) and the best wins, GB18030
// first on a tie, as it is the commonest of them for our users.
func Detect(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		return UTF8BOM
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		return UTF16LE
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		return UTF16BE
	}
	// Before UTF-8: ASCII with NULs between is valid UTF-8 too.
	if enc, ok := utf16NoBOM(data[:min(len(data), binaryPeek)]); ok {
		return enc
	}
	if utf8.Valid(data) {
		return UTF8
	}
	best, bestScore := UTF8, 0
	for _, name := range []string{GB18030, Big5, ShiftJIS} {
		text, err := legacy[name].NewDecoder().Bytes(data)
		if err != nil || bytes.ContainsRune(text, utf8.RuneError) {
			continue
		}
		if s := score(string(text)); best == UTF8 || s > bestScore {
			best, bestScore = name, s
		}
	}
	return best
}

// Characters that make up a large share of any Chinese or Japanese text,
// in their simplified, traditional and Japanese forms.
const common = "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年要就会可以对生能而那得于着下自之" +
	"這來國個說們為時會對於著" + "日本語の私事出来言見" + "，。、：；！？（）「」"

func score(text string) int {
	s := 0
	for _, r := range text {
		switch {
		case r < 0x80:
		case strings.ContainsRune(common, r):
			s += 4
		case r >= 0x3040 && r <= 0x30FF: // hiragana and katakana
			s += 2
		case r >= 0x4E00 && r <= 0x9FFF, r >= 0x3000 && r <= 0x303F, r >= 0xFF01 && r <= 0xFF5E:
			s++
		case r >= 0xFF61 && r <= 0xFF9F: // half-width katakana: Chinese read as Shift-JIS
			s -= 2
		case r >= 0xE000 && r <= 0xF8FF, r >= 0x3400 && r <= 0x4DBF, r > 0xFFFF, unicode.IsControl(r):
			s -= 4
		}
	}
	return s
}

// Decode turns a file's bytes in enc into text.
func Decode(data []byte, enc string) (string, error) {
	switch enc {
	case UTF8, "":
		return string(data), nil
	case UTF8BOM:
		return string(bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})), nil
	case UTF16LE, UTF16BE, UTF16LENoBOM, UTF16BENoBOM:
		if (enc == UTF16LE || enc == UTF16BE) && hasUTF16BOM(data) {
			data = data[2:]
		}
		if len(data)%2 != 0 {
			return "", fmt.Errorf("not %s: an odd number of bytes", enc)
		}
		u := make([]uint16, len(data)/2)
		for i := range u {
			if enc == UTF16LE || enc == UTF16LENoBOM {
				u[i] = uint16(data[2*i]) | uint16(data[2*i+1])<<8
			} else {
				u[i] = uint16(data[2*i])<<8 | uint16(data[2*i+1])
			}
		}
		return string(utf16.Decode(u)), nil
	}
	e, ok := legacy[enc]
	if !ok {
		return "", fmt.Errorf("unknown encoding %q", enc)
	}
	out, err := e.NewDecoder().Bytes(data)
	if err != nil {
		return "", fmt.Errorf("decode %s: %w", enc, err)
	}
	return string(out), nil
}

// errUnencodable marks text the file's encoding cannot hold.
var errUnencodable = errors.New("has characters the file's encoding cannot hold")

// Encode turns text into bytes in enc.
func Encode(text, enc string) ([]byte, error) {
	switch enc {
	case UTF8, "":
		return []byte(text), nil
	case UTF8BOM:
		return append([]byte{0xEF, 0xBB, 0xBF}, text...), nil
	case UTF16LE, UTF16BE, UTF16LENoBOM, UTF16BENoBOM:
		u := utf16.Encode([]rune(text))
		out := make([]byte, 0, 2+2*len(u))
		if enc == UTF16LE || enc == UTF16LENoBOM {
			if enc == UTF16LE {
				out = append(out, 0xFF, 0xFE)
			}
			for _, c := range u {
				out = append(out, byte(c), byte(c>>8))
			}
		} else {
			if enc == UTF16BE {
				out = append(out, 0xFE, 0xFF)
			}
			for _, c := range u {
				out = append(out, byte(c>>8), byte(c))
			}
		}
		return out, nil
	}
	e, ok := legacy[enc]
	if !ok {
		return nil, fmt.Errorf("unknown encoding %q", enc)
	}
	out, _, err := transform.Bytes(e.NewEncoder(), []byte(text))
	if err != nil {
		return nil, fmt.Errorf("%s %w (%v)", enc, errUnencodable, err)
	}
	return out, nil
}
