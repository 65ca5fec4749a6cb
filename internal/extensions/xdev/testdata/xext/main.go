// Command xext is a scriptable xdev v1 extension for the xdev tests. Its
// behaviour comes from a JSON file named by its first argument (tests start
// it through a one-line sh wrapper that execs it). Every frame it receives
// is appended to the config's log file as "<name> <event> <tool>".
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"
)

type config struct {
	Name string `json:"name"`
	// Handshake: "" answers; "silent" never answers; "exit" exits at once;
	// "garbage" prints a non-JSON line; "protocol" answers with protocol 2;
	// "nopayload" answers without a payload; "exit-after" answers, then exits.
	Handshake string          `json:"handshake"`
	Caps      json.RawMessage `json:"caps"`
	// ToolCall: "" or "allow"; "deny"; "noallow" (a response without allow);
	// "sleep"; "crash"; "garbage"; "error"; "error-failopen"; "revise";
	// "badrevise".
	ToolCall string          `json:"toolCall"`
	Reason   string          `json:"reason"`
	Revise   json.RawMessage `json:"revise"`
	// ToolResult: "" passes; "patch"; "error"; "sleep".
	ToolResult string          `json:"toolResult"`
	Patch      json.RawMessage `json:"patch"`
	// Actions are sent (as given) when session_start arrives.
	Actions []json.RawMessage `json:"actions"`
	Log     string            `json:"log"`
	// Stderr is printed on stderr at start.
	Stderr string `json:"stderr"`
}

type frame struct {
	Type     string          `json:"type"`
	ID       int64           `json:"id,omitempty"`
	Protocol int             `json:"protocol,omitempty"`
	Event    string          `json:"event,omitempty"`
	Payload  json.RawMessage `json:"payload,omitempty"`
	Allow    *bool           `json:"allow,omitempty"`
	Reason   string          `json:"reason,omitempty"`
	Revise   json.RawMessage `json:"revise,omitempty"`
	Patch    json.RawMessage `json:"patch,omitempty"`
	Error    string          `json:"error,omitempty"`
	FailOpen bool            `json:"failOpen,omitempty"`
	Action   string          `json:"action,omitempty"`
	Text     string          `json:"text,omitempty"`
	Level    string          `json:"level,omitempty"`
}

var out = bufio.NewWriter(os.Stdout)

func send(f frame) {
	b, _ := json.Marshal(f)
	out.Write(append(b, '\n'))
	out.Flush()
}

func sendRaw(raw json.RawMessage) {
	out.Write(append([]byte(strings.TrimSpace(string(raw))), '\n'))
	out.Flush()
}

func main() {
	var cfg config
	if len(os.Args) > 1 {
		b, err := os.ReadFile(os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, "xext:", err)
			os.Exit(2)
		}
		if err := json.Unmarshal(b, &cfg); err != nil {
			fmt.Fprintln(os.Stderr, "xext:", err)
			os.Exit(2)
		}
	}
	if cfg.Handshake == "exit" {
		fmt.Fprintln(os.Stderr, "xext: fatal: refusing to start")
		os.Exit(3)
	}
	if len(cfg.Caps) == 0 {
		cfg.Caps = json.RawMessage(`{"events":["tool_call","tool_result","session_start","turn_end"]}`)
	}
	fmt.Fprintln(os.Stderr, "xext: started")
	if cfg.Stderr != "" {
		fmt.Fprintln(os.Stderr, cfg.Stderr)
	}
	appendLog(&cfg, fmt.Sprintf("%s pid %d", cfg.Name, os.Getpid()))
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			var f frame
			if json.Unmarshal(line, &f) == nil {
				handle(&cfg, f)
			}
		}
		if err != nil {
			return
		}
	}
}

func record(cfg *config, f frame) {
	var p struct {
		Tool string `json:"tool"`
		Name string `json:"name"`
	}
	_ = json.Unmarshal(f.Payload, &p)
	what := f.Event
	if f.Type == "hello" {
		what = "hello"
	}
	appendLog(cfg, fmt.Sprintf("%s %s %s%s", cfg.Name, what, p.Tool, p.Name))
}

func appendLog(cfg *config, line string) {
	if cfg.Log == "" {
		return
	}
	fh, err := os.OpenFile(cfg.Log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer fh.Close()
	fmt.Fprintln(fh, line)
}

func yes() *bool { b := true; return &b }
func no() *bool  { b := false; return &b }

func handle(cfg *config, f frame) {
	record(cfg, f)
	switch {
	case f.Type == "hello":
		switch cfg.Handshake {
		case "silent":
			return
		case "garbage":
			fmt.Println("hello there, not JSON")
			return
		case "protocol":
			send(frame{Type: "capabilities", Protocol: 2, Payload: cfg.Caps})
			return
		case "nopayload":
			send(frame{Type: "capabilities"})
			return
		}
		send(frame{Type: "log", Level: "info", Text: "xext " + cfg.Name + " ready"})
		send(frame{Type: "capabilities", Payload: cfg.Caps})
		if cfg.Handshake == "exit-after" {
			os.Exit(4)
		}
	case f.Type != "event":
	case f.Event == "tool_call":
		toolCall(cfg, f)
	case f.Event == "tool_result":
		switch cfg.ToolResult {
		case "patch":
			send(frame{Type: "response", ID: f.ID, Patch: cfg.Patch})
		case "error":
			send(frame{Type: "response", ID: f.ID, Error: "cannot look at results"})
		case "sleep":
			time.Sleep(time.Hour)
		default:
			send(frame{Type: "response", ID: f.ID})
		}
	case f.Event == "session_start":
		send(frame{Type: "response", ID: f.ID, Allow: yes()})
		for _, a := range cfg.Actions {
			sendRaw(a)
		}
	case f.Event == "tool_invoke":
		var p struct {
			Tool      string          `json:"tool"`
			Arguments json.RawMessage `json:"arguments"`
			CallID    string          `json:"callId"`
		}
		_ = json.Unmarshal(f.Payload, &p)
		switch p.Tool {
		case "fail":
			send(frame{Type: "response", ID: f.ID, Error: "the tool broke"})
		case "text":
			patch, _ := json.Marshal("text:" + string(p.Arguments))
			send(frame{Type: "response", ID: f.ID, Patch: patch})
		default:
			patch, _ := json.Marshal(map[string]any{"tool": p.Tool, "arguments": p.Arguments, "callIdSet": p.CallID != ""})
			send(frame{Type: "response", ID: f.ID, Patch: patch})
		}
	case f.Event == "command":
		var p struct{ Name, Args string }
		_ = json.Unmarshal(f.Payload, &p)
		if p.Name == "fail" {
			send(frame{Type: "response", ID: f.ID, Error: "the command broke"})
			return
		}
		patch, _ := json.Marshal(fmt.Sprintf("ran %s with %q", p.Name, p.Args))
		send(frame{Type: "response", ID: f.ID, Patch: patch})
	default:
		send(frame{Type: "response", ID: f.ID, Allow: yes()})
	}
}

func toolCall(cfg *config, f frame) {
	switch cfg.ToolCall {
	case "deny":
		send(frame{Type: "response", ID: f.ID, Allow: no(), Reason: cfg.Reason})
	case "noallow":
		send(frame{Type: "response", ID: f.ID})
	case "sleep":
		time.Sleep(time.Hour)
	case "crash":
		fmt.Fprintln(os.Stderr, "xext: crashing on tool_call")
		os.Exit(5)
	case "garbage":
		fmt.Println("{not json")
	case "error":
		send(frame{Type: "response", ID: f.ID, Error: "policy backend unreachable"})
	case "error-failopen":
		send(frame{Type: "response", ID: f.ID, Error: "policy backend unreachable", FailOpen: true})
	case "revise":
		send(frame{Type: "response", ID: f.ID, Allow: yes(), Revise: cfg.Revise})
	case "badrevise":
		send(frame{Type: "response", ID: f.ID, Allow: yes(), Revise: json.RawMessage(`["not","an","object"]`)})
	default:
		send(frame{Type: "response", ID: f.ID, Allow: yes()})
	}
}
