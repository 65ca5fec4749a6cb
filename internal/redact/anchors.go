package redact

import "strings"

// An anchor is a format recognised by a literal inside it rather than at
// its start: one substring search per pass finds the candidates, and span
// checks the text around one.
type anchor struct {
	lit  string
	kind string
	// span returns the secret around the literal found at at.
	span func(s string, at int) (lo, hi int, ok bool)
}

var anchors = []anchor{
	// Azure AD (Entra) client secrets: 3 characters, a digit, "Q~", then
	// 31 to 34 of [A-Za-z0-9_~.-].
	{"Q~", "azure client secret", func(s string, at int) (int, int, bool) {
		lo := at - 4
		if lo < 0 || lo > 0 && alnum[s[lo-1]] || runOf(s[:at], lo, azureSet) != 4 || !digits[s[at-1]] {
			return 0, 0, false
		}
		n := runOf(s, at+2, azureSet)
		return lo, at + 2 + n, n >= 31 && n <= 34
	}},
	// Terraform Cloud / HCP tokens: <14>.atlasv1.<60 or more>.
	{".atlasv1.", "terraform token", func(s string, at int) (int, int, bool) {
		lo := at - 14
		if lo < 0 || runOf(s[:at], lo, alnum) != 14 || lo > 0 && alnum[s[lo-1]] {
			return 0, 0, false
		}
		n := runOf(s, at+9, alnumUD)
		return lo, at + 9 + n, n >= 60
	}},
	// Firebase Cloud Messaging server keys: AAAA<7>:APA91b<134 or so>.
	{":APA91b", "firebase key", func(s string, at int) (int, int, bool) {
		lo := at - 11
		if lo < 0 || !strings.HasPrefix(s[lo:], "AAAA") || runOf(s[:at], lo, alnumUD) != 11 {
			return 0, 0, false
		}
		n := runOf(s, at+7, alnumUD)
		return lo, at + 7 + n, n >= 100
	}},
	// Azure shared access signatures: the sig parameter of a SAS URL.
	{"sig=", "azure sas signature", func(s string, at int) (int, int, bool) {
		if at == 0 || s[at-1] != '?' && s[at-1] != '&' && !strings.HasSuffix(s[:at], `\u0026`) {
			return 0, 0, false
		}
		n := runOf(s, at+4, sasSet)
		return at + 4, at + 4 + n, n >= 20
	}},
	// Incoming-webhook URLs carry their secret in the path.
	{"hooks.slack.com/services/", "slack webhook", func(s string, at int) (int, int, bool) {
		lo := at + 25
		n := runOf(s, lo, mkSlackSet)
		return lo, lo + n, n >= 20
	}},
	{"discord.com/api/webhooks/", "discord webhook", discordHook(25)},
	{"discordapp.com/api/webhooks/", "discord webhook", discordHook(28)},
}

var (
	azureSet   = mkset("A-Za-z0-9_~.-")
	sasSet     = mkset("A-Za-z0-9%+/=")
	mkSlackSet = mkset("A-Za-z0-9/")
)

// discordHook: <id>/<token> after the path prefix of length n; the token is
// masked, the id kept.
func discordHook(n int) func(s string, at int) (int, int, bool) {
	return func(s string, at int) (int, int, bool) {
		i := at + n
		d := runOf(s, i, digits)
		if d < 10 || i+d >= len(s) || s[i+d] != '/' {
			return 0, 0, false
		}
		lo := i + d + 1
		t := runOf(s, lo, alnumUD)
		return lo, lo + t, t >= 40
	}
}

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
