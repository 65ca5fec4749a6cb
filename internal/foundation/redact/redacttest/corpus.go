// Package redacttest holds the redaction corpora: the positive corpus
// (credentials of every format the redactor knows, generated) and the
// negative corpus (ordinary text that must come out unchanged), for the
// redactor's own tests and for tests that pipe them through real plugin
// processes. It imports nothing of the host, so a test plugin can
// generate the same samples in its own process.
package redacttest

import (
	"bufio"
	_ "embed"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strings"
)

// The positive corpus: for every credential format, samples shaped as the
// vendor documents them (prefix, alphabet, length), generated here from a
// fixed seed. None is a real key: the bodies are random.
const (
	alUpper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	alLower = "abcdefghijklmnopqrstuvwxyz"
	alDigit = "0123456789"
	alAlnum = alUpper + alLower + alDigit
	alURL   = alAlnum + "_-"
	alHexL  = "0123456789abcdef"
	alB64   = alAlnum + "+/"
	alUpNum = alUpper + alDigit
	alLoNum = alLower + alDigit
	alBech  = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
)

// format is one credential format: gen makes a sample, kind is what its
// mask must name ("" for the formats found by their key, whose kind
// follows the key).
type Format struct {
	Name, Kind string
	Gen        func(r *rand.Rand) string
}

func pick(r *rand.Rand, alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

// rnd makes a body that has a digit, an upper- and a lower-case letter
// whenever its alphabet allows, as real random tokens of that length do.
func rnd(r *rand.Rand, alphabet string, n int) string {
	for {
		s := pick(r, alphabet, n)
		if !strings.ContainsAny(alphabet, alUpper) || !strings.ContainsAny(alphabet, alLower) || mixed(s) || n < 8 {
			return s
		}
	}
}

func lit(prefix, alphabet string, n int) func(r *rand.Rand) string {
	return func(r *rand.Rand) string { return prefix + rnd(r, alphabet, n) }
}

func rawURL(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// Formats are the credential formats of the corpus.
var Formats = []Format{
	{"openai project key", "openai key", func(r *rand.Rand) string {
		return "sk-proj-" + rnd(r, alURL, 74) + "T3BlbkFJ" + rnd(r, alURL, 74)
	}},
	{"openai service account key", "openai key", lit("sk-svcacct-", alURL, 140)},
	{"openai admin key", "openai key", lit("sk-admin-", alURL, 140)},
	{"openai legacy key", "api key", func(r *rand.Rand) string { return "sk-" + rnd(r, alAlnum, 20) + "T3BlbkFJ" + rnd(r, alAlnum, 20) }},
	{"anthropic key", "anthropic key", func(r *rand.Rand) string { return "sk-ant-api03-" + rnd(r, alURL, 93) + "AA" }},
	{"anthropic admin key", "anthropic key", func(r *rand.Rand) string { return "sk-ant-admin01-" + rnd(r, alURL, 93) + "AA" }},
	{"deepseek key", "api key", lit("sk-", alHexL, 32)},
	{"openrouter key", "openrouter key", lit("sk-or-v1-", alHexL, 64)},
	{"groq key", "groq key", lit("gsk_", alAlnum, 52)},
	{"hugging face token", "hugging face token", lit("hf_", alAlnum, 34)},
	{"hugging face org token", "hugging face token", lit("api_org_", alAlnum, 34)},
	{"xai key", "xai key", lit("xai-", alAlnum, 80)},
	{"perplexity key", "perplexity key", lit("pplx-", alAlnum, 48)},
	{"replicate token", "replicate token", lit("r8_", alAlnum, 37)},
	{"fireworks key", "fireworks key", lit("fw_", alAlnum, 24)},
	{"together key", "together key", lit("tgp_v1_", alURL, 43)},
	{"cerebras key", "cerebras key", lit("csk-", alLoNum, 48)},
	{"langsmith key", "langsmith key", func(r *rand.Rand) string { return "lsv2_pt_" + rnd(r, alHexL, 32) + "_" + rnd(r, alHexL, 10) }},
	{"pinecone key", "pinecone key", lit("pcsk_", alAlnum+"_", 70)},
	{"runpod key", "runpod key", lit("rpa_", alUpNum, 44)},
	{"google api key", "google api key", lit("AIza", alURL, 35)},
	{"google oauth client secret", "google oauth secret", lit("GOCSPX-", alURL, 28)},
	{"google oauth access token", "google oauth token", lit("ya29.", alURL, 150)},
	{"google refresh token", "google refresh token", lit("1//0", alURL, 99)},
	{"stripe secret key", "stripe key", lit("sk_live_", alAlnum, 99)},
	{"stripe test key", "stripe key", lit("sk_test_", alAlnum, 24)},
	{"stripe restricted key", "stripe key", lit("rk_live_", alAlnum, 99)},
	{"stripe publishable key", "stripe key", lit("pk_live_", alAlnum, 99)},
	{"stripe webhook secret", "stripe webhook secret", lit("whsec_", alAlnum, 32)},
	{"elevenlabs key", "elevenlabs key", lit("sk_", alHexL, 48)},
	{"square access token", "square token", lit("EAAA", alURL, 60)},
	{"square oauth secret", "square secret", lit("sq0csp-", alURL, 43)},
	{"braintree token", "braintree token", func(r *rand.Rand) string {
		return "access_token$production$" + rnd(r, alLoNum, 16) + "$" + rnd(r, alHexL, 32)
	}},
	{"aws access key id", "aws access key", lit("AKIA", alUpNum, 16)},
	{"aws temporary key id", "aws access key", lit("ASIA", alUpNum, 16)},
	{"aws secret access key", "aws secret key", func(r *rand.Rand) string { return "secret " + rnd(r, alB64, 40) }},
	{"alibaba access key", "alibaba access key", lit("LTAI", alAlnum, 20)},
	{"digitalocean token", "digitalocean token", lit("dop_v1_", alHexL, 64)},
	{"digitalocean oauth token", "digitalocean token", lit("doo_v1_", alHexL, 64)},
	{"databricks token", "databricks token", lit("dapi", alHexL, 32)},
	{"vault token", "vault token", lit("hvs.", alURL, 90)},
	{"pulumi token", "pulumi token", lit("pul-", alHexL, 40)},
	{"heroku key", "heroku key", lit("HRKU-", alURL, 60)},
	{"fly.io token", "fly.io token", lit("fm2_", alB64, 120)},
	{"render key", "render key", lit("rnd_", alAlnum, 32)},
	{"netlify token", "netlify token", lit("nfp_", alAlnum, 36)},
	{"supabase token", "supabase token", lit("sbp_", alHexL, 40)},
	{"planetscale token", "planetscale token", lit("pscale_tkn_", alURL, 43)},
	{"tailscale key", "tailscale key", func(r *rand.Rand) string {
		return "tskey-auth-" + rnd(r, alAlnum, 16) + "-" + rnd(r, alAlnum, 33)
	}},
	{"new relic key", "new relic key", lit("NRAK-", alUpNum, 27)},
	{"grafana service account token", "grafana token", func(r *rand.Rand) string {
		return "glsa_" + rnd(r, alAlnum, 32) + "_" + rnd(r, alHexL, 8)
	}},
	{"azure client secret", "azure client secret", func(r *rand.Rand) string {
		return rnd(r, alAlnum, 3) + pick(r, alDigit, 1) + "Q~" + rnd(r, alAlnum+"_~.-", 34)
	}},
	{"azure sas signature", "azure sas signature", func(r *rand.Rand) string {
		return "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sp=r&sig=" + rnd(r, alAlnum, 40) + "%3D"
	}},
	{"terraform token", "terraform token", func(r *rand.Rand) string {
		return rnd(r, alAlnum, 14) + ".atlasv1." + rnd(r, alURL, 67)
	}},
	{"firebase server key", "firebase key", func(r *rand.Rand) string {
		return "AAAA" + rnd(r, alURL, 7) + ":APA91b" + rnd(r, alURL, 134)
	}},
	{"github classic token", "github token", lit("ghp_", alAlnum, 36)},
	{"github oauth token", "github token", lit("gho_", alAlnum, 36)},
	{"github app user token", "github token", lit("ghu_", alAlnum, 36)},
	{"github app server token", "github token", lit("ghs_", alAlnum, 36)},
	{"github refresh token", "github token", lit("ghr_", alAlnum, 76)},
	{"github fine-grained token", "github token", func(r *rand.Rand) string {
		return "github_pat_" + rnd(r, alAlnum, 22) + "_" + rnd(r, alAlnum, 59)
	}},
	{"gitlab personal token", "gitlab token", lit("glpat-", alURL, 20)},
	{"gitlab deploy token", "gitlab token", lit("gldt-", alURL, 20)},
	{"gitlab runner token", "gitlab token", lit("glrt-", alURL, 20)},
	{"bitbucket app password", "bitbucket app password", lit("ATBB", alAlnum, 32)},
	{"atlassian token", "atlassian token", lit("ATATT3", alURL+"=", 186)},
	{"npm token", "npm token", lit("npm_", alAlnum, 36)},
	{"pypi token", "pypi token", lit("pypi-AgEIcHlwaS5vcmc", alURL, 150)},
	{"rubygems key", "rubygems key", lit("rubygems_", alHexL, 48)},
	{"nuget key", "nuget key", lit("oy2", alLoNum, 43)},
	{"docker hub token", "docker hub token", lit("dckr_pat_", alURL, 27)},
	{"sentry user token", "sentry token", lit("sntryu_", alHexL, 64)},
	{"buildkite token", "buildkite token", lit("bkua_", alHexL, 40)},
	{"circleci token", "circleci token", lit("CCIPAT_", alAlnum+"_", 48)},
	{"sourcegraph token", "sourcegraph token", lit("sgp_", alHexL+"_", 56)},
	{"slack bot token", "slack token", func(r *rand.Rand) string {
		return "xoxb-" + pick(r, alDigit, 12) + "-" + pick(r, alDigit, 13) + "-" + rnd(r, alAlnum, 24)
	}},
	{"slack user token", "slack token", func(r *rand.Rand) string {
		return "xoxp-" + pick(r, alDigit, 12) + "-" + pick(r, alDigit, 12) + "-" + pick(r, alDigit, 13) + "-" + rnd(r, alHexL, 32)
	}},
	{"slack app token", "slack token", func(r *rand.Rand) string {
		return "xapp-1-A" + rnd(r, alUpNum, 10) + "-" + pick(r, alDigit, 13) + "-" + rnd(r, alHexL, 64)
	}},
	{"slack webhook", "slack webhook", func(r *rand.Rand) string {
		return "https://hooks.slack.com/services/T" + rnd(r, alUpNum, 8) + "/B" + rnd(r, alUpNum, 10) + "/" + rnd(r, alAlnum, 24)
	}},
	{"discord bot token", "discord token", func(r *rand.Rand) string {
		id := fmt.Sprint(100000000000000000 + r.Int64N(900000000000000000))
		return base64.RawStdEncoding.EncodeToString([]byte(id)) + "." + rnd(r, alURL, 6) + "." + rnd(r, alURL, 38)
	}},
	{"discord webhook", "discord webhook", func(r *rand.Rand) string {
		return "https://discord.com/api/webhooks/" + pick(r, alDigit, 18) + "/" + rnd(r, alURL, 68)
	}},
	{"telegram bot token", "telegram bot token", func(r *rand.Rand) string {
		return pick(r, alDigit, 10) + ":AA" + rnd(r, alURL, 33)
	}},
	{"twilio api key", "twilio key", lit("SK", alHexL, 32)},
	{"sendgrid key", "sendgrid key", func(r *rand.Rand) string { return "SG." + rnd(r, alURL, 22) + "." + rnd(r, alURL, 43) }},
	{"mailgun key", "mailgun key", lit("key-", alHexL, 32)},
	{"shopify access token", "shopify token", lit("shpat_", alHexL, 32)},
	{"shopify shared secret", "shopify token", lit("shpss_", alHexL, 32)},
	{"doppler token", "doppler token", lit("dp.pt.", alAlnum, 43)},
	{"doppler service token", "doppler token", lit("dp.st.", alAlnum, 43)},
	{"linear key", "linear key", lit("lin_api_", alAlnum, 40)},
	{"notion integration token", "notion token", lit("secret_", alAlnum, 43)},
	{"notion token", "notion token", lit("ntn_", alAlnum, 46)},
	{"postman key", "postman key", func(r *rand.Rand) string { return "PMAK-" + rnd(r, alHexL, 24) + "-" + rnd(r, alHexL, 34) }},
	{"figma token", "figma token", lit("figd_", alURL, 40)},
	{"airtable token", "airtable token", func(r *rand.Rand) string { return "pat" + rnd(r, alAlnum, 14) + "." + rnd(r, alHexL, 64) }},
	{"contentful token", "contentful token", lit("CFPAT-", alURL, 43)},
	{"dropbox token", "dropbox token", lit("sl.", alURL, 135)},
	{"mapbox secret token", "mapbox token", func(r *rand.Rand) string {
		return "sk.eyJ1IjoiZXhhbXBsZSIsImEiOiI" + rnd(r, alAlnum, 20) + "." + rnd(r, alURL, 22)
	}},
	{"1password service token", "1password token", func(r *rand.Rand) string { return "ops_eyJ" + rnd(r, alURL, 200) }},
	{"age secret key", "age secret key", lit("AGE-SECRET-KEY-1", alBech, 58)},
	{"jwt", "jwt", func(r *rand.Rand) string {
		h := rawURL([]byte(`{"alg":"HS256","typ":"JWT"}`))
		p := rawURL([]byte(fmt.Sprintf(`{"sub":"%d","name":"user %s","iat":%d}`, r.IntN(1e9), pick(r, alLower, 6), 1700000000+r.IntN(1e7))))
		return h + "." + p + "." + rnd(r, alURL, 43)
	}},
	{"pem rsa private key", "private key", pem("RSA PRIVATE KEY")},
	{"pem ec private key", "private key", pem("EC PRIVATE KEY")},
	{"pem pkcs8 private key", "private key", pem("PRIVATE KEY")},
	{"pem encrypted private key", "private key", pem("ENCRYPTED PRIVATE KEY")},
	{"pem openssh private key", "private key", pem("OPENSSH PRIVATE KEY")},
	{"pem dsa private key", "private key", pem("DSA PRIVATE KEY")},
	{"pgp private key block", "private key", pem("PGP PRIVATE KEY BLOCK")},
	{"url password", "url password", func(r *rand.Rand) string {
		return "postgres://app:" + rnd(r, alAlnum+"!*", 16) + "@db.internal:5432/app"
	}},
	{"bearer header", "bearer token", func(r *rand.Rand) string { return "Authorization: Bearer " + rnd(r, alURL+".", 40) }},
	{"bearer in prose", "bearer token", func(r *rand.Rand) string { return "retrying with bearer " + rnd(r, alAlnum, 32) }},
	{"basic header", "basic credentials", func(r *rand.Rand) string {
		return "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("admin:"+rnd(r, alAlnum, 14)))
	}},
	{"password key value", "password", func(r *rand.Rand) string { return "DB_PASSWORD=" + rnd(r, alAlnum+"!#%", 14) }},
	{"api key header", "api key", func(r *rand.Rand) string { return "X-Api-Key: " + rnd(r, alAlnum, 32) }},
	{"secret in json", "secret", func(r *rand.Rand) string { return `{"client_secret": "` + rnd(r, alAlnum, 24) + `"}` }},
	{"token in yaml", "token", func(r *rand.Rand) string { return "auth_token: " + rnd(r, alAlnum, 30) }},
	{"mistral key by name", "api key", func(r *rand.Rand) string { return "MISTRAL_API_KEY=" + rnd(r, alAlnum, 32) }},
	{"cohere key by name", "api key", func(r *rand.Rand) string { return "CO_API_KEY=" + rnd(r, alAlnum, 40) }},
	{"azure openai key by header", "api key", func(r *rand.Rand) string { return "api-key: " + rnd(r, alHexL, 32) }},
	{"azure storage account key", "secret", func(r *rand.Rand) string {
		return "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + rnd(r, alB64, 86) + "==;EndpointSuffix=core.windows.net"
	}},
}

// pem makes a private-key block with a random body.
func pem(label string) func(r *rand.Rand) string {
	return func(r *rand.Rand) string {
		var b strings.Builder
		b.WriteString("-----BEGIN " + label + "-----\n")
		for range 6 {
			b.WriteString(rnd(r, alB64, 64) + "\n")
		}
		b.WriteString(rnd(r, alB64, 20) + "==\n-----END " + label + "-----")
		return b.String()
	}
}

// A Sample is one generated credential in the shape a plugin writes it.
type Sample struct {
	Format Format
	Text   string // what a plugin writes
	// Secret is the part that must not survive; for key formats the value.
	Secret string
}

// Positive returns perFormat samples of every format, from a fixed seed:
// every call (in a test, or in a test plugin's process) gives the same.
func Positive(perFormat int) []Sample {
	r := rand.New(rand.NewPCG(15, 2026))
	var out []Sample
	for _, f := range Formats {
		for range perFormat {
			text := f.Gen(r)
			out = append(out, Sample{f, text, secretOf(text)})
		}
	}
	return out
}

// secretOf cuts the credential out of a sample: the value after a key, a
// header or a URL user, or the whole sample.
func secretOf(text string) string {
	switch {
	case strings.HasPrefix(text, "-----BEGIN"):
		return text[strings.IndexByte(text, '\n')+1 : strings.LastIndexByte(text, '\n')]
	case strings.HasPrefix(text, "postgres://"):
		return text[strings.IndexByte(text[11:], ':')+12 : strings.LastIndexByte(text, '@')]
	case strings.HasPrefix(text, "DefaultEndpointsProtocol"):
		v := text[strings.Index(text, "AccountKey=")+11:]
		return v[:strings.IndexByte(v, ';')]
	case strings.HasPrefix(text, "https://"):
		if i := strings.Index(text, "sig="); i >= 0 {
			return text[i+4:]
		}
		return text[strings.LastIndexByte(text, '/')+1:]
	case strings.HasPrefix(text, "{"):
		v := strings.TrimSuffix(text, `"}`)
		return v[strings.LastIndexByte(v, '"')+1:]
	}
	if i := strings.LastIndexAny(text, " =:"); i >= 0 && !strings.HasPrefix(text, "AAAA") && !isDigits(text[:i]) {
		return text[i+1:]
	}
	return text
}

// vendorPrefix is the literal start of a token: up to its last '_', '-'
// or '.' among the first 24 bytes, as long as no digit comes before it.
func vendorPrefix(s string) string {
	end := 0
	for i := 0; i < len(s) && i < 24; i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9' && i > 0:
			return s[:end]
		case c == '_' || c == '-' || c == '.':
			end = i + 1
		}
	}
	return s[:end]
}

func isDigits(s string) bool { return s != "" && strings.Trim(s, alDigit) == "" }

// Contexts are the lines a plugin writes a credential in (a format verb
// for the sample; the JSON one takes the sample as a JSON string).
var Contexts = []string{
	"%s",
	"error: request failed with %s (status 401)",
	`{"level":"error","msg":%s}`, // the sample as a JSON string
	"  at config line 3: %s\n  at loader.go:42",
	"stderr: %s\nprocess exited with status 1",
	"(%s)",
}

// Leaks reports a piece of secret found in out: any 8 bytes of it count,
// except those of its vendor prefix and the last 4 a mask may show.
func Leaks(out, secret string) string {
	const w = 8
	if strings.Contains(out, secret) {
		return secret
	}
	for i := len(vendorPrefix(secret)); i+w <= len(secret)-4; i++ {
		if p := secret[i : i+w]; strings.Contains(out, p) && !strings.Contains(p, "\n") {
			return p
		}
	}
	return ""
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

//go:embed testdata/negative.txt
var negative string

// Negative returns the negative corpus: one case per line of
// testdata/negative.txt, blank lines and '#' comments skipped.
func Negative() []string {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(negative))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if l := sc.Text(); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	return lines
}
