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
		if s := score(string(text), name); best == UTF8 || s > bestScore {
			best, bestScore = name, s
		}
	}
	return best
}

// Characters that make up a large share of any Chinese or Japanese text:
// the commonest Chinese characters in their simplified and traditional
// forms, and CJK punctuation.
const common = "的一是不了人我在有他这這中大来來上国國个個到说說们們为為子和你地出道也时時年要就会會可以对對生能而那得于於着著下自之" +
	"过過家学學里裡后後么麼心多天好都然没沒日起还還发發成事只作当當想看文无無开開手十用主行方又如前所本见見经經头頭面公同三已老从從" +
	"动動两兩长長知民样樣现現分将將外但身些与與高意进進把法此实實回二理美点點月明其种種声聲全工己话話儿兒者向情部正名定女问問力机機给給" +
	"等几幾很业業最间間新什打便位因重被走电電四第门門相次东東政海口使教西再平真听聽世气氣信北少关關并並内內加化由却卻代军軍产產入先山五" +
	"太水万萬市眼体體别別处處总總才场場师師书書比住员員九笑性通目华華报報立马馬命张張活难難神数數件安表原车車白应應路期叫死常提感金何更反" +
	"合放做系计計或司利受光王果亲親界及今京务務制解各任至清物台象记記边邊共风風战戰干接它许許八特觉覺望直服林题題建南度统統色字请請交爱愛" +
	"让讓认認算论論百吃义義科怎元社术術结結六功指思非流每青管夫连連远遠资資队隊跟带帶花快条條院变變联聯言权權往展该該领領传傳近留红紅治" +
	"决決周保达達办辦运運武半候七必城父强強步完革深区區即求品士转轉量空众眾技轻輕程告江语語英基派满滿式李息写寫呢识識极極令黄黃德收脸臉钱錢" +
	"试試测測文件函数數返回错錯误誤值类類型" +
	"，。、：；！？（）「」《》"

// score rates text as a decoding of bytes in enc: what a right guess
// gives (common characters, kana for Shift-JIS) counts for it, what a
// wrong one produces (private-use and rare characters, half-width katakana,
// kana, Greek, Cyrillic and box drawing from another encoding's symbol
// rows) against it.
func score(text, enc string) int {
	s := 0
	for _, r := range text {
		switch {
		case r < 0x80:
		case strings.ContainsRune(common, r):
			s += 4
		case r >= 0x3040 && r <= 0x30FF: // hiragana and katakana
			if enc == ShiftJIS {
				s += 2
			} else {
				s -= 2
			}
		case r >= 0x4E00 && r <= 0x9FFF, r >= 0x3000 && r <= 0x303F, r >= 0xFF01 && r <= 0xFF5E:
			s++
		case r >= 0x0370 && r <= 0x04FF, r >= 0x2500 && r <= 0x257F:
			s--
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
