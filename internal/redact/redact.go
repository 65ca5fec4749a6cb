// Package redact owns credential redaction: the one implementation used for
// everything a plugin says before it reaches a screen, a log, or another
// plugin.
//
// Text without a trigger substring is returned as is. Otherwise tokens
// (sk-/rk-, GitHub, Slack, AWS key ids, JWTs), "Bearer <token>", values of
// secret-looking keys (KEY=v, key: v, "key": "v"), Authorization and Cookie
// headers and URL passwords are masked with Mask. Text already shaped like
// Mask output ("[redacted]", "abcd…wxyz") is never masked again, so String
// is idempotent. Decisions, leaning to over-redaction except for common
// near-misses:
//   - Empty values, at most 6 digits and true/false/null are not secrets
//     (promptTokens: 42). Only JSON strings are masked, so JSON stays valid.
//   - Keys match with '-' read as '_' (X-Api-Key). PWD and OLDPWD are not
//     secrets, DB_PWD is; TOKENIZER is not a token.
//   - "key: value" needs a blank after the colon and none before it unless
//     quoted (spares URLs, times, :=). The value runs to the end of the line
//     but stops before a word that looks like the next pair (a=b, c:).
//   - "KEY=value" runs to a blank or quote ('&' too in URL queries). With
//     blanks around '=' a bare identifier (token = self.token) is code.
//     Unquoted $VAR, ${{ x }}, f(...) and a[...] values are left alone.
//   - Authorization keeps a known scheme word and masks the rest of the line
//     (Digest parameters as one); without a scheme all of it.
//   - Values holding a quote or backslash become "[redacted]", so quoting and
//     escapes are never cut in half.
package redact

import (
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"unicode/utf8"
)

const (
	placeholder = "[redacted]"
	ellipsis    = "…"
)

var (
	// tokenREs each start with a literal, which regexp finds by a fast
	// substring search. The first 4 need a non-word byte before them
	// (spares "task-runner-…"), AWS ids (2, 3) after them too.
	tokenREs = compile(`sk-[A-Za-z0-9_-]{17,} rk-[A-Za-z0-9_-]{17,} AKIA[A-Z0-9]{16} ASIA[A-Z0-9]{16}
		gh[pousr]_[A-Za-z0-9]{30,} github_pat_[A-Za-z0-9_]{20,} xox[bpars]-[A-Za-z0-9-]{10,}
		eyJ[A-Za-z0-9_-]{7,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`)
	// urlRE: group 1 is the user, 2 the password (up to the last '@').
	urlRE = regexp.MustCompile(`://([^\s:/?#@"'\\]*)(?::([^\s/?#"'\\]*))?@`)

	secretWords = []string{"APIKEY", "API_KEY", "ACCESSKEY", "ACCESS_KEY", "PRIVATEKEY",
		"PRIVATE_KEY", "SECRET", "TOKEN", "PASSWORD", "PASSWD", "_PWD"}
	// keyWords start every key classify accepts.
	keyWords = []string{"key", "secret", "token", "pass", "pwd", "auth", "cookie"}
	// triggers: every rule needs one of these, ignoring case.
	triggers = strings.Fields("key secret token pass pwd auth cookie bearer sk- rk- ghp_ gho_ ghu_ ghs_ ghr_ github_pat_ xox akia asia eyj ://")
	schemes  = map[string]bool{"bearer": true, "basic": true, "digest": true, "negotiate": true,
		"ntlm": true, "token": true, "bot": true, "apikey": true}
	triggerAt, keyWordAt = byFirst(triggers), byFirst(keyWords)
)

func compile(patterns string) (res []*regexp.Regexp) {
	for _, p := range strings.Fields(patterns) {
		res = append(res, regexp.MustCompile(p))
	}
	return res
}

// byFirst indexes lower-case words by their first byte in either case.
func byFirst(words []string) (idx [256][]string) {
	for _, w := range words {
		idx[w[0]] = append(idx[w[0]], w)
		if u := strings.ToUpper(w)[0]; u != w[0] {
			idx[u] = append(idx[u], w)
		}
	}
	return idx
}

// String returns s with credentials masked. It is idempotent.
func String(s string) string {
	if !hasTrigger(s) {
		return s
	}
	return redact(s)
}

// Bytes is String for byte slices. It returns b itself when b contains no
// trigger substring, and a new slice otherwise.
func Bytes(b []byte) []byte {
	if !hasTrigger(b) {
		return b
	}
	return []byte(redact(string(b)))
}

// Mask hides v: values of at most 12 characters become "[redacted]", longer
// ones keep their first 4 (6 after an sk-/rk- prefix) and last 4 characters
// around "…". Characters are runes; invalid UTF-8 bytes count as one each
// and are kept. A value already in masked form is returned unchanged.
func Mask(v string) string {
	if isMasked(v) {
		return v
	}
	n := utf8.RuneCountInString(v)
	if n <= 12 {
		return placeholder
	}
	return v[:runeOffset(v, keepOf(v))] + ellipsis + v[runeOffset(v, n-4):]
}

// Map returns a copy of m in which values of secret-looking keys
// (Authorization and Cookie included) are masked and every other value is
// passed through String. A nil map gives nil.
func Map(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = keyed(k, v)
	}
	return out
}

// Attr redacts a: string values (masked whole when the key looks secret,
// passed through String otherwise), the text of error and fmt.Stringer
// values when it needs redaction (the attr then becomes a string), and the
// members of groups. Values of other kinds are returned unchanged.
func Attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, keyed(a.Key, v.String()))
	case slog.KindGroup:
		members := v.Group()
		out := make([]slog.Attr, len(members))
		for i, m := range members {
			out[i] = Attr(m)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(out...)}
	case slog.KindAny:
		if s, ok := text(v.Any()); ok && keyed(a.Key, s) != s {
			return slog.String(a.Key, keyed(a.Key, s))
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}

// ReplaceAttr is Attr with the signature of slog.HandlerOptions.ReplaceAttr.
// The built-in handlers pass the message through it too.
func ReplaceAttr(_ []string, a slog.Attr) slog.Attr { return Attr(a) }

// text returns the text of an error or fmt.Stringer; a method that panics
// (a nil pointer receiver, say) gives !ok.
func text(x any) (s string, ok bool) {
	defer func() { ok = recover() == nil && ok }()
	switch x := x.(type) {
	case error:
		return x.Error(), true
	case fmt.Stringer:
		return x.String(), true
	}
	return "", false
}

// keyed redacts value v stored under key k.
func keyed(k, v string) string {
	if kd := classify(k); kd != plainKey {
		return rewriteValue(kd, v)
	}
	return String(v)
}

// A finder looks for the next thing to rewrite at or after from: s[lo:hi]
// becomes repl (lo < 0: nothing to rewrite) and the search goes on at next
// (next < 0: nothing left).
type finder func(s string, from int) (lo, hi, next int, repl string)

// redact runs pass until nothing changes: masked text keeps the ends of a
// secret, and those can complete a match the pass could not see (two tokens
// glued together, say). Two passes are the norm; the cap only bounds
// pathological input.
func redact(s string) string {
	for range 8 {
		t := pass(s)
		if t == s {
			break
		}
		s = t
	}
	return s
}

func pass(s string) string {
	for i, re := range tokenREs {
		s = rewrite(s, func(s string, from int) (int, int, int, string) {
			m := re.FindStringIndex(s[from:])
			if m == nil {
				return -1, -1, -1, ""
			}
			lo, hi := from+m[0], from+m[1]
			if i < 4 && (lo > 0 && isWord(s[lo-1]) || i >= 2 && hi < len(s) && isWord(s[hi])) {
				next := lo + 1
				if i < 2 { // a start inside an sk-/rk- match follows a '-'
					next = hi // (skipping the rest keeps this linear)
					if k := strings.Index(s[lo+1:hi], "-"+s[lo:lo+3]); k >= 0 {
						next = lo + 2 + k
					}
				}
				return -1, -1, next, ""
			}
			return lo, hi, hi, maskValue(s[lo:hi])
		})
	}
	s = rewrite(s, findBearer)
	s = rewrite(s, (&keyScan{}).find)
	return rewrite(s, func(s string, from int) (int, int, int, string) {
		m := urlRE.FindStringSubmatchIndex(s[from:])
		if m == nil {
			return -1, -1, -1, ""
		}
		lo, hi, next := from+m[4], from+m[5], from+m[1]
		if m[4] < 0 { // no password: mask a lone user only if it looks like a token
			lo, hi = from+m[2], from+m[3]
			if u := s[lo:hi]; len(u) < 16 || !strings.ContainsAny(u, "0123456789") || strings.IndexFunc(u, isLetter) < 0 {
				return -1, -1, next, ""
			}
		}
		return lo, hi, next, maskValue(s[lo:hi])
	})
}

// rewrite applies find to s from left to right.
func rewrite(s string, find finder) string {
	var b strings.Builder
	last, changed := 0, false
	for from := 0; from < len(s); {
		lo, hi, next, repl := find(s, from)
		if next < 0 {
			break
		}
		from = next
		if lo >= 0 && repl != s[lo:hi] {
			b.WriteString(s[last:lo])
			b.WriteString(repl)
			last, changed = hi, true
		}
	}
	if !changed {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// findBearer finds the token after "Bearer" (any case, at a word start): 16
// or more of [A-Za-z0-9._~+/=-].
func findBearer(s string, from int) (int, int, int, string) {
	for i := from; i < len(s); i++ {
		if !at(s, i, "bearer") || i > 0 && isWord(s[i-1]) {
			continue
		}
		j := skipBlank(s, i+6)
		k := j
		for k < len(s) && (isWord(s[k]) && s[k] != '_' || strings.IndexByte("._~+/=-", s[k]) >= 0) {
			k++
		}
		if j > i+6 && k-j >= 16 {
			return j, k, k, maskValue(s[j:k])
		}
	}
	return -1, -1, -1, ""
}

type kind int

const (
	plainKey kind = iota
	secretKey
	authKey
	cookieKey
)

func classify(key string) kind {
	u := strings.ToUpper(strings.ReplaceAll(key, "-", "_"))
	base := u[strings.LastIndexByte(u, '.')+1:]
	switch {
	case base == "AUTHORIZATION" || strings.HasSuffix(base, "_AUTHORIZATION"):
		return authKey
	case base == "COOKIE" || base == "SET_COOKIE":
		return cookieKey
	}
	u = strings.ReplaceAll(u, "TOKENIZ", "")
	for _, w := range secretWords {
		if strings.Contains(u, w) { // a bare "PWD" never contains "_PWD"
			return secretKey
		}
	}
	return plainKey
}

// keyScan finds the values after secret-looking keys and header names. It
// counts the unescaped double quotes on the line so that a quote closing a
// string (the key sat in JSON text) is never taken to open a value.
type keyScan struct{ pos, quotes int }

// inString reports whether s[v] lies inside a double-quoted string; v must
// not decrease from call to call.
func (k *keyScan) inString(s string, v int) bool {
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

func (k *keyScan) find(s string, from int) (int, int, int, string) {
	for i := from; i < len(s); i++ {
		if !atAny(s, i, keyWordAt[s[i]]) {
			continue
		}
		ks, ke := i, i
		for ks > from && isKeyByte(s[ks-1]) {
			ks--
		}
		for ke < len(s) && isKeyByte(s[ke]) {
			ke++
		}
		i = ke - 1
		kd := classify(s[ks:ke])
		if kd == plainKey {
			continue
		}
		inQuery := ks > 0 && (s[ks-1] == '?' || s[ks-1] == '&')
		if vs, ve, end, ok := k.valueSpan(s, ke, kd, inQuery); ok {
			return vs, ve, end, rewriteValue(kd, s[vs:ve])
		}
	}
	return -1, -1, -1, ""
}

// valueSpan locates the value after the key ending at i: [vs, ve) is the
// value proper, end is where scanning resumes (past a closing quote).
func (k *keyScan) valueSpan(s string, i int, kd kind, inQuery bool) (vs, ve, end int, ok bool) {
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
	if v < len(s) && (s[v] == '\'' || strings.HasPrefix(s[v:], `\"`) || s[v] == '"' && !k.inString(s, v)) {
		vs, ve, end = quotedSpan(s, v)
		return vs, ve, end, true
	}
	blanks := j > i || v > j+1
	if sep == ':' && (quotedKey || j > i || v == j+1) {
		return 0, 0, 0, false // a JSON non-string, or not "key: value"
	}
	switch {
	case kd != secretKey:
		ve = headerEnd(s, v, k.inString(s, v))
	case sep == '=' && inQuery:
		ve = stopAt(s, v, " \t\r\n\v\f\"'\\&")
	case sep == '=':
		ve = stopAt(s, v, " \t\r\n\v\f\"'\\")
	default:
		ve = fieldsEnd(s, v)
	}
	ve = v + len(strings.TrimRight(s[v:ve], " \t,;)}"))
	val := s[v:ve]
	if ve == v || kd == secretKey && (looksLikeCode(val) || sep == '=' && blanks && isIdent(val)) {
		return 0, 0, 0, false
	}
	return v, ve, ve, true
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

// fieldsEnd ends an unquoted "key: value" value: blank-separated words up to
// the end of the line, a quote or a backslash, stopping before a word that
// looks like the next pair.
func fieldsEnd(s string, i int) int {
	end := i
	for first := true; ; first = false {
		j := skipBlank(s, end)
		k := stopAt(s, j, " \t\r\n\v\f\"\\")
		if f := s[j:k]; f == "" || !first && (strings.Contains(f, "=") || strings.HasSuffix(f, ":")) {
			return end
		}
		end = k
	}
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

// rewriteValue masks the value of a key of kind kd.
func rewriteValue(kd kind, v string) string {
	switch kd {
	case secretKey:
		if len(v) <= 6 && strings.Trim(v, "0123456789") == "" {
			return v // a count, or empty
		}
		if l := strings.ToLower(v); l == "true" || l == "false" || l == "null" {
			return v
		}
	case authKey:
		if i := strings.IndexAny(v, " \t"); i > 0 && isScheme(v[:i]) {
			j := skipBlank(v, i)
			return v[:j] + maskValue(v[j:])
		}
		if isScheme(v) {
			return v
		}
	}
	return maskValue(v)
}

func isScheme(w string) bool { return schemes[strings.ToLower(w)] }

// maskValue is Mask for a value found in text: empty and masked values stay,
// values holding quotes or backslashes become the placeholder.
func maskValue(v string) string {
	switch {
	case v == "" || isMasked(v):
		return v
	case strings.ContainsAny(v, `"\`):
		return placeholder
	}
	return Mask(v)
}

func keepOf(v string) int {
	if strings.HasPrefix(v, "sk-") || strings.HasPrefix(v, "rk-") {
		return 6
	}
	return 4
}

// isMasked reports whether v has a shape Mask produces.
func isMasked(v string) bool {
	n := utf8.RuneCountInString(v)
	if v == placeholder || n != 9 && n != 11 {
		return v == placeholder
	}
	return (n == 9 || keepOf(v) == 6) && strings.HasPrefix(v[runeOffset(v, n-5):], ellipsis)
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

// hasTrigger reports whether s contains one of triggers, ignoring case.
func hasTrigger[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if atAny(s, i, triggerAt[s[i]]) {
			return true
		}
	}
	return false
}

func atAny[T string | []byte](s T, i int, lits []string) bool {
	for _, l := range lits {
		if at(s, i, l) {
			return true
		}
	}
	return false
}

// at reports whether s[i:] starts with the lower-case lit, ignoring case.
func at[T string | []byte](s T, i int, lit string) bool {
	if len(s)-i < len(lit) {
		return false
	}
	for j := 0; j < len(lit); j++ {
		if c := s[i+j]; c != lit[j] && (c|0x20 != lit[j] || !isLetter(rune(c))) {
			return false
		}
	}
	return true
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
