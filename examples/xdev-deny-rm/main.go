// Command xdev-deny-rm is an xdev v1 extension (a line-protocol policy
// hook, not a v2 plugin): it denies run_command calls — and bash calls, for
// hosts that name their shell tool bash — whose command removes files
// recursively and by force (rm -rf, rm -fr, rm -r -f, rm -Rf, rm --recursive
// --force). Everything else is allowed.
//
// It is fail-closed by design: it declares no failOpen, so if it cannot
// answer, the host denies the call. It answers every event it receives.
//
// Install: copy bin/xdev-deny-rm into <dataDir>/extensions/ (executable).
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// Reason is what a denied call tells the model.
const Reason = "rm -rf is disabled in this project (xdev-deny-rm)"

// frame is the v1 envelope (the fields this extension uses).
type frame struct {
	Type     string          `json:"type"`
	ID       int64           `json:"id,omitempty"`
	Protocol int             `json:"protocol,omitempty"`
	Event    string          `json:"event,omitempty"`
	Payload  json.RawMessage `json:"payload,omitempty"`
	Allow    *bool           `json:"allow,omitempty"`
	Reason   string          `json:"reason,omitempty"`
}

// capabilities: only what it handles; no failOpen — this IS a policy hook.
var capabilities = json.RawMessage(`{"events":["tool_call","session_start"]}`)

func main() {
	if err := serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "xdev-deny-rm:", err)
		os.Exit(1)
	}
}

// serve answers frames from in until it closes. A line that is not JSON is
// not a frame: it is skipped.
func serve(in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriter(out)
	send := func(f frame) error {
		b, err := json.Marshal(f)
		if err != nil {
			return err
		}
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
		return w.Flush() // one frame a line, right away
	}
	for {
		line, readErr := r.ReadBytes('\n')
		var f frame
		if len(bytes.TrimSpace(line)) > 0 && json.Unmarshal(line, &f) == nil {
			if reply, ok := answer(f); ok {
				if err := send(reply); err != nil {
					return err
				}
			}
		}
		if readErr == io.EOF {
			return nil // the host closed stdin: shut down
		}
		if readErr != nil {
			return readErr
		}
	}
}

// answer is the reply to one frame, if it needs one.
func answer(f frame) (frame, bool) {
	switch {
	case f.Type == "hello":
		if f.Protocol != 1 {
			fmt.Fprintf(os.Stderr, "xdev-deny-rm: the host speaks protocol %d; this extension speaks 1\n", f.Protocol)
		}
		return frame{Type: "capabilities", Payload: capabilities}, true
	case f.Type != "event":
		return frame{}, false
	case f.Event == "tool_call":
		if denied(f.Payload) {
			return frame{Type: "response", ID: f.ID, Allow: boolPtr(false), Reason: Reason}, true
		}
		return frame{Type: "response", ID: f.ID, Allow: boolPtr(true)}, true
	default:
		// Every event is answered, even notifications: silence is a timeout.
		return frame{Type: "response", ID: f.ID, Allow: boolPtr(true)}, true
	}
}

// denied reports whether a tool_call payload is a shell command that
// removes recursively and by force.
func denied(payload json.RawMessage) bool {
	var p struct {
		Tool      string `json:"tool"`
		Arguments struct {
			Command any `json:"command"`
		} `json:"arguments"`
	}
	if json.Unmarshal(payload, &p) != nil || (p.Tool != "run_command" && p.Tool != "bash") {
		return false
	}
	cmd, _ := p.Arguments.Command.(string)
	return RemovesRecursively(cmd)
}

// spaceOperators puts spaces around shell operators, so that "a;rm -rf"
// splits into words like "a ; rm -rf". Built once: a policy answers every
// tool call, and building a Replacer costs more than using one.
var spaceOperators = strings.NewReplacer(";", " ; ", "&", " & ", "|", " | ", "(", " ( ", ")", " ) ")

// RemovesRecursively reports whether command runs rm with both the
// recursive and the force flag (rm -rf, rm -fr, rm -r -f, rm -Rf,
// rm --recursive --force, /bin/rm ...), in any command of a ; && | chain.
func RemovesRecursively(command string) bool {
	fields := strings.Fields(spaceOperators.Replace(command))
	for i, f := range fields {
		if f != "rm" && !strings.HasSuffix(f, "/rm") {
			continue
		}
		recursive, force := false, false
	args:
		for _, arg := range fields[i+1:] {
			switch {
			case strings.ContainsAny(arg, ";&|()") || arg == "--":
				break args // the next command, or the end of rm's options
			case arg == "--recursive":
				recursive = true
			case arg == "--force":
				force = true
			case strings.HasPrefix(arg, "-") && !strings.HasPrefix(arg, "--"):
				recursive = recursive || strings.ContainsAny(arg, "rR")
				force = force || strings.Contains(arg, "f")
			}
		}
		if recursive && force {
			return true
		}
	}
	return false
}

func boolPtr(b bool) *bool { return &b }
