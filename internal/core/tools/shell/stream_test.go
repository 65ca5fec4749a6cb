package shell

import (
	"encoding/base64"
	"strings"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf16"
)

// The reporter is called at once on the first output, then at most every
// interval however much is written, and once more at the end with all of it.
func TestStreamerThrottles(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		type report struct {
			at   time.Time
			tail string
		}
		var got []report
		start := time.Now()
		s := newStreamer(func(tail string) { got = append(got, report{time.Now(), tail}) }, StreamEvery)
		for i := range 50 { // 50 writes 10 ms apart: 490 ms of output
			_, _ = s.Write([]byte{byte('a' + i%26)})
			synctest.Wait()
			time.Sleep(10 * time.Millisecond)
		}
		s.finish()
		if len(got) < 3 || len(got) > 7 {
			t.Fatalf("%d reports for 490 ms of output: %v", len(got), got)
		}
		if !got[0].at.Equal(start) || got[0].tail != "a" {
			t.Fatalf("first report %v, want at once with %q", got[0], "a")
		}
		for i := 1; i < len(got)-1; i++ {
			if gap := got[i].at.Sub(got[i-1].at); gap < StreamEvery {
				t.Fatalf("reports %d and %d %s apart", i-1, i, gap)
			}
		}
		if last := got[len(got)-1].tail; len(last) != 50 || !strings.HasSuffix(last, "uvwx") {
			t.Fatalf("last report %q", last)
		}
	})
}

// With no output there is only the final report.
func TestStreamerSilentCommand(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := 0
		s := newStreamer(func(string) { n++ }, StreamEvery)
		time.Sleep(time.Second)
		s.finish()
		if n != 1 {
			t.Fatalf("%d reports", n)
		}
	})
}

// The streamed tail is at most StreamTail bytes, starting on a whole line.
func TestStreamerKeepsATail(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var last string
		s := newStreamer(func(tail string) { last = tail }, StreamEvery)
		for i := range 3000 {
			_, _ = s.Write([]byte(strings.Repeat("x", 10) + string(rune('0'+i%10)) + "\n"))
		}
		s.finish()
		if len(last) > StreamTail || len(last) < StreamTail-100 || !strings.HasSuffix(last, "9\n") || last[0] != 'x' {
			t.Fatalf("%d bytes, starts %q", len(last), last[:20])
		}
	})
}

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"plain\n":                              "plain\n",
		"\x1b[1;31mred\x1b[0m text":            "red text",
		"\x1b]0;title\x07after":                "after",
		"\x1b]8;;http://x\x1b\\link":           "link",
		"10%\r50%\r100%\ndone":                 "100%\ndone",
		"crlf\r\nline\r\n":                     "crlf\nline\n",
		"a\x1b(Bb":                             "ab",
		"keep\tthe tab":                        "keep\tthe tab",
		"unterminated \x1b[31":                 "unterminated ",
		"first\nprogress 1\rprogress 2\rfinal": "first\nfinal",
	} {
		if got := clean(in); got != want {
			t.Errorf("clean(%q) = %q, want %q", in, got, want)
		}
	}
	// What clean leaves that a terminal would obey is escaped by termsafe.
	synctest.Test(t, func(t *testing.T) {
		var last string
		s := newStreamer(func(tail string) { last = tail }, StreamEvery)
		_, _ = s.Write([]byte("bell\x07 \u202eevil\n"))
		s.finish()
		if last != `bell\x07 <U+202E>evil`+"\n" {
			t.Fatalf("%q", last)
		}
	})
}

func TestCaptureKeepsHeadAndTail(t *testing.T) {
	c := newCapture(10)
	_, _ = c.Write([]byte("abc"))
	if c.String() != "abc" {
		t.Fatal(c.String())
	}
	_, _ = c.Write([]byte("defghij"))
	if c.String() != "abcdefghij" {
		t.Fatal(c.String())
	}
	_, _ = c.Write([]byte("klmno"))
	if got := c.String(); got != "abcde\n[output truncated: 5 bytes cut from the middle]\nklmno" {
		t.Fatalf("%q", got)
	}
}

func TestRingSince(t *testing.T) {
	r := ring{size: 4}
	r.write([]byte("ab"))
	if kept, lost := r.since(0); string(kept) != "ab" || lost != 0 {
		t.Fatal(string(kept), lost)
	}
	r.write([]byte("cdef"))
	if kept, lost := r.since(1); string(kept) != "cdef" || lost != 1 {
		t.Fatal(string(kept), lost)
	}
	if kept, lost := r.since(5); string(kept) != "f" || lost != 0 {
		t.Fatal(string(kept), lost)
	}
	r.write([]byte("0123456789"))
	if kept, lost := r.since(6); string(kept) != "6789" || lost != 6 || r.total != 16 {
		t.Fatal(string(kept), lost)
	}
}

// PowerShell gets its script with the UTF-8 prologue and the exit status
// kept, as -EncodedCommand when long; Windows PowerShell 5.1 refuses &&.
func TestPowerShellArguments(t *testing.T) {
	ps := shell{kind: powerShell, path: `C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`}
	args := ps.args("Get-ChildItem")
	if args[len(args)-2] != "-Command" || !strings.HasPrefix(args[len(args)-1], psPrologue) ||
		!strings.Contains(args[len(args)-1], "try{Get-ChildItem}") || !strings.HasSuffix(args[len(args)-1], "exit $LASTEXITCODE") {
		t.Fatalf("%q", args)
	}
	long := ps.args(strings.Repeat("é", psArgLimit))
	if long[len(long)-2] != "-EncodedCommand" {
		t.Fatalf("%q", long[:len(long)-1])
	}
	raw, _ := base64.StdEncoding.DecodeString(long[len(long)-1])
	units := make([]uint16, len(raw)/2)
	for i := range units {
		units[i] = uint16(raw[2*i]) | uint16(raw[2*i+1])<<8
	}
	if s := string(utf16.Decode(units)); !strings.Contains(s, strings.Repeat("é", psArgLimit)) {
		t.Fatal("the encoded command does not decode to the script")
	}
	if err := ps.check("a && b"); err == nil || !strings.Contains(err.Error(), "does not parse '&&'") {
		t.Fatalf("%v", err)
	}
	if err := ps.check(`echo "a && b"; c`); err != nil {
		t.Fatalf("quoted && refused: %v", err)
	}
	if pwsh := (shell{kind: powerShell, path: `C:\Program Files\PowerShell\7\pwsh.exe`}); pwsh.check("a && b") != nil ||
		!strings.Contains(pwsh.description(), "PowerShell 7") {
		t.Fatal("pwsh parses && and is named so")
	}
	if !strings.Contains(ps.description(), "Windows PowerShell 5.1") {
		t.Fatal(ps.description())
	}
	sh := shell{kind: posix, path: "/bin/sh"}
	if a := sh.args("ls"); len(a) != 2 || a[1] != "exec 2>&1; ls" || sh.check("a && b") != nil {
		t.Fatalf("%q", a)
	}
}
