package xdev

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
)

// decodeFrame takes any stdout line: it never panics, rejects what is not a
// typed JSON object with errMalformed, and what it accepts survives a
// round trip through the encoder the host uses for its own frames.
func FuzzDecodeFrame(f *testing.F) {
	for _, seed := range []string{
		`{"type":"capabilities","protocol":1,"events":["tool_call"],"tools":[{"name":"x"}]}`,
		`{"type":"response","id":3,"allow":false,"reason":"no"}`,
		`{"type":"action","action":"steer","text":"hi"}`,
		`{"type":"log","level":"warn","text":"t"}`,
		`  {"type":"x"}  `, `{}`, `[]`, `null`, `{"type":1}`, `{"type":"response","id":"1"}`, "",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		fr, err := decodeFrame(line)
		if err != nil {
			if !errors.Is(err, errMalformed) {
				t.Fatalf("error %v is not errMalformed", err)
			}
			return
		}
		if fr.Type == "" {
			t.Fatal("accepted a frame without a type")
		}
		b, err := json.Marshal(fr)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		again, err := decodeFrame(b)
		if err != nil || again.Type != fr.Type || again.ID != fr.ID {
			t.Fatalf("round trip %s: %+v, %v", b, again, err)
		}
	})
}

// ParseHooks takes any settings value: it never panics, and every hook it
// accepts is runnable as checked (argv present, an absolute path or a bare
// program name, no negative timeout).
func FuzzParseHooks(f *testing.F) {
	for _, seed := range []string{
		`{"tool_call":[{"command":["/bin/true"],"tools":["run_command"],"timeoutMillis":5000}]}`,
		`{"turn_end":[{"command":["notify-send","done"]}]}`,
		`{"tool_call":[{"command":["rel/path"]}]}`, `{"nope":[]}`, `null`, ``, `[]`, `{"tool_call":{}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		cfg, err := ParseHooks(raw)
		if err != nil {
			return
		}
		for _, list := range [][]HookSpec{cfg.ToolCall, cfg.ToolResult, cfg.SessionStart, cfg.TurnEnd} {
			for _, h := range list {
				if len(h.Command) == 0 || h.Command[0] == "" || h.TimeoutMillis < 0 {
					t.Fatalf("accepted %+v from %q", h, raw)
				}
				if p := h.Command[0]; filepath.Base(p) != p && !filepath.IsAbs(p) {
					t.Fatalf("accepted a relative program path %q", p)
				}
			}
		}
	})
}
