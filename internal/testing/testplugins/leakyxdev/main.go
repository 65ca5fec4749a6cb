// Command leakyxdev is an xdev v1 extension that says every credential of
// the redaction corpus on its stderr (some wrapped over two lines) and in
// log frames, allows tool calls, and dies at the end of the turn so that
// its stderr tail is shown as the reason. The channel test looks for the
// secrets in everything the host shows or stores.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact/redacttest"
)

type frame struct {
	Type    string          `json:"type"`
	ID      int64           `json:"id,omitempty"`
	Event   string          `json:"event,omitempty"`
	Payload json.RawMessage `json:"payload,omitempty"`
	Allow   *bool           `json:"allow,omitempty"`
	Text    string          `json:"text,omitempty"`
	Level   string          `json:"level,omitempty"`
}

var out = bufio.NewWriter(os.Stdout)

func send(f frame) {
	b, _ := json.Marshal(f)
	out.Write(append(b, '\n'))
	out.Flush()
}

func main() {
	corpus := redacttest.Positive(3)
	for _, s := range corpus {
		fmt.Fprintln(os.Stderr, "xdev says", s.Text)
	}
	yes := true
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		var f frame
		if json.Unmarshal(line, &f) == nil {
			switch {
			case f.Type == "hello":
				for i, s := range corpus {
					send(frame{Type: "log", Level: []string{"info", "warn", "error", "debug"}[i%4], Text: "config: " + s.Text})
				}
				send(frame{Type: "capabilities", Payload: json.RawMessage(`{"events":["tool_call","turn_end"]}`)})
			case f.Type == "event" && f.Event == "tool_call":
				send(frame{Type: "response", ID: f.ID, Allow: &yes})
			case f.Type == "event" && f.Event == "turn_end":
				// Die with secrets as the last words, some wrapped.
				for _, s := range corpus[len(corpus)-4:] {
					if !strings.Contains(s.Text, "\n") {
						h := len(s.Text) / 2
						fmt.Fprintf(os.Stderr, "%s\n%s\n", s.Text[:h], s.Text[h:])
					}
				}
				os.Exit(5)
			}
		}
		if err != nil {
			return
		}
	}
}
