// Command misbehave is a deliberately faulty v2 sidecar for the host's fault
// tests. MISBEHAVE_MODE picks one fault; with no mode it behaves. It speaks
// raw NDJSON on purpose: the SDK would refuse to misbehave.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

type frame struct {
	ID     *int64          `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
}

var (
	outMu sync.Mutex
	out   = bufio.NewWriter(os.Stdout)
)

func send(v any) {
	b, _ := json.Marshal(v)
	outMu.Lock()
	out.Write(append(b, '\n'))
	out.Flush()
	outMu.Unlock()
}

func reply(id int64, result any) {
	send(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func declaration(mode string) map[string]any {
	d := map[string]any{
		"name": "misbehave", "version": "0.0.1", "protocolVersion": "2", "stateSchemaVersion": 0,
		"subscriptions": []string{"tool.before"},
	}
	if subs, ok := os.LookupEnv("MISBEHAVE_SUBSCRIBE"); ok {
		d["subscriptions"] = []string{}
		if subs != "" {
			d["subscriptions"] = strings.Split(subs, ",")
		}
	}
	if os.Getenv("MISBEHAVE_PROVIDER") != "" {
		d["providers"] = []map[string]any{{"ref": providerRef(), "model": "m1", "displayName": "Mock model", "contextWindow": 1000}}
	}
	if slots := os.Getenv("MISBEHAVE_REPLACES"); slots != "" {
		d["replaces"] = strings.Split(slots, ",")
	}
	switch mode {
	case "undeclared-subscription":
		d["subscriptions"] = []string{"tool.before", "session.save"}
	case "undeclared-replace":
		d["replaces"] = []string{"system_prompt"}
	case "undeclared-provider":
		d["providers"] = []map[string]any{{"ref": "plugin/misbehave/stolen", "model": "x"}}
	case "undeclared-action":
		d["uiActions"] = []map[string]any{{"actionId": "launch-missiles"}}
	case "wrong-version":
		d["protocolVersion"] = "3"
	}
	return d
}

func main() {
	if os.Getenv("MISBEHAVE_LEVEL") == "sleeper" {
		hang()
	}
	mode := os.Getenv("MISBEHAVE_MODE")
	if mode == "ignore-shutdown" {
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	}
	if mode == "stderr-secrets" {
		for i := 0; i < 4000; i++ {
			fmt.Fprintf(os.Stderr, "line %d OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz%04d Authorization: Bearer abcdefghijklmnop%04dqrstuvwxyz\n", i, i, i)
		}
	}
	if mode == "grandchildren" {
		spawnSleepers()
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	for in.Scan() {
		var f frame
		if err := json.Unmarshal(in.Bytes(), &f); err != nil {
			continue
		}
		switch f.Method {
		case "extension/initialize":
			logEvent("start")
			if ms, _ := strconv.Atoi(os.Getenv("MISBEHAVE_INIT_DELAY_MS")); ms > 0 {
				time.Sleep(time.Duration(ms) * time.Millisecond)
			}
			logEvent("end")
			switch mode {
			case "exit-in-initialize":
				fmt.Fprintln(os.Stderr, "fatal: config broken, PASSWORD=hunter2hunter2hunter2")
				os.Exit(3)
			case "hang-in-initialize":
				hang()
			case "garbage-stdout":
				fmt.Println("panic: this is not JSON token=abcdef0123456789abcdef")
				hang()
			case "early-request":
				send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "host/ui/publish",
					"params": map[string]any{"kind": "status", "surfaceId": "s", "sessionId": "x", "generation": 1, "payload": map[string]any{"label": "too early"}}})
				hang()
			}
			reply(*f.ID, declaration(mode))
		case "extension/initialized":
			if mode == "oversized-frame" {
				big := strings.Repeat("x", 9<<20)
				send(map[string]any{"jsonrpc": "2.0", "method": "extension/provider/stream/chunk", "params": map[string]any{"pad": big}})
			}
			if mode == "browser-probe" {
				send(map[string]any{"jsonrpc": "2.0", "id": 77, "method": "host/browser/tab/list", "params": map[string]any{}})
			}
			if mode == "crash-after-init" {
				fmt.Fprintln(os.Stderr, "about to crash: SECRET=abcdefghijklmnopqrstuvwxyz")
				os.Exit(7)
			}
		case "extension/intercept":
			if mode == "hang-in-intercept" {
				continue
			}
			reply(*f.ID, decide(in, f.Params))
		case "extension/event":
			var ev struct {
				Event string `json:"event"`
			}
			json.Unmarshal(f.Params, &ev)
			logEvent("event " + ev.Event)
			if ms, _ := strconv.Atoi(os.Getenv("MISBEHAVE_EVENT_DELAY_MS")); ms > 0 {
				time.Sleep(time.Duration(ms) * time.Millisecond)
			}
		case "extension/provider/catalog":
			reply(*f.ID, map[string]any{"providers": []map[string]any{
				{"ref": providerRef(), "model": "m1", "displayName": "Mock model", "contextWindow": 1000},
				{"ref": providerRef(), "model": "m2", "displayName": "Mock two token=ghp_abcdefghijklmnopqrstuvwxyz0123456789"},
				{"ref": "plugin/someone-else/x", "model": "stolen"},
			}})
		case "extension/provider/stream/open":
			var p struct {
				StreamID string `json:"streamId"`
			}
			json.Unmarshal(f.Params, &p)
			if os.Getenv("MISBEHAVE_STREAM_FIRST") == "1" {
				// The whole stream before the open's answer: notifications
				// may overtake a response on the host's side.
				runStream(p.StreamID)
				reply(*f.ID, map[string]any{"accepted": true})
				break
			}
			reply(*f.ID, map[string]any{"accepted": true})
			go runStream(p.StreamID)
		case "extension/provider/stream/cancel":
			logEvent("cancel")
			reply(*f.ID, map[string]any{"cancelled": true})
		case "extension/shutdown":
			if mode == "ignore-shutdown" {
				continue
			}
			logEvent("shutdown")
			reply(*f.ID, map[string]any{"accepted": true})
			os.Exit(0)
		case "":
			// A response to one of our own requests.
			var resp struct {
				ID    int64 `json:"id"`
				Error *struct {
					Data struct {
						Reason string `json:"reason"`
					} `json:"data"`
				} `json:"error"`
			}
			if json.Unmarshal(in.Bytes(), &resp) == nil && resp.ID == 77 && resp.Error != nil {
				logEvent("browser " + resp.Error.Data.Reason)
			}
		default:
			if f.ID != nil {
				send(map[string]any{"jsonrpc": "2.0", "id": *f.ID, "error": map[string]any{"code": -32601, "message": "method not found", "data": map[string]any{"reason": "unknown_method", "retryable": false}}})
			}
		}
	}
	if mode == "ignore-shutdown" {
		for {
			time.Sleep(time.Hour)
		}
	}
}

// spawnSleepers starts a child that itself starts a grandchild, and writes
// every pid to MISBEHAVE_PIDFILE so the test can check they all die.
func spawnSleepers() {
	pids := []string{strconv.Itoa(os.Getpid())}
	if os.Getenv("MISBEHAVE_LEVEL") == "" {
		self, _ := os.Executable()
		child := exec.Command(self)
		child.Env = append(os.Environ(), "MISBEHAVE_LEVEL=child")
		child.Stdin = nil
		if err := child.Start(); err == nil {
			pids = append(pids, strconv.Itoa(child.Process.Pid))
		}
	}
	// A copy of itself that only sleeps (no /bin/sleep on Windows).
	self, _ := os.Executable()
	sleeper := exec.Command(self)
	sleeper.Env = append(os.Environ(), "MISBEHAVE_LEVEL=sleeper")
	if err := sleeper.Start(); err == nil {
		pids = append(pids, strconv.Itoa(sleeper.Process.Pid))
	}
	if f := os.Getenv("MISBEHAVE_PIDFILE"); f != "" {
		fh, err := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(fh, strings.Join(pids, "\n"))
			fh.Close()
		}
	}
	if os.Getenv("MISBEHAVE_LEVEL") == "child" {
		for {
			time.Sleep(time.Hour)
		}
	}
}

// hang blocks forever without tripping the runtime's deadlock detector.
func hang() {
	for {
		time.Sleep(time.Hour)
	}
}

// logEvent appends "<event> <pid>" to MISBEHAVE_LOG (O_APPEND lines are
// atomic), so a test can see how many handshakes overlapped.
func logEvent(event string) {
	path := os.Getenv("MISBEHAVE_LOG")
	if path == "" {
		return
	}
	fh, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	fmt.Fprintf(fh, "%s %s %d\n", event, os.Getenv("REASONIX_PLUGIN_NAME"), os.Getpid())
	fh.Close()
}
