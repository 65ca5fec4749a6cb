// Package redact owns credential redaction: the one implementation used for
// everything a plugin, a model or a file says before it reaches a screen, a
// log, a session file or another plugin.
//
// String runs two passes over the text it is given, which should be the
// whole text (a stderr tail, an assembled error), never pieces of it:
//   - patterns: PEM private-key blocks of every kind (multi-line, also cut
//     at either end), over a hundred vendor token formats by their
//     documented prefixes and alphabets, found at word starts through one
//     two-byte table (rules.go), webhook URLs, SAS signatures, Bearer and
//     Basic credentials and a few formats found by an inner literal
//     (anchors.go), values of secret-looking keys (KEY=v, key: v,
//     "key": "v", headers; keys.go) and URL passwords;
//   - exact values: every value registered with RegisterEnviron (the host's
//     secret-looking environment variables, read once at start) and
//     RegisterEnv (manifest env), matched by value wherever it appears.
//
// A match is replaced by a mask naming its kind, "[redacted: stripe key]";
// a secret of 20 characters or more also shows its last 4,
// "[redacted: stripe key …x4Qz]", so that a user can tell two keys apart.
// Nothing inside a mask is matched again, which keeps String idempotent;
// only masks of the exact shape and kinds this package writes count as
// masks, so "[redacted: " typed by a plugin shields nothing after it.
//
// Decisions, leaning to over-redaction except for common near-misses:
//   - A token or a secret value wrapped onto the next line (the next line
//     is only the rest of it) is masked whole; Lines does the same for a
//     stream logged line by line, and MayContinue tells a writer that
//     shows text as it arrives what to hold back (stream.go).
//   - Empty values, at most 6 digits, true/false/null/None/nil and type
//     names (token: str) are not secrets (promptTokens: 42). Only JSON
//     strings are masked, so JSON stays valid.
//   - Keys match with '-' read as '_' (X-Api-Key). PWD and OLDPWD are not
//     secrets, DB_PWD is; TOKENIZER is not a token; a key that is a file
//     name (/home/u/api_key: …) is not a key.
//   - "key: value" takes one word, and not a lower-case word that goes on
//     as prose ("token: path escapes the workspace root" stays).
//   - "KEY=value" runs to a blank or quote ('&' too in URL queries). With
//     blanks around '=' a bare identifier (token = self.token) is code.
//     Unquoted $VAR, ${{ x }}, f(...) and a[...] values are left alone.
//   - Authorization keeps a known scheme word and masks the one credential
//     after it (Digest parameters to the end of the line), so what follows
//     on the line ("(process signal: killed)") survives.
//   - Values holding a quote or backslash show no characters, so quoting
//     and escapes are never cut in half.
package redact

import (
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

const (
	maskOpen = "[redacted"
	ellipsis = "…"
	// showFrom is the length from which a mask shows the last 4 characters.
	showFrom = 20
)

// String returns s with credentials masked. It is idempotent.
func String(s string) string {
	if s == "" {
		return s
	}
	return redact(s)
}

// Bytes is String for byte slices. It returns b itself when nothing needs
// masking, and a new slice otherwise.
func Bytes(b []byte) []byte {
	s := string(b)
	if r := redact(s); r != s {
		return []byte(r)
	}
	return b
}

// Line redacts line, the line written right after prev on the same stream:
// a token wrapped from prev into line is masked. When the mask swallows the
// line break, the result is the joined line, masked (prev's start
// included). A stream logged line by line should use Lines, which also
// masks the first half of a wrapped token and whole key blocks.
func Line(prev, line string) string {
	if prev == "" {
		return String(line)
	}
	j := prev + "\n" + line
	r := String(j)
	if r == j {
		return line
	}
	return r[strings.LastIndexByte(r, '\n')+1:]
}

// Mask hides v whole: "[redacted: secret]", and for 20 characters or more
// "[redacted: secret …wxyz]". A value already masked is returned unchanged.
func Mask(v string) string { return maskAs("secret", v) }

// maskAs is the mask of v, a secret of the given kind. Characters are runes;
// the last 4 are shown only when they are plain token characters (never a
// quote, a backslash or a control).
func maskAs(kind, v string) string {
	if strings.HasPrefix(v, maskOpen) {
		return v
	}
	n := utf8.RuneCountInString(v)
	if n < showFrom {
		return maskOpen + ": " + kind + "]"
	}
	last := v[runeOffset(v, n-4):]
	for i := 0; i < len(last); i++ {
		if !tokenSet[last[i]] {
			return maskOpen + ": " + kind + "]"
		}
	}
	return maskOpen + ": " + kind + " " + ellipsis + last + "]"
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
		if r := String(v); r != v {
			return r // a token inside: its own mask names it
		}
		return rewriteValue(kd, k, v)
	}
	return String(v)
}

// A finder looks for the next thing to rewrite at or after from: s[lo:hi]
// becomes repl (lo < 0: nothing to rewrite) and the search goes on at next
// (next < 0: nothing left).
type finder func(s string, from int) (lo, hi, next int, repl string)

// redact runs pass, then makes sure the result is stable. A mask can
// change the context of what is near it (the quote count of a line, the
// word after a key, the next line of a wrapped token), so each changed
// line and its neighbours are redacted again; only when one of them still
// changes does the whole text get further passes. The common cases cost
// one pass over the text plus a few lines.
func redact(s string) string {
	t, marks, _ := pass(s)
	if len(marks) == 0 || stableAround(t, marks) {
		return t
	}
	for range 4 {
		u, _, changed := pass(t)
		if !changed {
			break
		}
		t = u
	}
	return t
}

// stableAround reports whether the lines around every mark (the line
// before, the lines of the mark, the line after) come out of a pass as
// they are.
func stableAround(t string, marks [][2]int) bool {
	wlo, whi := -1, -1
	for _, m := range marks {
		if m[1] <= whi {
			continue // inside the window already (many masks on one long line)
		}
		hi := lineEnd(t, lineEnd(t, m[1])+1)
		if wlo >= 0 && m[0] <= whi {
			whi = hi
			continue
		}
		lo := lineStart(t, lineStart(t, m[0])-1)
		if wlo >= 0 && lo <= whi {
			whi = hi
			continue
		}
		if wlo >= 0 {
			if w := t[wlo:whi]; changes(w) {
				return false
			}
		}
		wlo, whi = lo, hi
	}
	return wlo < 0 || !changes(t[wlo:whi])
}

func changes(w string) bool {
	_, _, changed := pass(w)
	return changed
}

// lineStart is the start of the line holding s[i] (0 for i < 0).
func lineStart(s string, i int) int {
	if i <= 0 {
		return 0
	}
	return strings.LastIndexByte(s[:min(i, len(s))], '\n') + 1
}

// lineEnd is the end of the line holding s[i], its newline included.
func lineEnd(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	if k := strings.IndexByte(s[i:], '\n'); k >= 0 {
		return i + k + 1
	}
	return len(s)
}

// pass is one redaction of s; marks are the output ranges of the masks to
// check, changed whether any mask was made.
func pass(s string) (string, [][2]int, bool) {
	var sp spans
	for i := 0; ; { // masks already there are their own redaction
		lo, hi := nextMask(s, i)
		if lo < 0 {
			break
		}
		sp.add(span{lo: lo, hi: hi, repl: s[lo:hi]})
		i = hi
	}
	// Token masks (and registered values) change nothing around them: a
	// token holds no quote, a mask ends in ']' that no rule continues on,
	// and a key before one sees the mask as it saw the token. Masks of
	// PEM blocks, key values and URL passwords can (a quote count, the word
	// after a key, a line joined): only those are checked.
	sp.collect(s, true, func() finder { return (&pemScan{noEnd: map[string]bool{}}).find })
	// Registered values rank above every pattern: they are certain, and a
	// value holding a blank would otherwise be cut by a key's value rule.
	collectExact(s, &sp)
	sp.collect(s, false, func() finder { return (&tokenScan{}).find })
	for _, a := range anchors {
		sp.collect(s, false, func() finder { return a.find })
	}
	sp.collect(s, true, func() finder { return (&keyScan{}).find })
	sp.collect(s, true, func() finder { return findURLPassword })
	return sp.apply(s)
}

// A span is one accepted rewrite of the text: s[lo:hi] becomes repl.
type span struct {
	lo, hi int
	repl   string
	// check: the mask can change what is around it, so the lines around it
	// are redacted again (see stableAround).
	check bool
}

// spans are the accepted rewrites, sorted and disjoint. Every finder reads
// the original text; a match overlapping an earlier one (an earlier finder
// ranks higher) is dropped, which is what running the finders one after
// the other over masked text would give, without copying the text once
// per finder.
type spans []span

func (sp *spans) add(x span) {
	i := sort.Search(len(*sp), func(i int) bool { return (*sp)[i].hi > x.lo })
	if i < len(*sp) && (*sp)[i].lo < x.hi {
		return // overlaps a match that ranks higher
	}
	*sp = slices.Insert(*sp, i, x)
}

// collect runs a finder made by mk over every stretch of s between the
// spans accepted so far, as if those were already masked: a finder sees
// each stretch as a text of its own, so no match reaches into a stronger
// one (then shrinks to its rest on a second pass) and no lookbehind sees
// past it. Each stretch gets a fresh finder, so no cached position
// outlives its stretch.
func (sp *spans) collect(s string, check bool, mk func() finder) {
	fixed := slices.Clone(*sp)
	start := 0
	for i := 0; ; i++ {
		limit := len(s)
		if i < len(fixed) {
			limit = fixed[i].lo
		}
		if limit > start {
			seg, find := s[start:limit], mk()
			for from := 0; from < len(seg); {
				lo, hi, next, repl := find(seg, from)
				if next < 0 {
					break
				}
				from = max(next, from+1)
				if lo >= 0 && repl != seg[lo:hi] {
					sp.add(span{start + lo, start + hi, repl, check})
				}
			}
		}
		if i >= len(fixed) {
			return
		}
		start = max(start, fixed[i].hi)
	}
}

// apply writes s with every span rewritten.
func (sp spans) apply(s string) (out string, marks [][2]int, changed bool) {
	for _, x := range sp {
		changed = changed || x.repl != s[x.lo:x.hi]
	}
	if !changed {
		return s, nil, false
	}
	var b strings.Builder
	b.Grow(len(s) + 32*len(sp))
	last := 0
	for _, x := range sp {
		if x.repl == s[x.lo:x.hi] {
			continue
		}
		b.WriteString(s[last:x.lo])
		lo := b.Len()
		b.WriteString(x.repl)
		if x.check {
			marks = append(marks, [2]int{lo, b.Len()})
		}
		last = x.hi
	}
	b.WriteString(s[last:])
	return b.String(), marks, true
}

// nextMask finds the mask at or after i: [lo, hi) spans one mask exactly
// as maskAs writes it, of a kind this package names. Anything else that
// starts with "[redacted" is ordinary text: a plugin cannot shield a
// secret by writing "[redacted: " before it.
func nextMask(s string, i int) (lo, hi int) {
	for {
		k := strings.Index(s[i:], maskOpen)
		if k < 0 {
			return -1, -1
		}
		lo = i + k
		if hi, ok := maskAt(s, lo); ok {
			return lo, hi
		}
		i = lo + len(maskOpen)
	}
}

// maskAt reports whether a mask starts at s[lo] and where it ends.
func maskAt(s string, lo int) (int, bool) {
	rest := s[lo+len(maskOpen):]
	if strings.HasPrefix(rest, "]") {
		return lo + len(maskOpen) + 1, true // the placeholder of earlier versions
	}
	if !strings.HasPrefix(rest, ": ") {
		return 0, false
	}
	e := strings.IndexByte(rest[:min(len(rest), 96)], ']')
	if e < 0 {
		return 0, false
	}
	inner := rest[2:e]
	if j := strings.LastIndex(inner, " "+ellipsis); j >= 0 {
		last := inner[j+1+len(ellipsis):]
		if len(last) != 4 || runOf(last, 0, tokenSet) != 4 {
			return 0, false
		}
		inner = inner[:j]
	}
	if !knownKind(inner) {
		return 0, false
	}
	return lo + len(maskOpen) + e + 1, true
}

// kinds are the names masks use; knownKind also accepts the names of the
// registered exact values.
var kinds = func() map[string]bool {
	m := map[string]bool{}
	for _, rs := range [][]rule{rules, wordRules, {discordRule, telegramRule}} {
		for _, r := range rs {
			m[r.kind] = true
		}
	}
	for _, a := range anchors {
		m[a.kind] = true
	}
	for _, k := range []string{"aws secret key", "private key",
		"url password", "url credential", "cookie", "basic credentials", "bearer token", "credentials",
		"password", "token", "api key", "secret"} {
		m[k] = true
	}
	return m
}()

func knownKind(k string) bool {
	if kinds[k] {
		return true
	}
	if !strings.HasPrefix(k, "value of ") {
		return false
	}
	if p := exact.Load(); p != nil {
		for _, e := range *p {
			if e.kind == k {
				return true
			}
		}
	}
	return false
}

// pemScan masks private-key blocks: BEGIN … PRIVATE KEY … through the
// matching END line. A block cut by the end of the text (a truncated tail)
// runs over the base64 lines that follow; an END whose BEGIN was cut off
// (the start of a ring buffer) takes the base64 lines before it.
type pemScan struct{ noEnd map[string]bool }

func (p *pemScan) find(s string, from int) (int, int, int, string) {
	const kind = "private key"
	if from == 0 {
		// A text that starts with key-body lines (two or more, 40 bytes of
		// base64 or more each) is the middle of a block whose BEGIN was cut
		// off (a ring buffer, a few last lines): its END may be cut too.
		if hi := keyBodyLines(s); hi > 0 {
			return 0, hi, hi, maskAs(kind, "")
		}
	}
	i := strings.Index(s[from:], "-----")
	for i >= 0 {
		at := from + i
		switch {
		case strings.HasPrefix(s[at:], "-----BEGIN ") && isPrivateLabel(s, at+11):
			label, e := pemLabel(s, at+11)
			end := -1
			if !p.noEnd[label] {
				if end = strings.Index(s[e:], "-----END "+label); end < 0 {
					p.noEnd[label] = true // later BEGINs need not look again
				}
			}
			if end >= 0 {
				hi := e + end + 9 + len(label)
				hi += len(pemDashes(s[hi:]))
				return at, hi, hi, maskAs(kind, "")
			}
			// No END: the rest of the BEGIN line and the body lines after
			// it (a label run into other text is not trusted either).
			eol := len(s)
			if k := strings.IndexByte(s[e:], '\n'); k >= 0 {
				eol = e + k + 1
			}
			hi := base64Lines(s, eol)
			if hi < len(s) && s[hi-1] == '\n' {
				hi-- // the line break after the block stays
				if hi > at && s[hi-1] == '\r' {
					hi--
				}
			}
			return at, hi, hi, maskAs(kind, "")
		case strings.HasPrefix(s[at:], "-----END ") && isPrivateLabel(s, at+9):
			_, e := pemLabel(s, at+9)
			lo := base64LinesBefore(s, at, from)
			if lo < at {
				return lo, e, e, maskAs(kind, "")
			}
		}
		from = at + 5
		i = strings.Index(s[from:], "-----")
	}
	return -1, -1, -1, ""
}

// isPrivateLabel reports a PEM label naming a private key ("RSA PRIVATE
// KEY", "OPENSSH PRIVATE KEY", "PGP PRIVATE KEY BLOCK", "ENCRYPTED PRIVATE
// KEY", …) on the line at i.
func isPrivateLabel(s string, i int) bool {
	label, _ := pemLabel(s, i)
	return strings.Contains(label, "PRIVATE KEY")
}

// pemLabel returns the label at i and where its closing dashes end.
func pemLabel(s string, i int) (string, int) {
	e := i
	for e < len(s) && e-i < 64 && (s[e] >= 'A' && s[e] <= 'Z' || s[e] == ' ' || s[e] >= '0' && s[e] <= '9') {
		e++
	}
	label := s[i:e]
	return label, e + len(pemDashes(s[e:]))
}

func pemDashes(s string) string {
	n := 0
	for n < len(s) && n < 5 && s[n] == '-' {
		n++
	}
	return s[:n]
}

// keyBodyLines returns the end of the leading run of key-body lines of s,
// or 0 when there are fewer than two.
func keyBodyLines(s string) int {
	end, n := 0, 0
	for end < len(s) {
		e := strings.IndexByte(s[end:], '\n')
		line := s[end:]
		if e >= 0 {
			line = s[end : end+e]
		}
		t := strings.TrimRight(line, "\r")
		if len(t) < 40 || runOf(t, 0, b64eq) != len(t) {
			break
		}
		n++
		if e < 0 {
			end = len(s)
			break
		}
		end += e + 1
	}
	if n < 2 {
		return 0
	}
	return end
}

// base64Lines returns the end of the run of lines after i that can belong
// to a PEM body: base64, blank, or headers (Proc-Type: …).
func base64Lines(s string, i int) int {
	end, long := i, false
	for end < len(s) {
		e := strings.IndexByte(s[end:], '\n')
		line := s[end:]
		if e >= 0 {
			line = s[end : end+e]
		}
		t := strings.TrimRight(line, "\r \t")
		body := bodyLine(t)
		short := !body && long && t != "" && runOf(t, 0, b64eq) == len(t) // the block's last line
		if !body && !short {
			return end
		}
		long = body
		if e < 0 {
			return len(s)
		}
		end += e + 1
		if short {
			return end
		}
	}
	return end
}

// bodyLine reports a line that can belong to a PEM body: base64 of 16
// bytes or more (or ending in padding), or a header (Proc-Type: …). A
// short word ("next") is text after a cut block, not a body line.
func bodyLine(t string) bool {
	if strings.Contains(t, ": ") {
		return !strings.Contains(t, " ") || strings.Count(t, " ") == 1
	}
	return t != "" && runOf(t, 0, b64eq) == len(t) && (len(t) >= 16 || strings.HasSuffix(t, "="))
}

// base64LinesBefore returns the start of the run of base64 lines that ends
// at the line starting at at; it never goes before from.
func base64LinesBefore(s string, at, from int) int {
	lo := at
	for lo > from {
		e := lo - 1 // the '\n' ending the previous line
		if s[e] != '\n' {
			return lo
		}
		b := strings.LastIndexByte(s[from:e], '\n') + 1 + from
		t := strings.TrimRight(s[b:e], "\r \t")
		if t == "" || runOf(t, 0, b64eq) != len(t) {
			return lo
		}
		lo = b
	}
	return lo
}

// findURLPassword masks the password of URL userinfo (up to the last '@'),
// or a lone user that looks like a token (https://<token>@github.com).
func findURLPassword(s string, from int) (int, int, int, string) {
	for {
		k := strings.Index(s[from:], "://")
		if k < 0 {
			return -1, -1, -1, ""
		}
		u := from + k + 3
		from = u
		e := u
		for e < len(s) && strings.IndexByte(" \t\r\n/?#\"'\\<>", s[e]) < 0 {
			e++
		}
		at := strings.LastIndexByte(s[u:e], '@')
		if at < 0 {
			continue
		}
		info := s[u : u+at]
		if c := strings.IndexByte(info, ':'); c >= 0 {
			lo, hi := u+c+1, u+at
			if hi == lo {
				continue
			}
			return lo, hi, u + at, maskAs("url password", s[lo:hi])
		}
		if len(info) >= 16 && strings.ContainsAny(info, "0123456789") && strings.IndexFunc(info, isLetter) >= 0 {
			return u, u + at, u + at, maskAs("url credential", info)
		}
	}
}
