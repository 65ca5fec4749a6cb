package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestRemovesRecursively(t *testing.T) {
	for cmd, want := range map[string]bool{
		"rm -rf /tmp/x":                 true,
		"rm -fr /tmp/x":                 true,
		"rm -r -f x":                    true,
		"rm -Rf x":                      true,
		"/bin/rm --recursive --force x": true,
		"ls && rm -rf build":            true,
		"rm -r x":                       false,
		"rm -f x":                       false,
		"ls -rf":                        false,
		"rm x; ls -rf":                  false,
		"":                              false,
	} {
		if got := RemovesRecursively(cmd); got != want {
			t.Errorf("%q: got %v, want %v", cmd, got, want)
		}
	}
}

// TestServe plays the host over in-memory pipes: hello, tool calls for
// run_command and bash, a notification, a garbage line, then EOF.
func TestServe(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"hello","protocol":1,"xdevVersion":"test"}`,
		`{"type":"event","id":1,"event":"tool_call","payload":{"tool":"run_command","arguments":{"command":"rm -rf /"},"callId":"c1"}}`,
		`not json at all`,
		`{"type":"event","id":2,"event":"tool_call","payload":{"tool":"run_command","arguments":{"command":"ls"}}}`,
		`{"type":"event","id":3,"event":"tool_call","payload":{"tool":"bash","arguments":{"command":"rm -fr ~"}}}`,
		`{"type":"event","id":4,"event":"tool_call","payload":{"tool":"write_file","arguments":{"command":"rm -rf /"}}}`,
		`{"type":"event","id":5,"event":"session_start","payload":{"sessionId":"s"}}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	if err := serve(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 6 {
		t.Fatalf("want 6 frames, got %d:\n%s", len(lines), out.String())
	}
	var caps struct {
		Type    string `json:"type"`
		Payload struct {
			Events   []string `json:"events"`
			FailOpen bool     `json:"failOpen"`
		} `json:"payload"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &caps); err != nil || caps.Type != "capabilities" ||
		strings.Join(caps.Payload.Events, ",") != "tool_call,session_start" || caps.Payload.FailOpen {
		t.Fatalf("capabilities: %s (%v)", lines[0], err)
	}
	want := []struct {
		id    int64
		allow bool
	}{{1, false}, {2, true}, {3, false}, {4, true}, {5, true}}
	for i, w := range want {
		var f frame
		if err := json.Unmarshal([]byte(lines[i+1]), &f); err != nil {
			t.Fatal(err)
		}
		if f.Type != "response" || f.ID != w.id || f.Allow == nil || *f.Allow != w.allow {
			t.Errorf("frame %d: %s", i+1, lines[i+1])
		}
		if !w.allow && f.Reason != Reason {
			t.Errorf("frame %d: reason %q", i+1, f.Reason)
		}
	}
}
