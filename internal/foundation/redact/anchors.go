package redact

import "strings"

// Formats found by a literal that is not a vendor prefix: webhook URLs,
// SAS signatures, Bearer and Basic credentials. They are rules too (found
// at a word start through the same two-byte table, so they cost no pass
// of their own), but their custom reader returns the secret's span, which
// starts after the literal.
var wordRules = []rule{
	{prefix: "Bearer", kind: "bearer token", custom: bearer},
	{prefix: "bearer", kind: "bearer token", custom: bearer},
	{prefix: "BEARER", kind: "bearer token", custom: bearer},
	{prefix: "Basic", kind: "basic credentials", custom: basic},
	{prefix: "basic", kind: "basic credentials", custom: basic},
	{prefix: "BASIC", kind: "basic credentials", custom: basic},
	// Incoming-webhook URLs carry their secret in the path.
	{prefix: "hooks.slack.com/services/", kind: "slack webhook", custom: func(_ *tokenScan, s string, _, body int) (int, int, bool) {
		n := runOf(s, body, slackPath)
		return body, body + n, n >= 20
	}},
	{prefix: "discord.com/api/webhooks/", kind: "discord webhook", custom: discordHook},
	{prefix: "discordapp.com/api/webhooks/", kind: "discord webhook", custom: discordHook},
	// Azure shared access signatures: the sig parameter of a SAS URL.
	{prefix: "sig=", kind: "azure sas signature", custom: func(_ *tokenScan, s string, start, body int) (int, int, bool) {
		if start == 0 || s[start-1] != '?' && s[start-1] != '&' {
			return 0, 0, false
		}
		n := runOf(s, body, sasSet)
		return body, body + n, n >= 20
	}},
	// The same after an '&' a JSON encoder escaped (Go writes \u0026).
	{prefix: "u0026sig=", kind: "azure sas signature", custom: func(_ *tokenScan, s string, start, body int) (int, int, bool) {
		if start == 0 || s[start-1] != '\\' {
			return 0, 0, false
		}
		n := runOf(s, body, sasSet)
		return body, body + n, n >= 20
	}},
	// Firebase Cloud Messaging server keys: AAAA<7>:APA91b<134 or so>.
	{prefix: "AAAA", kind: "firebase key", custom: func(_ *tokenScan, s string, start, body int) (int, int, bool) {
		at := body + 7
		if runOf(s, body, alnumUD) != 7 || !strings.HasPrefix(s[at:], ":APA91b") {
			return 0, 0, false
		}
		n := runOf(s, at+7, alnumUD)
		return start, at + 7 + n, n >= 100
	}},
}

var (
	azureSet  = mkset("A-Za-z0-9_~.-")
	sasSet    = mkset("A-Za-z0-9%+/=")
	slackPath = mkset("A-Za-z0-9/")
)

// bearer: blanks, then 16 or more of [A-Za-z0-9._~+/=-].
func bearer(_ *tokenScan, s string, _, body int) (int, int, bool) {
	j := skipBlank(s, body)
	if j == body {
		return 0, 0, false
	}
	n := runOf(s, j, tokenSet)
	return j, j + n, n >= 16
}

// basic: blanks, then base64 of "user:password".
func basic(_ *tokenScan, s string, _, body int) (int, int, bool) {
	j := skipBlank(s, body)
	if j == body {
		return 0, 0, false
	}
	n := runOf(s, j, tokenSet)
	return j, j + n, isBasicCredential(s[j : j+n])
}

// discordHook: <id>/<token>; the token is masked, the id kept.
func discordHook(_ *tokenScan, s string, _, body int) (int, int, bool) {
	d := runOf(s, body, digits)
	if d < 10 || body+d >= len(s) || s[body+d] != '/' {
		return 0, 0, false
	}
	lo := body + d + 1
	t := runOf(s, lo, alnumUD)
	return lo, lo + t, t >= 40
}

// anchors are the formats whose first bytes are free but whose shape pins
// a literal at a fixed offset: one substring search per pass finds them
// (cheaper than a check at every word start), span reads around it.
var anchors = []anchor{
	// Azure AD (Entra) client secrets: 3 characters, a digit, "Q~", then
	// 31 to 34 of [A-Za-z0-9_~.-].
	{"Q~", "azure client secret", func(s string, at int) (int, int, bool) {
		lo := at - 4
		if lo < 0 || lo > 0 && alnum[s[lo-1]] || runOf(s[:at-1], lo, alnum) != 3 || !digits[s[at-1]] {
			return 0, 0, false
		}
		n := runOf(s[:min(len(s), at+2+35)], at+2, azureSet) // 35: one past the longest
		return lo, at + 2 + n, n >= 31 && n <= 34
	}},
	// Terraform Cloud / HCP tokens: <14>.atlasv1.<60 or more>.
	{".atlasv1.", "terraform token", func(s string, at int) (int, int, bool) {
		lo := at - 14
		if lo < 0 || lo > 0 && alnum[s[lo-1]] || runOf(s[:at], lo, alnum) != 14 {
			return 0, 0, false
		}
		n := runOf(s, at+9, alnumUD)
		return lo, at + 9 + n, n >= 60
	}},
}

type anchor struct {
	lit, kind string
	span      func(s string, at int) (lo, hi int, ok bool)
}

// find searches from from; a literal inside a long run that fails (azure's
// set holds '~') is passed by one byte, and each span check reads a bounded
// stretch but for the tail, which ends the search: linear.
func (a anchor) find(s string, from int) (int, int, int, string) {
	for {
		k := strings.Index(s[from:], a.lit)
		if k < 0 {
			return -1, -1, -1, ""
		}
		at := from + k
		if lo, hi, ok := a.span(s, at); ok {
			return lo, hi, hi, maskAs(a.kind, s[lo:hi])
		}
		from = at + 1
	}
}
