package redact

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// Test secrets. They are built from pieces so the source itself does not
// trip secret scanners.
var (
	ghToken  = "gh" + "p_" + "R2d2C3po4Bb8Kx9Yz0Wq1Lm5Nn6Tt7Uu8Vv9"
	ghoToken = "gh" + "o_" + "16C7e42F292c6912E7710c838347Ae178B4a"
	ghPAT    = "github" + "_pat_" + "11ABCDEFG0abcdefghijkl_mnopqrstuvwxyz0123456789ABCD"
	slackBot = "xox" + "b-" + "1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
	awsID    = "AKIA" + "IOSFODNN7EXAMPLE"
	awsSTS   = "ASIA" + "Y34FZKBOKMUTVV7A"
	openAI   = "sk-" + "proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
	claude   = "sk-" + "ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123"
	restrict = "rk-" + "live51HabcdEFGHijklMNOP"
	jwt      = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." +
		"eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0." +
		"SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)

func TestString(t *testing.T) {
	tests := []struct{ name, in, want string }{
		// 1. secret-looking keys, env style
		{"env api key", "OPENAI_API_KEY=abcdefghijklmnopqrstuvwxyz0123", "OPENAI_API_KEY=[redacted: api key …0123]"},
		{"env sk key", "OPENAI_API_KEY=" + openAI, "OPENAI_API_KEY=[redacted: openai key …Xy4z]"},
		{"env short secret", "SECRET=hunter2 next", "SECRET=[redacted: secret] next"},
		{"env quoted", `export DB_PASSWORD="hunter2 with spaces"`, `export DB_PASSWORD="[redacted: password]"`},
		{"env single quoted", `PASSWD='correct horse battery'`, "PASSWD='[redacted: password …tery]'"},
		{"env _PWD", "MYSQL_PWD=s3cr3tpassw0rd!", "MYSQL_PWD=[redacted: password]"},
		{"env access key", "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "AWS_SECRET_ACCESS_KEY=[redacted: secret …EKEY]"},
		{"env private key", "privateKey=0x4c0883a69102937d6231471b5dbb6204fe512961708279", "privateKey=[redacted: secret …8279]"},
		{"env trailing comma", "token=abc123def456ghi, user=bob", "token=[redacted: token], user=bob"},
		{"ini blanks", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = [redacted: secret …EKEY]"},
		{"query param", "GET /v1/x?api_key=abcdef0123456789&page=2", "GET /v1/x?api_key=[redacted: api key]&page=2"},
		// 1. YAML / header style
		{"yaml", "  api_key: 9f8e7d6c5b4a39281706f5e4d3c2b1a0", "  api_key: [redacted: api key …b1a0]"},
		{"header api key", "X-Api-Key: AbCdEf0123456789", "X-Api-Key: [redacted: api key]"},
		{"header -PWD", "X-Db-Pwd: correcthorse", "X-Db-Pwd: [redacted: password]"},
		{"yaml words stop at next pair", "client_secret: abc def ghij user=bob", "client_secret: abc def ghij user=bob"},
		// 1. JSON
		{"json", `{"accessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "region": "us-east-1"}`,
			`{"accessKey": "[redacted: secret …EKEY]", "region": "us-east-1"}`},
		{"json case", `{"Client_Secret":"abc","n":1}`, `{"Client_Secret":"[redacted: secret]","n":1}`},
		{"json escapes", `{"password":"p\"w\\d\u00e9xxxxxxxxxxxxxxx"}`, `{"password":"[redacted: password]"}`},
		{"json nested object untouched", `{"token":{"a":1},"secret":null,"tokens":[1,2]}`, `{"token":{"a":1},"secret":null,"tokens":[1,2]}`},
		{"json in json", `{"log":"{\"password\":\"hunter2hunter2\"}"}`, `{"log":"{\"password\":\"[redacted: password]\"}"}`},
		// 2. Authorization headers
		{"auth bearer", "Authorization: Bearer abcdef0123456789abcdef", "Authorization: Bearer [redacted: bearer token …cdef]"},
		{"auth bearer short", "Authorization: Bearer abc123", "Authorization: Bearer [redacted: bearer token]"},
		{"proxy auth basic", "Proxy-Authorization: Basic dXNlcjpwYXNzd29yZA==", "Proxy-Authorization: Basic [redacted: basic credentials …ZA==]"},
		{"auth token scheme", "authorization: token 0123456789abcdef0123", "authorization: token [redacted: credentials …0123]"},
		{"auth bot", "Authorization: Bot MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs", "Authorization: Bot [redacted: discord token …kKWs]"},
		{"auth apikey", "Authorization: ApiKey s3cr3t", "Authorization: ApiKey [redacted: credentials]"},
		{"auth negotiate", "WWW-Authorization: Negotiate YIIJvwYGKwYBBQUCoIIJszCCCa", "WWW-Authorization: Negotiate [redacted: credentials …CCCa]"},
		{"auth ntlm", "Authorization: NTLM TlRMTVNTUAABAAAAB4IIAAAAAAAAAAAAAAAAAAAAAAA=", "Authorization: NTLM [redacted: credentials …AAA=]"},
		{"auth digest", `Authorization: Digest username="Mufasa", realm="x@y.com", response="6629fae49393a05397450978507c4ef1"`,
			"Authorization: Digest [redacted: credentials]"},
		{"auth no scheme", "Authorization: 0123456789abcdef", "Authorization: [redacted: credentials]"},
		{"auth json", `{"Authorization": "Bearer xyz"}`, `{"Authorization": "Bearer [redacted: bearer token]"}`},
		// 3. cookies
		{"cookie", "Cookie: session=abc123def456ghi789; theme=dark", "Cookie: [redacted: cookie …dark]"},
		{"set-cookie", "Set-Cookie: id=a3fWa; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Secure\nnext line", "Set-Cookie: [redacted: cookie …cure]\nnext line"},
		{"cookie json", `{"cookie":"sid=0123456789abcdef"}`, `{"cookie":"[redacted: cookie …cdef]"}`},
		// 4. Bearer anywhere
		{"bearer prose", "retrying with Bearer AbCdEfGhIjKlMnOpQrSt now", "retrying with Bearer [redacted: bearer token …QrSt] now"},
		{"bearer curl", `curl -H "Authorization: bearer abcdefghijklmnop1234" x`, `curl -H "Authorization: bearer [redacted: bearer token …1234]" x`},
		// 5. sk-/rk-
		{"openai", "key is " + openAI + ".", "key is [redacted: openai key …Xy4z]."},
		{"anthropic", "use " + claude, "use [redacted: anthropic key …0123]"},
		{"restricted", "(" + restrict + ")", "([redacted: api key …MNOP])"},
		{"sk after word and dash", "task-" + openAI, "task-[redacted: openai key …Xy4z]"},
		// 6. GitHub
		{"ghp", "token " + ghToken + " ok", "token [redacted: github token …8Vv9] ok"},
		{"gho glued", "x" + ghoToken, "x[redacted: github token …8B4a]"},
		{"github pat", "GH=" + ghPAT, "GH=[redacted: github token …ABCD]"},
		{"git url", "git clone https://" + ghToken + "@github.com/o/r", "git clone https://[redacted: github token …8Vv9]@github.com/o/r"},
		// 7. Slack
		{"slack", "slack " + slackBot, "slack [redacted: slack token …UvWx]"},
		// 8. AWS
		{"aws id", "id " + awsID + " in us-east-1", "id [redacted: aws access key …MPLE] in us-east-1"},
		{"aws sts", awsSTS, "[redacted: aws access key …VV7A]"},
		{"aws ini", "aws_access_key_id = " + awsID, "aws_access_key_id = [redacted: aws access key …MPLE]"},
		// 9. JWT
		{"jwt", "got " + jwt + " back", "got [redacted: jwt …sw5c] back"},
		// 10. URL userinfo
		{"url password", "postgres://admin:hunter2@db.internal:5432/app", "postgres://admin:[redacted: url password]@db.internal:5432/app"},
		{"url long password", "https://bob:correcthorsebattery@example.com/", "https://bob:[redacted: url password]@example.com/"},
		{"url password with @", "redis://u:p@ss@w0rd@cache:6379", "redis://u:[redacted: url password]@cache:6379"},
		{"url lone token", "https://0a1b2c3d4e5f6a7b8c9d@example.com", "https://[redacted: url credential …8c9d]@example.com"},
		// near-misses: unchanged
		{"PWD", "PWD=/home/x", "PWD=/home/x"},
		{"OLDPWD", "OLDPWD=/home/y", "OLDPWD=/home/y"},
		{"pwd yaml", "pwd: /home/x", "pwd: /home/x"},
		{"git sha", "commit 3f786850e387550fdab836ed7e6dc881de23001b", "commit 3f786850e387550fdab836ed7e6dc881de23001b"},
		{"token prose", "the token count is 12", "the token count is 12"},
		{"sk short", "use sk-1 for now", "use sk-1 for now"},
		{"task word", "see task-runner-configuration-file", "see task-runner-configuration-file"},
		{"usage yaml", "promptTokens: 42", "promptTokens: 42"},
		{"usage line", "usage: prompt_tokens: 42 completion_tokens: 7, total_tokens: 49", "usage: prompt_tokens: 42 completion_tokens: 7, total_tokens: 49"},
		{"usage json", `{"promptTokens": 42, "totalTokens": 42}`, `{"promptTokens": 42, "totalTokens": 42}`},
		{"max tokens", "max_tokens=4096", "max_tokens=4096"},
		{"bool", "require_token: true", "require_token: true"},
		{"go code", "token := os.Getenv(\"TOKEN\")\nif token == \"\" {", "token := os.Getenv(\"TOKEN\")\nif token == \"\" {"},
		{"py code", "token = self.token", "token = self.token"},
		{"env reference", "GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}", "GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}"},
		{"url no password", "see https://example.com:8080/path and ssh://git@github.com/o/r", "see https://example.com:8080/path and ssh://git@github.com/o/r"},
		{"bearer short prose", "Bearer tokens expire", "Bearer tokens expire"},
		{"monkey key", "the monkey key is at home", "the monkey key is at home"},
		{"clean", "render finished in 12ms", "render finished in 12ms"},
		{"json closing quote is no value", `{"msg": "set token: ", "value": "abc"}`, `{"msg": "set token: ", "value": "abc"}`},
		{"json header in string", `{"a":"Cookie: x=", "b":"y"}`, `{"a":"Cookie: [redacted: cookie]", "b":"y"}`},
		{"glued tokens", ghToken + ghToken, "[redacted: github token …8Vv9]"},
		// over-redaction the issue found
		{"prose after a key", "error: token: path escapes the workspace root", "error: token: path escapes the workspace root"},
		{"key that is a file name", "read ~/.config/app/api_key: path escapes the workspace root", "read ~/.config/app/api_key: path escapes the workspace root"},
		{"text after bearer survives", "Authorization: Bearer abcdefghijklmnopqrstuv (process signal: killed)",
			"Authorization: Bearer [redacted: bearer token …stuv] (process signal: killed)"},
		{"short password shows nothing", "password=hunter2hunter2hu", "password=[redacted: password]"},
		// joined text
		{"token wrapped over two lines", "key: sk_live_4eC39HqLyjWDarj\ntsT1zdp7dcABCDEFGH\nnext", "key: [redacted: stripe key …EFGH]\nnext"},
		{"fixed-length token wrapped", "id AKIAIOSF\r\nODNN7EXAMPLE\r\nok", "id [redacted: aws access key …MPLE]\r\nok"},
		{"a word after a token is not its rest", "token " + ghToken + "\nERROR\n", "token [redacted: github token …8Vv9]\nERROR\n"},
		{"pem block", "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7\nZm9vYmFy\n-----END RSA PRIVATE KEY-----\ndone",
			"key:\n[redacted: private key]\ndone"},
		{"pem cut at the end", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nQyNTUxOQAAACDx", "[redacted: private key]"},
		{"pem cut at the start", "QyNTUxOQAAACDx\nb3BlbnNzaC1rZXkt\n-----END PRIVATE KEY-----\nexit 1", "[redacted: private key]\nexit 1"},
		{"public key stays", "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYI\n-----END PUBLIC KEY-----", "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYI\n-----END PUBLIC KEY-----"},
		{"aws secret after secret", "secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "secret [redacted: aws secret key …EKEY]"},
		{"aws pair in csv", awsID + ",wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "[redacted: aws access key …MPLE],[redacted: aws secret key …EKEY]"},
		{"basic anywhere", "curl -H 'authorization: basic dXNlcjpwYXNzd29yZA==' x", "curl -H 'authorization: basic [redacted: basic credentials …ZA==]' x"},
		{"already masked", "TOKEN=abcd…wxyz and sk-pro…wxyz and [redacted]", "TOKEN=[redacted: token] and sk-pro…wxyz and [redacted]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := String(tt.in)
			if got != tt.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if again := String(got); again != got {
				t.Errorf("not idempotent: %q -> %q", got, again)
			}
			if b := Bytes([]byte(tt.in)); string(b) != got {
				t.Errorf("Bytes = %q, String = %q", b, got)
			}
			if json.Valid([]byte(tt.in)) && !json.Valid([]byte(got)) {
				t.Errorf("valid JSON became invalid: %q", got)
			}
		})
	}
}

func TestIdempotent(t *testing.T) {
	inputs := []string{
		"TOKEN=" + ghToken, "password: a b c d e f g h", "token: abcdefgh ijklmnop x=1",
		"Authorization: Bearer " + jwt + " extra", "Cookie: " + slackBot, "TOKEN=abc)", "TOKEN=[redacted])",
		"PASSWORD=xghp_" + ghToken[4:], `"secret": "abc ` + ghToken + ` def"`, "token: Bearer abcdefghijklmnopqrstuvwxyz",
		"TOKEN=Bearer abcdefghijklmnopqrstuvwxyz", "https://x:" + ghToken + "@github.com", "token: a: bcdefghijklmnop",
		`Authorization: Digest a="bcdefghijklmnop"`, "SECRET=\xe2\x80abcdefghijklmnop\xff", `password="unterminated value here`,
		"secret: é€日本語のパスワードです", "x=" + awsID + awsID,
	}
	for _, in := range inputs {
		once := String(in)
		if twice := String(once); twice != once {
			t.Errorf("String(%q) = %q, but String of that = %q", in, once, twice)
		}
	}
}

// TestLargeInputs guards against quadratic behaviour on pathological input.
func TestLargeInputs(t *testing.T) {
	for _, unit := range []string{"task-", "AKIA", "eyJabcdefghijk.", "token: a ", "://a:@", `token: "`, ghToken, "Cookie: a=\"b\" ",
		"-----END PRIVATE KEY-----\n", "-----BEGIN PRIVATE KEY-----\n", "QUFB\n", "Bearer ", "Basic dXNlcjpwYXNz ", "1234567:",
		"pat", "dapi", "MT", "Q~", "sig=", "a\nb", "secret ", "[redacted", "[redacted: token]", "xghp_", "x_", "a-",
		"TOKEN=a\n", "sk-aaaaaaaaaaaaaaaaaaaaaaaa\n", "Authorization: ", "AAAA", "u0026sig=", "aaa1Q~", "password=\"", "a=b "} {
		s := strings.Repeat(unit, 1<<18/len(unit))
		start := time.Now()
		String(s)
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%q x %d took %v", unit, len(s)/len(unit), d)
		}
	}
}

func TestMask(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "[redacted: secret]"},
		{"hunter2", "[redacted: secret]"},
		{"abcdefghijklmnopqrs", "[redacted: secret]"},        // 19: nothing shown
		{"abcdefghijklmnopqrst", "[redacted: secret …qrst]"}, // 20: the last 4
		{"abcdefghijklmnopq\"rs", "[redacted: secret]"},      // never part of an escape
		{"日本語のパスワードです長い日本語のパスワード", "[redacted: secret]"},     // not token characters
		{"[redacted: secret …qrst]", "[redacted: secret …qrst]"},
	}
	for _, tt := range tests {
		if got := Mask(tt.in); got != tt.want {
			t.Errorf("Mask(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := Mask(Mask(tt.in)); got != Mask(tt.in) {
			t.Errorf("Mask not idempotent on %q: %q", tt.in, got)
		}
	}
}

func TestMap(t *testing.T) {
	in := map[string]string{
		"GITHUB_TOKEN":  ghToken,
		"DB_PASSWORD":   "hunter2",
		"PWD":           "/home/x",
		"Authorization": "Bearer abcdefghijklmnopqrstuvwxyz",
		"NOTE":          "uses " + openAI,
		"MAX_TOKENS":    "4096",
		"HOME":          "/home/x",
	}
	want := map[string]string{
		"GITHUB_TOKEN":  "[redacted: github token …8Vv9]",
		"DB_PASSWORD":   "[redacted: password]",
		"PWD":           "/home/x",
		"Authorization": "Bearer [redacted: bearer token …wxyz]",
		"NOTE":          "uses [redacted: openai key …Xy4z]",
		"MAX_TOKENS":    "4096",
		"HOME":          "/home/x",
	}
	got := Map(in)
	for k, w := range want {
		if got[k] != w {
			t.Errorf("Map[%q] = %q, want %q", k, got[k], w)
		}
	}
	if len(got) != len(in) || in["DB_PASSWORD"] != "hunter2" {
		t.Errorf("Map must return a full copy and leave its input alone")
	}
	if Map(nil) != nil {
		t.Errorf("Map(nil) != nil")
	}
}

type urlish struct{ s string }

func (u urlish) String() string { return u.s }

type nilErr struct{ msg *string }

func (e *nilErr) Error() string { return *e.msg }

func TestReplaceAttr(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{ReplaceAttr: ReplaceAttr}))
	log.Info("calling api with "+ghToken,
		slog.String("api_key", "abcdef0123456789"),
		slog.String("note", "Authorization: Bearer "+jwt),
		slog.Any("err", errors.New("401 for "+slackBot)),
		slog.Any("url", urlish{"https://u:hunter2hunter2@example.com"}),
		slog.Any("broken", error((*nilErr)(nil))),
		slog.Group("db", slog.String("password", "hunter2hunter2"), slog.Int("port", 5432)),
		slog.Int("promptTokens", 42),
		slog.String("max_tokens", "4096"),
	)
	out := buf.String()
	for _, secret := range []string{ghToken, "abcdef0123456789", jwt, slackBot, "hunter2hunter2"} {
		if strings.Contains(out, secret) {
			t.Errorf("secret %q leaked: %s", secret, out)
		}
	}
	if !json.Valid(buf.Bytes()) {
		t.Fatalf("invalid JSON: %s", out)
	}
	var rec map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
		t.Fatal(err)
	}
	checks := map[string]any{
		"msg": "calling api with [redacted: github token …8Vv9]", "api_key": "[redacted: api key]", "promptTokens": 42.0,
		"max_tokens": "4096", "url": "https://u:[redacted: url password]@example.com", "level": "INFO",
	}
	for k, want := range checks {
		if rec[k] != want {
			t.Errorf("%s = %#v, want %#v", k, rec[k], want)
		}
	}
	if db, _ := rec["db"].(map[string]any); db["password"] != "[redacted: password]" || db["port"] != 5432.0 {
		t.Errorf("db group = %#v", rec["db"])
	}
}

func TestAttrGroup(t *testing.T) {
	a := Attr(slog.Group("g", slog.String("token", "abcdefghijklmnopq"), slog.Bool("ok", true)))
	if got := a.Value.Group()[0].Value.String(); got != "[redacted: token]" {
		t.Errorf("group member = %q", got)
	}
	if b := a.Value.Group()[1].Value; b.Kind() != slog.KindBool || !b.Bool() {
		t.Errorf("bool member changed: %v", b)
	}
}

var cleanText = strings.Repeat("level=info msg=\"render finished\" plugin=weather items=3 duration=12ms "+
	"city=Lisbon units=metric cached=false. ", 12)[:1024]

func BenchmarkStringClean(b *testing.B) {
	if String(cleanText) != cleanText {
		b.Fatal("benchmark text needs redaction")
	}
	b.SetBytes(int64(len(cleanText)))
	b.ReportAllocs()
	for b.Loop() {
		String(cleanText)
	}
}

func BenchmarkStringSecrets(b *testing.B) {
	text := cleanText[:512] + " OPENAI_API_KEY=" + openAI + " Authorization: Bearer " + jwt +
		"\nurl=https://u:hunter2@db/x token: " + ghToken + " " + cleanText[:256]
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		String(text)
	}
}

// Lines shows a line-by-line stream with no half of a wrapped token and no
// line of a key block, and every ordinary line once, in order.
func TestLines(t *testing.T) {
	stripe := "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc4eC39HqLyjWDarjtT1zdp7dc"
	in := []string{"starting", stripe[:20], stripe[20:], "loading key", "-----BEGIN RSA PRIVATE KEY-----",
		"MIIEpAIBAAKCAQEA7bq98lq+Zt", "Zm9vYmFyYmF6cXV4", "-----END RSA PRIVATE KEY-----", "ready"}
	var l Lines
	var out []string
	for _, line := range in {
		out = append(out, l.Push(line)...)
	}
	out = append(out, l.Flush()...)
	got := strings.Join(out, "\n")
	for _, leak := range []string{stripe[:20], stripe[20:], "MIIEpAIBAAKCAQEA7bq98lq", "Zm9vYmFy"} {
		if strings.Contains(got, leak) {
			t.Fatalf("%q shown:\n%s", leak, got)
		}
	}
	for _, want := range []string{"starting", "[redacted: stripe key", "loading key", "[redacted: private key]", "ready"} {
		if strings.Count(got, want) < 1 {
			t.Fatalf("%q not shown:\n%s", want, got)
		}
	}
	if strings.Count(got, "starting") != 1 || strings.Count(got, "ready") != 1 || strings.Count(got, "loading key") != 1 {
		t.Fatalf("a line shown twice:\n%s", got)
	}
}

// A BEGIN line with no END masks its whole line and the body lines after
// it, and keeps the line break before what follows.
func TestPEMWithoutEnd(t *testing.T) {
	tests := []struct{ in, want string }{
		{"-----BEGIN PRIVATE KEY KzO4n87Bt4x4nN.atlasv1.x\nnext", "[redacted: private key]\nnext"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7bq98lq\nZm9vYmFy\r\nexit 1", "[redacted: private key]\r\nexit 1"},
	}
	for _, tt := range tests {
		if got := String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Exact values: a registered value is masked wherever it appears, by the
// name it was registered under; ordinary words a manifest sets are not
// registered, so a plugin cannot blank out what the user reads.
func TestRegisterEnv(t *testing.T) {
	const odd = "Zx81-qq.Lp3w" // no vendor shape
	RegisterEnv(map[string]string{"APP_SECRET": odd, "X_TOKEN": "approved", "LOG_LEVEL": "debug",
		"DATA": "/srv/app/data", "MODE": "production"})
	if got := String("using " + odd + "."); got != "using [redacted: value of APP_SECRET]." {
		t.Fatalf("exact value: %q", got)
	}
	for _, s := range []string{"approved by the user", "debug output", "/srv/app/data", "production build"} {
		if got := String(s); got != s {
			t.Errorf("ordinary value masked: %q -> %q", s, got)
		}
	}
	RegisterEnviron([]string{"MY_API_KEY=plainlettersonly", "HOME=/root", "GH_TOKEN=/path/to/file", "EMPTY_TOKEN=",
		"DB_PASSWORD=purple monkey dishwasher"}) // not TestString's value: the registry outlives a run (-count)
	if got := String("PASSWORD=purple monkey dishwasher staple"); got != "PASSWORD=[redacted: value of DB_PASSWORD …sher] staple" {
		t.Fatalf("a value with blanks after a key: %q", got)
	}
	if got := String("key plainlettersonly here"); got != "key [redacted: value of MY_API_KEY] here" {
		t.Fatalf("host env value: %q", got)
	}
}

// A 40-byte base64 run is an AWS secret only after a key id (or the word
// secret): at the start of a text it is not.
func TestAWSSecretNeedsItsKeyID(t *testing.T) {
	const run = "00000000000000000000aA000000000000000000"
	for _, s := range []string{"=" + run, run} {
		if got := String(s); got != s {
			t.Errorf("String(%q) = %q", s, got)
		}
	}
	if got := String(awsID + "=" + run); got != "[redacted: aws access key …MPLE]=[redacted: aws secret key …0000]" {
		t.Errorf("after a key id: %q", got)
	}
}
