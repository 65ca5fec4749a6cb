package headless

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// Test secrets, built from pieces so the source does not trip scanners.
var (
	stripeKey = "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc4eC39HqLyjWDarjtT1zdp7dc"
	ghToken   = "gh" + "p_" + "R2d2C3po4Bb8Kx9Yz0Wq1Lm5Nn6Tt7Uu8Vv9"
)

func run(t *testing.T, opts Options, events ...agent.Event) (stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	opts.Out, opts.Err = &out, &errb
	f := New(opts)
	for _, ev := range events {
		f.Emit(ev)
	}
	return out.String(), errb.String()
}

func text(s string) agent.Event { return agent.Event{Kind: agent.EventText, Text: s} }

var done = agent.Event{Kind: agent.EventTurnDone}

// A model (or a plugin, or a file in a tool card) that replies with OSC,
// CSI, bidi and backspace sequences gets them printed escaped.
func TestControlSequencesArePrintedEscaped(t *testing.T) {
	hostile := "\x1b]0;pwned\x07\x1b[2J\x1b[31mred\x1b[0m evil\u202Etxt.exe\b\b ok\n"
	call := &agent.ToolCall{ID: "c1", Name: "read_file", Arguments: "{\"path\":\"a\u202e.txt\"}", State: agent.ToolDone,
		Result: "line one\n\x1b[1A\x1b[2Kfake prompt $ "}
	stdout, stderr := run(t, Options{},
		text(hostile[:9]), text(hostile[9:]), // an escape split over two chunks
		agent.Event{Kind: agent.EventToolCall, Call: call},
		agent.Event{Kind: agent.EventNotice, Text: "plugin says \x1b]52;c;Y29weQ==\x07"},
		agent.Event{Kind: agent.EventTurnFailed, Error: "boom\r\x1b[K"},
		done)
	for _, s := range []string{stdout, stderr} {
		if strings.ContainsAny(s, "\x1b\x07\b\r\u202e") {
			t.Fatalf("a control reached the terminal: %q", s)
		}
	}
	for _, want := range []string{`\x1b]0;pwned\x07\x1b[2J\x1b[31mred\x1b[0m evil<U+202E>txt.exe\b\b ok`,
		`a<U+202E>.txt`, `\x1b[1A\x1b[2Kfake prompt`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, `\x1b]52;c;Y29weQ==\x07`) || !strings.Contains(stderr, `boom\r\x1b[K`) {
		t.Errorf("stderr: %q", stderr)
	}
}

// JSON mode stays JSON: the escapes are JSON's own.
func TestJSONModeIsJSON(t *testing.T) {
	stdout, _ := run(t, Options{JSON: true}, text("\x1b[2J hi \u202e"), done)
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
	}
	if strings.Contains(stdout, "\x1b") {
		t.Fatalf("raw ESC in JSON output: %q", stdout)
	}
}

// A secret split over two stream chunks (or wrapped over two lines) is
// masked whole, and ordinary text still streams word by word.
func TestSplitSecretIsMaskedWhole(t *testing.T) {
	cases := []struct {
		name   string
		chunks []string
		secret string
		keep   string
	}{
		{"token over two chunks", []string{"your key is " + stripeKey[:14], stripeKey[14:] + " — keep it safe\n"}, stripeKey, "keep it safe"},
		{"token over many chunks", strings.SplitAfter("token "+ghToken+" ok\n", "o"), ghToken, " ok"},
		{"token wrapped over two lines", []string{"key:\n" + stripeKey[:30] + "\n", stripeKey[30:] + "\nbye\n"}, stripeKey[30:], "bye"},
		{"url password before its @", []string{"postgres://admin:hunter2hunte", "r2@db.internal/app\n"}, "hunter2hunter2", "@db.internal/app"},
		{"quoted value", []string{`{"password": "correct horse `, `battery staple"}` + "\n"}, "battery staple", `{"password": "`},
		{"bearer then token", []string{"Authorization: Bearer ", "abcdefghijklmnopqrstuvwxyz012345", " (process signal: killed)\n"}, "abcdefghijklmnop", "(process signal: killed)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			events := []agent.Event{}
			for _, c := range tc.chunks {
				events = append(events, text(c))
			}
			stdout, _ := run(t, Options{}, append(events, done)...)
			if strings.Contains(stdout, tc.secret) || strings.Contains(stdout, tc.secret[:8]) && tc.name != "token wrapped over two lines" {
				t.Fatalf("secret shown: %q", stdout)
			}
			if !strings.Contains(stdout, tc.keep) || !strings.Contains(stdout, "[redacted: ") {
				t.Fatalf("output %q: want the mask and %q", stdout, tc.keep)
			}
		})
	}
}

// Plain words are printed as they arrive, not held for the newline: a
// provider that stalls mid-line still shows what it sent.
func TestPlainTextStreams(t *testing.T) {
	var out bytes.Buffer
	f := New(Options{Out: &out, Err: &out})
	for _, c := range []string{"Hel", "lo, wor", "ld: t1"} {
		f.Emit(text(c))
	}
	if got := out.String(); got != "Hello, world: t1" {
		t.Fatalf("streamed %q", got)
	}
	mi := "密"
	f.Emit(text(" — and " + mi[:2])) // a rune cut by the chunk boundary
	if got := out.String(); strings.Contains(got, `\x`) {
		t.Fatalf("a rune cut by a chunk was escaped: %q", got)
	}
	f.Emit(text(mi[2:] + "码\n"))
	f.Emit(done)
	if got := out.String(); got != "Hello, world: t1 — and 密码\n" {
		t.Fatalf("final %q", got)
	}
}

// FuzzStream: whatever the text around it and however the reply is cut
// into chunks, a planted token never reaches the terminal, nothing but
// newline and tab of the C0 controls does, and text with nothing to mask
// or escape comes out as it went in.
func FuzzStream(f *testing.F) {
	f.Add("your key is ", " — keep it\n", uint8(3), uint8(17))
	f.Add("", "", uint8(0), uint8(0))
	f.Add("Authorization: Bearer ", " (killed)\n", uint8(30), uint8(1))
	f.Add("\x1b[2J", "\u202e\n", uint8(5), uint8(9))
	f.Fuzz(func(t *testing.T, pre, post string, c1, c2 uint8) {
		reply := pre + " " + ghToken + " " + post
		a, b := int(c1)%(len(reply)+1), int(c2)%(len(reply)+1)
		if a > b {
			a, b = b, a
		}
		var out bytes.Buffer
		fe := New(Options{Out: &out, Err: &out})
		for _, chunk := range []string{reply[:a], reply[a:b], reply[b:]} {
			fe.Emit(text(chunk))
		}
		fe.Emit(done)
		got := out.String()
		if strings.Contains(got, ghToken[4:16]) && !strings.Contains(pre+post, ghToken[4:16]) {
			t.Fatalf("token shown: %q -> %q", reply, got)
		}
		for _, r := range got {
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
				t.Fatalf("control %U reached the terminal: %q", r, got)
			}
		}
	})
}

// A one-line reply far longer than the redaction window, streamed in small
// chunks, comes out as the whole line redacted at once: a token after the
// window slid is masked, prose on both sides is intact, and the line after
// a long one is redacted as usual.
//
// The prose is four windows long, so the window slides several times on
// each side of the token; 60 KB of it (thirty windows) proved nothing more
// and cost 30 s under -race in 7-byte chunks.
func TestLongLineStreamsInAWindow(t *testing.T) {
	prose := strings.Repeat("lorem ipsum dolor sit amet ", 4*windowMax/27)
	for _, tc := range []struct {
		name, reply string
		whole       bool // the output is exactly the reply redacted whole
	}{
		{"token past the window", prose + "key " + ghToken + " and " + prose + "\n", true},
		{"quoted value past the window", prose + `password: "` + ghToken + `" ` + prose + "\n", true},
		{"token on the line after a long line", prose + "\nkey " + ghToken + " after\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			f := New(Options{Out: &out, Err: &out})
			for i := 0; i < len(tc.reply); i += 7 {
				f.Emit(text(tc.reply[i:min(i+7, len(tc.reply))]))
			}
			f.Emit(done)
			got := out.String()
			if strings.Contains(got, ghToken[4:16]) {
				t.Fatal("the token was shown")
			}
			if !strings.HasPrefix(got, prose) || !strings.Contains(got, "[redacted: ") {
				t.Fatalf("output of %d bytes: want the prose and a mask, start %q", len(got), got[:80])
			}
			if want := redact.String(tc.reply); tc.whole && got != want {
				t.Fatalf("streamed output differs from the line redacted whole (%d vs %d bytes)", len(got), len(want))
			}
		})
	}
}

func BenchmarkLongLineStream(b *testing.B) {
	reply := strings.Repeat("lorem ipsum dolor sit amet ", 120_000/27) + "\n"
	for b.Loop() {
		f := New(Options{Out: io.Discard, Err: io.Discard})
		for i := 0; i < len(reply); i += 5 {
			f.Emit(text(reply[i:min(i+5, len(reply))]))
		}
		f.Emit(done)
	}
}
