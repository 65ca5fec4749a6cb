package redact

import (
	"encoding/base64"
	"sort"
	"strings"
)

// A charset is a byte class; sets are built once from range specs.
type charset [256]bool

func mkset(spec string) *charset {
	var c charset
	for i := 0; i < len(spec); i++ {
		if i+2 < len(spec) && spec[i+1] == '-' {
			for b := spec[i]; b <= spec[i+2]; b++ {
				c[b] = true
			}
			i += 2
			continue
		}
		c[spec[i]] = true
	}
	return &c
}

var (
	alnum    = mkset("A-Za-z0-9")
	alnumU   = mkset("A-Za-z0-9_")
	alnumUD  = mkset("A-Za-z0-9_-")
	hexLower = mkset("0-9a-f")
	hexAny   = mkset("0-9a-fA-F")
	upperNum = mkset("A-Z0-9")
	lowerNum = mkset("a-z0-9")
	b64      = mkset("A-Za-z0-9+/")
	b64eq    = mkset("A-Za-z0-9+/=")
	b64url   = mkset("A-Za-z0-9_=-")
	digits   = mkset("0-9")
	bech32   = mkset("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L")
	// tokenSet: what a Bearer credential or a JWT segment may hold.
	tokenSet = mkset("A-Za-z0-9._~+/=-")
)

// A rule recognises one credential format by the literal prefix its vendor
// documents, followed by a body of min..max bytes of set (max 0: no upper
// bound). A body longer than max means the text is something else (a hash,
// an identifier) and is left alone. A rule with custom reads the body itself
// and may return a span that does not start at the prefix.
type rule struct {
	prefix   string
	kind     string
	set      *charset
	min, max int
	custom   func(ts *tokenScan, s string, start, body int) (lo, hi int, ok bool)
}

// rules are the vendor formats, from each vendor's public documentation
// (prefix and alphabet; lengths where documented, else a floor that keeps
// ordinary identifiers out). They need a word start: no letter or digit
// right before the prefix. Longer prefixes are tried first, so a specific
// format wins over a generic one sharing its start ("sk-ant-" over "sk-").
var rules = []rule{
	// AI providers.
	{prefix: "sk-proj-", kind: "openai key", set: alnumUD, min: 20},
	{prefix: "sk-svcacct-", kind: "openai key", set: alnumUD, min: 20},
	{prefix: "sk-admin-", kind: "openai key", set: alnumUD, min: 20},
	{prefix: "sk-ant-", kind: "anthropic key", set: alnumUD, min: 20},
	{prefix: "sk-or-v1-", kind: "openrouter key", set: hexLower, min: 64, max: 64},
	{prefix: "sk-", kind: "api key", set: alnumUD, min: 17}, // OpenAI legacy, DeepSeek, Moonshot, …
	{prefix: "rk-", kind: "api key", set: alnumUD, min: 17},
	{prefix: "gsk_", kind: "groq key", set: alnum, min: 40},
	{prefix: "hf_", kind: "hugging face token", set: alnum, min: 30},
	{prefix: "api_org_", kind: "hugging face token", set: alnum, min: 30},
	{prefix: "xai-", kind: "xai key", set: alnum, min: 40},
	{prefix: "pplx-", kind: "perplexity key", set: alnum, min: 40},
	{prefix: "r8_", kind: "replicate token", set: alnum, min: 30},
	{prefix: "fw_", kind: "fireworks key", set: alnum, min: 20},
	{prefix: "tgp_v1_", kind: "together key", set: alnumUD, min: 30},
	{prefix: "csk-", kind: "cerebras key", set: lowerNum, min: 40},
	{prefix: "lsv2_pt_", kind: "langsmith key", set: alnumU, min: 32},
	{prefix: "lsv2_sk_", kind: "langsmith key", set: alnumU, min: 32},
	{prefix: "pcsk_", kind: "pinecone key", set: alnumU, min: 40},
	{prefix: "rpa_", kind: "runpod key", set: alnum, min: 30},
	{prefix: "AIza", kind: "google api key", set: alnumUD, min: 35, max: 35},
	{prefix: "GOCSPX-", kind: "google oauth secret", set: alnumUD, min: 24},
	{prefix: "ya29.", kind: "google oauth token", set: alnumUD, min: 20},
	{prefix: "1//0", kind: "google refresh token", set: alnumUD, min: 30},
	// Payments.
	{prefix: "sk_live_", kind: "stripe key", set: alnum, min: 20},
	{prefix: "sk_test_", kind: "stripe key", set: alnum, min: 20},
	{prefix: "rk_live_", kind: "stripe key", set: alnum, min: 20},
	{prefix: "rk_test_", kind: "stripe key", set: alnum, min: 20},
	{prefix: "pk_live_", kind: "stripe key", set: alnum, min: 20},
	{prefix: "pk_test_", kind: "stripe key", set: alnum, min: 20},
	{prefix: "whsec_", kind: "stripe webhook secret", set: alnum, min: 24},
	{prefix: "sk_", kind: "elevenlabs key", set: hexLower, min: 48, max: 48},
	{prefix: "sq0atp-", kind: "square token", set: alnumUD, min: 22},
	{prefix: "sq0csp-", kind: "square secret", set: alnumUD, min: 40},
	{prefix: "EAAA", kind: "square token", set: alnumUD, min: 60},
	{prefix: "access_token$production$", kind: "braintree token", set: mkset("a-z0-9$"), min: 40},
	// Cloud.
	{prefix: "AKIA", kind: "aws access key", set: upperNum, min: 16, max: 16},
	{prefix: "ASIA", kind: "aws access key", set: upperNum, min: 16, max: 16},
	{prefix: "ABIA", kind: "aws access key", set: upperNum, min: 16, max: 16},
	{prefix: "ACCA", kind: "aws access key", set: upperNum, min: 16, max: 16},
	{prefix: "secret", kind: "aws secret key", custom: secretAfterWord},
	{prefix: "Secret", kind: "aws secret key", custom: secretAfterWord},
	{prefix: "SECRET", kind: "aws secret key", custom: secretAfterWord},
	{prefix: "LTAI", kind: "alibaba access key", set: alnum, min: 12, max: 20},
	{prefix: "dop_v1_", kind: "digitalocean token", set: hexLower, min: 64, max: 64},
	{prefix: "doo_v1_", kind: "digitalocean token", set: hexLower, min: 64, max: 64},
	{prefix: "dor_v1_", kind: "digitalocean token", set: hexLower, min: 64, max: 64},
	{prefix: "dapi", kind: "databricks token", set: hexLower, min: 32, max: 32, custom: databricks},
	{prefix: "hvs.", kind: "vault token", set: alnumUD, min: 24},
	{prefix: "hvb.", kind: "vault token", set: alnumUD, min: 24},
	{prefix: "hvr.", kind: "vault token", set: alnumUD, min: 24},
	{prefix: "pul-", kind: "pulumi token", set: hexLower, min: 40, max: 40},
	{prefix: "HRKU-", kind: "heroku key", set: alnumUD, min: 30},
	{prefix: "fm2_", kind: "fly.io token", set: b64eq, min: 40},
	{prefix: "rnd_", kind: "render key", set: alnum, min: 24},
	{prefix: "nfp_", kind: "netlify token", set: alnum, min: 30},
	{prefix: "sbp_", kind: "supabase token", set: hexLower, min: 40, max: 40},
	{prefix: "sb_secret_", kind: "supabase key", set: alnumUD, min: 20},
	{prefix: "pscale_tkn_", kind: "planetscale token", set: alnumUD, min: 32},
	{prefix: "pscale_pw_", kind: "planetscale password", set: alnumUD, min: 32},
	{prefix: "pscale_oauth_", kind: "planetscale token", set: alnumUD, min: 32},
	{prefix: "tskey-auth-", kind: "tailscale key", set: alnumUD, min: 20},
	{prefix: "tskey-api-", kind: "tailscale key", set: alnumUD, min: 20},
	{prefix: "tskey-client-", kind: "tailscale key", set: alnumUD, min: 20},
	{prefix: "dt0c01.", kind: "dynatrace token", set: mkset("A-Za-z0-9."), min: 80},
	{prefix: "NRAK-", kind: "new relic key", set: upperNum, min: 27, max: 27},
	{prefix: "glc_", kind: "grafana token", set: b64eq, min: 32},
	{prefix: "glsa_", kind: "grafana token", set: alnumU, min: 32},
	// Code hosting, CI and registries.
	{prefix: "ghp_", kind: "github token", set: alnum, min: 30},
	{prefix: "gho_", kind: "github token", set: alnum, min: 30},
	{prefix: "ghu_", kind: "github token", set: alnum, min: 30},
	{prefix: "ghs_", kind: "github token", set: alnum, min: 30},
	{prefix: "ghr_", kind: "github token", set: alnum, min: 30},
	{prefix: "github_pat_", kind: "github token", set: alnumU, min: 22},
	{prefix: "glpat-", kind: "gitlab token", set: alnumUD, min: 20},
	{prefix: "gldt-", kind: "gitlab token", set: alnumUD, min: 20},
	{prefix: "glrt-", kind: "gitlab token", set: alnumUD, min: 20},
	{prefix: "glptt-", kind: "gitlab token", set: alnumUD, min: 20},
	{prefix: "glcbt-", kind: "gitlab token", set: alnumUD, min: 20},
	{prefix: "glft-", kind: "gitlab token", set: alnumUD, min: 20},
	{prefix: "gloas-", kind: "gitlab token", set: alnumUD, min: 20},
	{prefix: "GR1348941", kind: "gitlab token", set: alnumUD, min: 20},
	{prefix: "ATBB", kind: "bitbucket app password", set: alnum, min: 32},
	{prefix: "ATATT3", kind: "atlassian token", set: b64url, min: 100},
	{prefix: "npm_", kind: "npm token", set: alnum, min: 36, max: 36},
	{prefix: "pypi-AgEIcHlwaS5vcmc", kind: "pypi token", set: alnumUD, min: 50},
	{prefix: "pypi-AgENdGVzdC5weXBpLm9yZw", kind: "pypi token", set: alnumUD, min: 50},
	{prefix: "rubygems_", kind: "rubygems key", set: hexLower, min: 48, max: 48},
	{prefix: "oy2", kind: "nuget key", set: lowerNum, min: 43, max: 43},
	{prefix: "dckr_pat_", kind: "docker hub token", set: alnumUD, min: 24},
	{prefix: "sntrys_", kind: "sentry token", set: b64eq, min: 40},
	{prefix: "sntryu_", kind: "sentry token", set: hexLower, min: 64, max: 64},
	{prefix: "bkua_", kind: "buildkite token", set: alnum, min: 40},
	{prefix: "CCIPAT_", kind: "circleci token", set: alnumU, min: 30},
	{prefix: "sgp_", kind: "sourcegraph token", set: alnumU, min: 40},
	{prefix: "rdme_", kind: "readme key", set: alnum, min: 64},
	// Messaging and SaaS.
	{prefix: "xoxb-", kind: "slack token", set: alnumUD, min: 10},
	{prefix: "xoxp-", kind: "slack token", set: alnumUD, min: 10},
	{prefix: "xoxa-", kind: "slack token", set: alnumUD, min: 10},
	{prefix: "xoxr-", kind: "slack token", set: alnumUD, min: 10},
	{prefix: "xoxs-", kind: "slack token", set: alnumUD, min: 10},
	{prefix: "xoxe-", kind: "slack token", set: alnumUD, min: 10},
	{prefix: "xoxe.xoxp-", kind: "slack token", set: alnumUD, min: 10},
	{prefix: "xapp-", kind: "slack token", set: alnumUD, min: 10},
	{prefix: "SK", kind: "twilio key", set: hexAny, min: 32, max: 32},
	{prefix: "SG.", kind: "sendgrid key", custom: sendgrid},
	{prefix: "key-", kind: "mailgun key", set: hexLower, min: 32, max: 32},
	{prefix: "shpat_", kind: "shopify token", set: hexAny, min: 32, max: 32},
	{prefix: "shpca_", kind: "shopify token", set: hexAny, min: 32, max: 32},
	{prefix: "shppa_", kind: "shopify token", set: hexAny, min: 32, max: 32},
	{prefix: "shpss_", kind: "shopify token", set: hexAny, min: 32, max: 32},
	{prefix: "dp.pt.", kind: "doppler token", set: alnum, min: 40},
	{prefix: "dp.st.", kind: "doppler token", set: alnumUD, min: 40},
	{prefix: "dp.sa.", kind: "doppler token", set: alnum, min: 40},
	{prefix: "dp.ct.", kind: "doppler token", set: alnum, min: 40},
	{prefix: "dp.scim.", kind: "doppler token", set: alnum, min: 40},
	{prefix: "dp.audit.", kind: "doppler token", set: alnum, min: 40},
	{prefix: "lin_api_", kind: "linear key", set: alnum, min: 40},
	{prefix: "lin_oauth_", kind: "linear key", set: alnum, min: 40},
	{prefix: "secret_", kind: "notion token", set: alnum, min: 43, max: 43},
	{prefix: "ntn_", kind: "notion token", set: alnum, min: 40},
	{prefix: "PMAK-", kind: "postman key", custom: postman},
	{prefix: "figd_", kind: "figma token", set: alnumUD, min: 36},
	{prefix: "pat", kind: "airtable token", custom: airtable},
	{prefix: "CFPAT-", kind: "contentful token", set: alnumUD, min: 40},
	{prefix: "sl.", kind: "dropbox token", set: alnumUD, min: 120},
	{prefix: "sk.eyJ", kind: "mapbox token", set: tokenSet, min: 40},
	{prefix: "ops_eyJ", kind: "1password token", set: tokenSet, min: 40},
	{prefix: "AGE-SECRET-KEY-1", kind: "age secret key", set: bech32, min: 58, max: 58},
	{prefix: "eyJ", kind: "jwt", custom: jwtBody},
}

// Prefixes no literal can name: the first two bytes of their possible
// starts map to a custom rule.
var (
	discordRule  = rule{kind: "discord token", custom: discord}
	telegramRule = rule{kind: "telegram bot token", custom: telegram}
)

// byPair indexes rules by their first two bytes; candidates of one pair are
// ordered longest prefix first.
var byPair = func() map[uint16][]*rule {
	idx := map[uint16][]*rule{}
	add := func(a, b byte, r *rule) { k := uint16(a)<<8 | uint16(b); idx[k] = append(idx[k], r) }
	for i := range rules {
		r := &rules[i]
		add(r.prefix[0], r.prefix[1], r)
	}
	for i := range wordRules {
		r := &wordRules[i]
		add(r.prefix[0], r.prefix[1], r)
	}
	// Discord bot tokens start with the base64 of a decimal user id.
	for _, p := range []string{"MT", "Mj", "Mz", "ND", "NT", "Nj", "Nz", "OD", "OT"} {
		add(p[0], p[1], &discordRule)
	}
	for a := byte('0'); a <= '9'; a++ {
		for b := byte('0'); b <= '9'; b++ {
			add(a, b, &telegramRule)
		}
	}
	for _, rs := range idx {
		sort.SliceStable(rs, func(i, j int) bool { return len(rs[i].prefix) > len(rs[j].prefix) })
	}
	return idx
}()

// pairTable is byPair as a dense table of group numbers: the scan loop
// pays one load per word start.
var pairTable, pairGroups = func() (*[1 << 16]uint8, [][]*rule) {
	var t [1 << 16]uint8
	groups := [][]*rule{nil}
	keys := make([]int, 0, len(byPair))
	for k := range byPair {
		keys = append(keys, int(k))
	}
	sort.Ints(keys)
	for _, k := range keys {
		groups = append(groups, byPair[uint16(k)])
		t[k] = uint8(len(groups) - 1)
	}
	if len(groups) > 255 {
		panic("redact: too many prefix groups")
	}
	return &t, groups
}()

// glued indexes the rules that are found inside a word too ("xghp_…",
// two tokens glued together): those whose prefix holds '_' or '-' after at
// least two letters, keyed by that separator and the byte before it; off
// is the separator's offset in the prefix. Short or word-like prefixes
// (sk-, key-, secret_) need a word start.
type gluedRule struct {
	r   *rule
	off int
}

var glued = func() (idx [2][256][]gluedRule) {
	for i := range rules {
		r := &rules[i]
		j := strings.IndexAny(r.prefix, "_-")
		if j < 2 || len(r.prefix) < 4 || r.custom != nil || r.prefix == "key-" || r.prefix == "secret_" {
			continue
		}
		sep := 0
		if r.prefix[j] == '-' {
			sep = 1
		}
		idx[sep][r.prefix[j-1]] = append(idx[sep][r.prefix[j-1]], gluedRule{r, j})
	}
	return idx
}()

// tokenScan finds vendor tokens at word starts (and glued ones, above). It remembers where the last
// AWS key id ended: a 40-byte secret right after it on the line is its
// secret access key (CSV exports, "aws configure list" and the like).
//
// It also caches the runs it has measured: a run of one byte class that
// crosses later word starts ("AIza-AIza-…", "sk-sk-…") is measured once,
// not once per start, which keeps a pass linear on any input.
type tokenScan struct {
	awsEnd  int
	started bool
	cache   [4]struct {
		set     *charset
		lo, end int
	}
	slot int
}

// run is runOf(s, i, set), answered from the cache when i lies in a run of
// set measured before. s must be the same string on every call.
func (ts *tokenScan) run(s string, i int, set *charset) int {
	for _, c := range ts.cache {
		if c.set == set && c.lo <= i && i <= c.end {
			return c.end - i
		}
	}
	n := runOf(s, i, set)
	if n > 32 {
		ts.cache[ts.slot] = struct {
			set     *charset
			lo, end int
		}{set, i, i + n}
		ts.slot = (ts.slot + 1) % len(ts.cache)
	}
	return n
}

func (ts *tokenScan) find(s string, from int) (int, int, int, string) {
	if !ts.started { // no AWS key id seen yet: none "just before" position 0
		ts.awsEnd, ts.started = -100, true
	}
	al := alnum
	i := from
	if i > 0 && al[s[i-1]] { // mid-word: no word start before the word ends
		for i < len(s) && al[s[i]] {
			i++
		}
	}
	for {
		// At a separator: a glued token ends its prefix here, then the
		// separators run to the next word start. Both loops are tight:
		// most bytes cost one table load.
		if i < len(s) && i > 0 && (s[i] == '_' || s[i] == '-') && al[s[i-1]] {
			if lo, hi, kind, ok := ts.glued(s, from, i); ok {
				return lo, hi, hi, maskAs(kind, s[lo:hi])
			}
		}
		for i < len(s) && !al[s[i]] {
			i++
		}
		if i+1 >= len(s) {
			return -1, -1, -1, ""
		}
		// Most word starts begin no format: decide that here, without a
		// call (the word-start loop runs for every word of the text).
		if pairTable[uint16(s[i])<<8|uint16(s[i+1])] != 0 || i-ts.awsEnd <= 6 {
			if lo, hi, kind, ok := ts.atStart(s, i); ok {
				return lo, hi, hi, maskAs(kind, s[lo:hi])
			}
		}
		for i++; i < len(s) && al[s[i]]; i++ {
		}
	}
}

// atStart tries every format at the word start i.
func (ts *tokenScan) atStart(s string, i int) (lo, hi int, kind string, ok bool) {
	if i-ts.awsEnd <= 6 && i > ts.awsEnd && between(s[ts.awsEnd:i], " \t,;:|=\"'") {
		if hi := i + runOf(s, i, b64); hi-i == 40 && mixed(s[i:hi]) {
			return i, hi, "aws secret key", true
		}
	}
	g := pairTable[uint16(s[i])<<8|uint16(s[i+1])]
	if g == 0 {
		return 0, 0, "", false
	}
	for _, r := range pairGroups[g] {
		if !strings.HasPrefix(s[i:], r.prefix) {
			continue
		}
		lo, hi, ok := r.match(ts, s, i)
		if !ok && r.custom != nil && r.prefix != "" { // not the prefix-less Discord, Telegram
			lo, hi, ok = wrapped(r, s, i)
		}
		if !ok {
			continue
		}
		if r.kind == "aws access key" {
			ts.awsEnd = hi
		}
		return lo, hi, r.kind, true
	}
	return 0, 0, "", false
}

// wrapped tries a custom rule on the word at start joined with the next
// line, when that line is nothing but the rest of a wrapped token. Simple
// rules do this in match.
func wrapped(r *rule, s string, start int) (lo, hi int, ok bool) {
	eol := start + runOf(s[:min(len(s), start+wrapMax)], start, wrapSet)
	nl := lineBreak(s, eol)
	if nl == 0 {
		return 0, 0, false
	}
	k := eol + nl
	m := runOf(s[:min(len(s), k+wrapMax)], k, wrapSet)
	e := k + m
	if m < 4 || e < len(s) && s[e] != '\n' && s[e] != '\r' {
		return 0, 0, false
	}
	first := eol - start
	lo, hi, ok = r.match(&tokenScan{}, s[start:eol]+s[k:e], 0)
	if !ok || lo != 0 || hi <= first {
		return 0, 0, false
	}
	return start, k + hi - first, true
}

var wrapSet = mkset("A-Za-z0-9._~+/=:$-")

// wrapMax bounds each half of a wrapped token (a terminal wraps at a few
// hundred columns), so the check stays cheap on long lines.
const wrapMax = 1024

// glued tries the glued rules whose separator sits at i.
func (ts *tokenScan) glued(s string, from, i int) (lo, hi int, kind string, ok bool) {
	sep := 0
	if s[i] == '-' {
		sep = 1
	}
	for _, g := range glued[sep][s[i-1]] {
		start := i - g.off
		if start < from || !strings.HasPrefix(s[start:], g.r.prefix) {
			continue
		}
		if lo, hi, ok := g.r.match(ts, s, start); ok {
			return lo, hi, g.r.kind, true
		}
	}
	return 0, 0, "", false
}

func (r *rule) match(ts *tokenScan, s string, start int) (lo, hi int, ok bool) {
	body := start + len(r.prefix)
	if r.custom != nil {
		return r.custom(ts, s, start, body)
	}
	n := ts.run(s, body, r.set)
	if r.max > 0 && n > r.max {
		return 0, 0, false
	}
	end := body + n
	// A token wrapped onto the next line: the next line is nothing but the
	// rest of it. A fixed or bounded format continues only when its first
	// part is too short alone; an open-ended one when the next line looks
	// random enough (8 bytes or more, a digit and a letter).
	if nl := lineBreak(s, end); nl > 0 {
		k := end + nl
		m := ts.run(s, k, r.set)
		e := k + m
		whole := m >= 4 && (e == len(s) || s[e] == '\n' || s[e] == '\r')
		frag := s[k:e]
		switch {
		case !whole:
		case n < r.min && n+m >= r.min && (r.max == 0 || n+m <= r.max) && strings.ContainsAny(frag, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"):
			return start, e, true
		case n >= r.min && r.max == 0 && m >= 8 && strings.ContainsAny(frag, "0123456789") && strings.IndexFunc(frag, isLetter) >= 0:
			return start, e, true
		}
	}
	if n < r.min {
		return 0, 0, false
	}
	// A run that goes on as a word (two tokens glued with '_' between,
	// say) is masked to the word's end: half a mask leaks the rest.
	return start, end + ts.run(s, end, alnumUD), true
}

// lineBreak is the length of the line break at s[i:] (0, 1 or 2).
func lineBreak(s string, i int) int {
	switch {
	case strings.HasPrefix(s[i:], "\r\n"):
		return 2
	case i < len(s) && s[i] == '\n':
		return 1
	}
	return 0
}

func runOf(s string, i int, set *charset) int {
	j := i
	for j < len(s) && set[s[j]] {
		j++
	}
	return j - i
}

func between(s, allowed string) bool {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(allowed, s[i]) < 0 {
			return false
		}
	}
	return true
}

// mixed reports a random-looking string: a digit, an upper-case and a
// lower-case letter.
func mixed(v string) bool {
	var d, u, l bool
	for i := 0; i < len(v); i++ {
		c := v[i]
		d = d || '0' <= c && c <= '9'
		u = u || 'A' <= c && c <= 'Z'
		l = l || 'a' <= c && c <= 'z'
	}
	return d && u && l
}

// secretAfterWord: an AWS secret access key (40 bytes of base64, mixed)
// after the word "secret" and at most a few separators ("secret wJal…",
// "Secret: wJal…"). Longer key names (secret_access_key) are keyScan's.
func secretAfterWord(ts *tokenScan, s string, _, body int) (int, int, bool) {
	if body < len(s) && alnumU[s[body]] {
		return 0, 0, false
	}
	i := body
	for i < len(s) && i-body < 4 && strings.IndexByte(" \t:=\"'", s[i]) >= 0 {
		i++
	}
	if i == body {
		return 0, 0, false
	}
	n := ts.run(s, i, b64)
	if n != 40 || !mixed(s[i:i+n]) {
		return 0, 0, false
	}
	return i, i + n, true
}

// databricks: dapi + 32 hex, optionally "-" and a digit.
func databricks(ts *tokenScan, s string, start, body int) (int, int, bool) {
	n := ts.run(s, body, hexLower)
	if n != 32 {
		return 0, 0, false
	}
	end := body + n
	if end+1 < len(s) && s[end] == '-' && digits[s[end+1]] {
		end += 2
	}
	return start, end, end >= len(s) || !alnum[s[end]]
}

// sendgrid: SG.<22>.<43> of base64url.
func sendgrid(ts *tokenScan, s string, start, body int) (int, int, bool) {
	a := ts.run(s, body, alnumUD)
	if a != 22 || body+a >= len(s) || s[body+a] != '.' {
		return 0, 0, false
	}
	b := ts.run(s, body+a+1, alnumUD)
	if b != 43 {
		return 0, 0, false
	}
	return start, body + a + 1 + b, true
}

// postman: PMAK-<24 hex>-<34 hex>.
func postman(ts *tokenScan, s string, start, body int) (int, int, bool) {
	a := ts.run(s, body, hexAny)
	if a != 24 || body+a >= len(s) || s[body+a] != '-' {
		return 0, 0, false
	}
	b := ts.run(s, body+a+1, hexAny)
	if b != 34 {
		return 0, 0, false
	}
	return start, body + a + 1 + b, true
}

// airtable: pat<14 alnum>.<64 hex>.
func airtable(ts *tokenScan, s string, start, body int) (int, int, bool) {
	a := ts.run(s, body, alnum)
	if a != 14 || body+a >= len(s) || s[body+a] != '.' {
		return 0, 0, false
	}
	b := ts.run(s, body+a+1, hexLower)
	if b != 64 {
		return 0, 0, false
	}
	return start, body + a + 1 + b, true
}

// jwtBody: eyJ<header>.<payload>.<signature> in base64url, the payload
// itself a JSON object (eyJ) or at least 10 bytes; unsigned tokens (empty
// signature) are not credentials anyone can replay, so they stay.
func jwtBody(ts *tokenScan, s string, start, body int) (int, int, bool) {
	a := ts.run(s, body, alnumUD)
	p := body + a
	if a < 7 || p >= len(s) || s[p] != '.' {
		return 0, 0, false
	}
	b := ts.run(s, p+1, alnumUD)
	q := p + 1 + b
	if b < 10 || q >= len(s) || s[q] != '.' {
		return 0, 0, false
	}
	c := ts.run(s, q+1, alnumUD)
	if c < 10 {
		return 0, 0, false
	}
	return start, q + 1 + c, true
}

// discord: a bot token is base64(user id).<6>.<27..38>, the first part 23
// to 26 bytes.
func discord(ts *tokenScan, s string, start, _ int) (int, int, bool) {
	a := ts.run(s, start, alnum)
	p := start + a
	if a < 23 || a > 26 || p >= len(s) || s[p] != '.' {
		return 0, 0, false
	}
	b := ts.run(s, p+1, alnumUD)
	q := p + 1 + b
	if b != 6 || q >= len(s) || s[q] != '.' {
		return 0, 0, false
	}
	c := ts.run(s, q+1, alnumUD)
	if c < 27 || c > 38 || !mixed(s[q+1:q+1+c]) {
		return 0, 0, false
	}
	return start, q + 1 + c, true
}

// telegram: a bot token is <bot id>:<35 bytes of base64url>, the bot id
// 6 to 12 digits.
func telegram(ts *tokenScan, s string, start, _ int) (int, int, bool) {
	a := ts.run(s, start, digits)
	p := start + a
	if a < 6 || a > 12 || p >= len(s) || s[p] != ':' {
		return 0, 0, false
	}
	b := ts.run(s, p+1, alnumUD)
	if b != 35 || !mixed(s[p+1:p+1+b]) {
		return 0, 0, false
	}
	return start, p + 1 + b, true
}

// isBasicCredential reports base64 that decodes to "user:password".
func isBasicCredential(v string) bool {
	if len(v) < 8 || len(v) > 1024 {
		return false
	}
	b, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		b, err = base64.RawStdEncoding.DecodeString(v)
	}
	if err != nil {
		return false
	}
	i := strings.IndexByte(string(b), ':')
	for _, c := range b {
		if c < ' ' || c > '~' {
			return false // not text: "Basic examples" decodes to noise
		}
	}
	return i > 0 && i < len(b)-1
}
