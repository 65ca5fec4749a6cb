package redact

import (
	"strings"
	"unicode/utf8"
	"unsafe"
)

var (
	secretWords = []string{"APIKEY", "API_KEY", "ACCESSKEY", "ACCESS_KEY", "PRIVATEKEY",
		"PRIVATE_KEY", "ACCOUNTKEY", "ACCOUNT_KEY", "SECRET", "TOKEN", "PASSWORD", "PASSWD", "_PWD",
		"CREDENTIAL"}
	// keyWords are found in every key classify accepts (hasKeyWord's
	// filter).
	keyWords = []string{"key", "secret", "token", "pass", "pwd", "auth", "cookie", "credential"}
	schemes  = map[string]bool{"bearer": true, "basic": true, "digest": true, "negotiate": true,
		"ntlm": true, "token": true, "bot": true, "apikey": true, "ssws": true}
	// keyThird maps the first two bytes of every key word, folded to lower
	// case, to its third byte (|0x20 also folds a few punctuation bytes
	// together: it is a filter, classify decides). Checking three bytes,
	// not two, matters: "co", "se", "pa" and "to" are among the commonest
	// pairs of English and code.
	keyThird = func() *[1 << 16]byte {
		var t [1 << 16]byte
		for _, w := range keyWords {
			k := uint16(w[0])<<8 | uint16(w[1])
			if t[k] != 0 && t[k] != w[2] {
				panic("redact: two key words share their first two bytes")
			}
			t[k] = w[2]
		}
		return &t
	}()
)

type kind int

const (
	plainKey kind = iota
	secretKey
	authKey
	cookieKey
)

func classify(key string) kind {
	// Fold into a stack buffer: classify runs for every key word in the
	// text, and prose is full of them.
	var buf [64]byte
	var u string
	if len(key) <= len(buf) {
		for i := 0; i < len(key); i++ {
			c := key[i]
			switch {
			case c == '-':
				c = '_'
			case 'a' <= c && c <= 'z':
				c -= 'a' - 'A'
			}
			buf[i] = c
		}
		u = unsafeString(buf[:len(key)])
	} else {
		u = strings.ToUpper(strings.ReplaceAll(key, "-", "_"))
	}
	base := u[strings.LastIndexByte(u, '.')+1:]
	switch {
	case base == "AUTHORIZATION" || strings.HasSuffix(base, "_AUTHORIZATION"):
		return authKey
	case base == "COOKIE" || base == "SET_COOKIE":
		return cookieKey
	}
	if strings.Contains(u, "TOKENIZ") {
		u = strings.ReplaceAll(u, "TOKENIZ", "")
	}
	for _, w := range secretWords {
		if strings.Contains(u, w) { // a bare "PWD" never contains "_PWD"
			return secretKey
		}
	}
	return plainKey
}

// unsafeString views b as a string without copying; b must not change
// while the string is in use (classify's buffer never escapes).
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// keyScan finds the values after secret-looking keys and header names. It
// counts the unescaped double quotes on the line so that a quote closing a
// string (the key sat in JSON text) is never taken to open a value.
type keyScan struct {
	pos, quotes int
	// eq and colon are the next '=' and ':' (-1: none left, -2: not
	// searched yet).
	eq, colon int
	init      bool
}

// inString reports whether s[v] lies inside a double-quoted string; v must
// not decrease from call to call.
func (k *keyScan) inString(s string, v int) bool {
	// Only the current line counts: jump to its start (searching back from
	// v reads only that line), then count quotes up to v.
	if nl := strings.LastIndexByte(s[k.pos:v], '\n'); nl >= 0 {
		k.pos += nl + 1
		k.quotes = 0
	}
	for ; k.pos < v; k.pos++ {
		switch s[k.pos] {
		case '\n', '\r':
			k.quotes = 0
		case '\\':
			k.pos++
		case '"':
			k.quotes++
		}
	}
	return k.quotes%2 == 1
}

// find works from the separators: every value follows '=' or ':', which
// are far rarer than the letters key words start with, and two IndexByte
// searches find them at memory speed. From a separator it steps back over
// blanks and a closing quote to the key.
func (k *keyScan) find(s string, from int) (int, int, int, string) {
	for {
		p := k.nextSep(s, from)
		if p < 0 {
			return -1, -1, -1, ""
		}
		from = p + 1
		j := p
		for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
			j--
		}
		if j > 0 && (s[j-1] == '"' || s[j-1] == '\'') {
			j--
			if j > 0 && s[j-1] == '\\' {
				j--
			}
		}
		ke, ks := j, j
		for ks > 0 && ke-ks < 256 && isKeyByte(s[ks-1]) {
			ks--
		}
		if ks == ke || !hasKeyWord(s[ks:ke]) {
			continue
		}
		kd := classify(s[ks:ke])
		if kd == plainKey || ks > 0 && (s[ks-1] == '/' || s[ks-1] == '\\') {
			continue // not a key, or a file name (~/.ssh/api_key: …)
		}
		inQuery := ks > 0 && (s[ks-1] == '?' || s[ks-1] == '&')
		// "key" in quotes is a JSON key whatever the quote count says (a
		// stray quote earlier on the line must not hide its value).
		jsonKey := ks > 0 && s[ks-1] == '"' && ke < len(s) && s[ke] == '"'
		if vs, ve, end, ok := k.valueSpan(s, ke, kd, inQuery, jsonKey); ok {
			if w := s[vs+strings.LastIndexAny(s[vs:ve], " \t")+1 : ve]; kd != cookieKey && strings.ContainsAny(w, ":=") {
				end = vs + 1 // a key inside the value (TOKEN=auth_token: x): its value comes next
			}
			return vs, ve, end, rewriteValue(kd, s[ks:ke], s[vs:ve])
		}
	}
}

// nextSep returns the first '=' or ':' at or after from, or -1.
func (k *keyScan) nextSep(s string, from int) int {
	if !k.init {
		k.eq, k.colon, k.init = -2, -2, true
	}
	for _, n := range [...]*int{&k.eq, &k.colon} {
		if *n != -1 && *n < from {
			c := byte('=')
			if n == &k.colon {
				c = ':'
			}
			*n = -1
			if i := strings.IndexByte(s[from:], c); i >= 0 {
				*n = from + i
			}
		}
	}
	switch {
	case k.eq < 0:
		return k.colon
	case k.colon < 0 || k.eq < k.colon:
		return k.eq
	}
	return k.colon
}

// hasKeyWord is the cheap filter before classify: some key word's first
// three bytes, in any case.
func hasKeyWord(key string) bool {
	kp := keyThird
	for i := 0; i+2 < len(key); i++ {
		if t := kp[uint16(key[i]|0x20)<<8|uint16(key[i+1]|0x20)]; t != 0 && key[i+2]|0x20 == t {
			return true
		}
	}
	return false
}

// valueSpan locates the value after the key ending at i: [vs, ve) is the
// value proper, end is where scanning resumes (past a closing quote).
func (k *keyScan) valueSpan(s string, i int, kd kind, inQuery, jsonKey bool) (vs, ve, end int, ok bool) {
	quotedKey := true
	switch {
	case strings.HasPrefix(s[i:], `\"`):
		i += 2
	case i < len(s) && (s[i] == '"' || s[i] == '\''):
		i++
	default:
		quotedKey = false
	}
	j := skipBlank(s, i)
	if j >= len(s) || (s[j] != ':' && s[j] != '=') || (j+1 < len(s) && s[j+1] == '=') {
		return 0, 0, 0, false // no separator, or ==, :=
	}
	sep, v := s[j], skipBlank(s, j+1)
	if v < len(s) && (s[v] == '\'' || strings.HasPrefix(s[v:], `\"`) || s[v] == '"' && (jsonKey || !k.inString(s, v))) {
		vs, ve, end = quotedSpan(s, v)
		return vs, ve, end, true
	}
	blanks := j > i || v > j+1
	if sep == ':' && (quotedKey || j > i || v == j+1) {
		return 0, 0, 0, false // a JSON non-string, or not "key: value"
	}
	switch {
	case kd == authKey:
		ve = authEnd(s, v, k.inString(s, v))
	case kd != secretKey:
		ve = headerEnd(s, v, k.inString(s, v))
	case sep == '=' && inQuery:
		ve = stopAt(s, v, " \t\r\n\v\f\"'\\&")
	case sep == '=':
		ve = stopAt(s, v, " \t\r\n\v\f\"'\\")
	default:
		ve = stopAt(s, v, " \t\r\n\v\f\"\\")
		if isProse(s, v, ve) {
			return 0, 0, 0, false
		}
	}
	ve = v + len(strings.TrimRight(s[v:ve], " \t,;)}"))
	val := s[v:ve]
	if ve == v || kd == secretKey && (looksLikeCode(val) || sep == '=' && blanks && isIdent(val) ||
		strings.Contains(val, ".") && isIdent(val)) { // process.env.API_KEY
		return 0, 0, 0, false
	}
	if kd == secretKey {
		ve = wrappedValue(s, ve)
	}
	return v, ve, ve, true
}

// wrappedValue extends a value that ends its line over the next line when
// that line is nothing but the rest of it (a value wrapped by its writer):
// one run of 8 or more non-blank bytes with a digit and a letter.
func wrappedValue(s string, ve int) int {
	nl := lineBreak(s, ve)
	if nl == 0 {
		return ve
	}
	k := ve + nl
	e := stopAt(s, k, " \t\r\n\"'\\")
	if e-k < 8 || e < len(s) && s[e] != '\n' && s[e] != '\r' {
		return ve
	}
	if f := s[k:e]; strings.ContainsAny(f, "0123456789") && strings.IndexFunc(f, isLetter) >= 0 && !strings.HasPrefix(f, maskOpen) {
		return e
	}
	return ve
}

// quotedSpan returns the content of the quoted string opening at v. An
// unterminated string runs to the end of the line (or a bare quote).
func quotedSpan(s string, v int) (cs, ce, end int) {
	q := s[v : v+1]
	if q == `\` {
		q = `\"`
	}
	cs = v + len(q)
	for i := cs; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n' || c == '\r':
			return cs, i, i
		case strings.HasPrefix(s[i:], q):
			return cs, i, i + len(q)
		case c == '"': // inside '…' or \"…\": it closes an enclosing string
			return cs, i, i
		case c == '\\':
			i++
		}
	}
	return cs, len(s), len(s)
}

// headerEnd ends a header value at the end of the line, a backslash or a
// quote, except that outside a string a quote right after '=' opens a
// parameter (Digest username="x", cookie a="b c") skipped when closed.
func headerEnd(s string, i int, inString bool) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\n', '\r', '\\':
			return i
		case '"':
			k := strings.IndexAny(s[i+1:], "\"\r\n")
			if inString || s[i-1] != '=' || k < 0 || s[i+1+k] != '"' {
				return i
			}
			i += 1 + k
		}
	}
	return i
}

// authEnd ends an Authorization value: the one credential after a scheme
// word (or without one), so that the rest of the line survives; Digest
// parameters run to the end of the header, as one.
func authEnd(s string, v int, inString bool) int {
	const stop = " \t\r\n\\\""
	w := stopAt(s, v, stop)
	if !isScheme(s[v:w]) {
		return w
	}
	if strings.EqualFold(s[v:w], "digest") {
		return headerEnd(s, v, inString)
	}
	return stopAt(s, skipBlank(s, w), stop)
}

// isProse reports a "key: value" whose value s[v:ve] is a lower-case word
// that the line goes on after with another one: "token: path escapes the
// workspace root" is a sentence, not a credential.
func isProse(s string, v, ve int) bool {
	if ve-v > 15 {
		return false
	}
	for i := v; i < ve; i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	n := skipBlank(s, ve)
	if n > ve && strings.HasPrefix(s[n:], maskOpen) {
		_, ok := maskAt(s, n)
		return ok // what was there decided; a mask must not change it
	}
	return n > ve && n < len(s) && s[n] >= 'a' && s[n] <= 'z'
}

// looksLikeCode reports references and calls: $VAR, ${x}, f(...), a[...].
func looksLikeCode(v string) bool {
	i := strings.IndexAny(v, "([")
	return strings.HasPrefix(v, "$") || i > 0 && isIdent(v[:i])
}

// isIdent reports a (dotted) identifier without digits: self.key, None.
func isIdent(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c != '_' && c != '.' && !isLetter(rune(c)) {
			return false
		}
	}
	return v != ""
}

// rewriteValue masks the value v of key (of kind kd).
func rewriteValue(kd kind, key, v string) string {
	switch kd {
	case secretKey:
		if len(v) <= 6 && strings.Trim(v, "0123456789") == "" {
			return v // a count, or empty
		}
		if notSecret[strings.ToLower(v)] {
			return v
		}
	case authKey:
		if i := strings.IndexAny(v, " \t"); i > 0 && isScheme(v[:i]) {
			j := skipBlank(v, i)
			return v[:j] + maskValue(kindOf(kd, v[:i]), v[j:])
		}
		if isScheme(v) {
			return v
		}
	}
	return maskValue(kindOf(kd, key), v)
}

// kindOf names what a key's value is, for the mask.
func kindOf(kd kind, key string) string {
	u := strings.ToUpper(key)
	switch {
	case kd == cookieKey:
		return "cookie"
	case kd == authKey && strings.EqualFold(key, "basic"):
		return "basic credentials"
	case kd == authKey && strings.EqualFold(key, "bearer"):
		return "bearer token"
	case kd == authKey:
		return "credentials"
	case strings.Contains(u, "PASS") || strings.Contains(u, "PWD"):
		return "password"
	case strings.Contains(u, "TOKEN"):
		return "token"
	case strings.Contains(u, "API"):
		return "api key"
	}
	return "secret"
}

// notSecret are values that name a type or say "none": code, not secrets
// (def f(token: str), password=None).
var notSecret = map[string]bool{"true": true, "false": true, "null": true, "none": true, "nil": true,
	"undefined": true, "str": true, "string": true, "int": true, "bool": true, "bytes": true, "any": true,
	"object": true, "number": true}

func isScheme(w string) bool { return schemes[strings.ToLower(w)] }

// maskValue is maskAs for a value found in text: empty and masked values
// stay, values holding quotes or backslashes show nothing of themselves.
func maskValue(kind, v string) string {
	switch {
	case v == "" || strings.HasPrefix(v, maskOpen):
		return v
	case strings.ContainsAny(v, `"\`):
		return maskOpen + ": " + kind + "]"
	}
	return maskAs(kind, v)
}

// runeOffset returns the byte offset of the n-th rune of s.
func runeOffset(s string, n int) int {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return i
}

func isLetter(r rune) bool  { return 'a' <= r|0x20 && r|0x20 <= 'z' }
func isWord(c byte) bool    { return c == '_' || '0' <= c && c <= '9' || isLetter(rune(c)) }
func isKeyByte(c byte) bool { return isWord(c) || c == '-' || c == '.' }

func skipBlank(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

func stopAt(s string, i int, stop string) int {
	for i < len(s) && strings.IndexByte(stop, s[i]) < 0 {
		i++
	}
	return i
}
