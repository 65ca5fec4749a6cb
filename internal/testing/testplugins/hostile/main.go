// Command hostile is a raw NDJSON peer for the host's hardening tests
// (issue 14): each HOSTILE_MODE breaks one rule of the wire or of the
// process contract. It is written with bufio and encoding/json only, never
// with sdk/ or protocol/, so it can say what a well-behaved peer never would.
//
//	(none)              behave: answer initialize, serve HOSTILE_PROVIDER streams
//	hang-init           never answer extension/initialize
//	stream-open-hang    never answer extension/provider/stream/open
//	stream-silent       accept the stream, never send a chunk
//	stream-stall        accept, send chunk 1, then nothing
//	catalog-hang        never answer extension/provider/catalog
//	init-string-id      answer initialize with the id as a string
//	junk-first          print a banner on stdout before reading anything
//	version=<json>      answer initialize with protocolVersion <json>
//	dup-member          answer initialize with "name" twice
//	same-write-request  write a request in the same write as the initialize answer
//	sigterm-child       start a child that ignores SIGTERM (pids in HOSTILE_PIDFILE)
//	stop-reading        stop reading stdin once initialized arrives
//	setsid-child        like sigterm-child, but the child leaves the group (setsid)
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

var (
	outMu sync.Mutex
	out   = os.Stdout
)

// write sends raw bytes in one write(2), so a test controls what the host
// sees in one read.
func write(b []byte) {
	outMu.Lock()
	_, _ = out.Write(b)
	outMu.Unlock()
}

func line(v any) []byte {
	b, _ := json.Marshal(v)
	return append(b, '\n')
}

func reply(id json.RawMessage, result any) {
	write(line(map[string]any{"jsonrpc": "2.0", "id": id, "result": result}))
}

func declaration() map[string]any {
	d := map[string]any{"name": os.Getenv("REASONIX_PLUGIN_NAME"), "version": "0.0.1",
		"protocolVersion": "2", "stateSchemaVersion": 0, "subscriptions": []string{}}
	if os.Getenv("HOSTILE_PROVIDER") != "" {
		d["providers"] = []map[string]any{{"ref": providerRef(), "model": "m1"}}
	}
	return d
}

func providerRef() string { return "plugin/" + os.Getenv("REASONIX_PLUGIN_NAME") + "/mock" }

func main() {
	if os.Getenv("HOSTILE_ROLE") == "child" {
		// A descendant that shrugs off the polite signals a host sends.
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGPIPE)
		hang()
	}
	mode := os.Getenv("HOSTILE_MODE")
	switch mode {
	case "junk-first":
		write([]byte("Listening on :8080\n"))
	case "sigterm-child":
		startChild(false)
	case "setsid-child":
		startChild(true)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	for in.Scan() {
		var f struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &f) != nil {
			continue
		}
		switch f.Method {
		case "extension/initialize":
			initialize(mode, f.ID)
		case "extension/provider/catalog":
			if mode == "catalog-hang" {
				continue
			}
			reply(f.ID, map[string]any{"providers": []map[string]any{{"ref": providerRef(), "model": "m1"}}})
		case "extension/provider/stream/open":
			var p struct {
				StreamID string `json:"streamId"`
			}
			_ = json.Unmarshal(f.Params, &p)
			switch mode {
			case "stream-open-hang":
				continue
			case "stream-silent":
				reply(f.ID, map[string]any{"accepted": true})
			case "stream-stall":
				reply(f.ID, map[string]any{"accepted": true})
				write(line(map[string]any{"jsonrpc": "2.0", "method": "extension/provider/stream/chunk",
					"params": map[string]any{"streamId": p.StreamID, "seq": 1, "chunk": map[string]any{"type": "text", "text": "t1"}}}))
			default:
				reply(f.ID, map[string]any{"accepted": true})
				write(line(map[string]any{"jsonrpc": "2.0", "method": "extension/provider/stream/chunk",
					"params": map[string]any{"streamId": p.StreamID, "seq": 1, "chunk": map[string]any{"type": "text", "text": "ok"}}}))
				write(line(map[string]any{"jsonrpc": "2.0", "method": "extension/provider/stream/end",
					"params": map[string]any{"streamId": p.StreamID, "lastSeq": 1}}))
			}
		case "extension/provider/stream/cancel":
			reply(f.ID, map[string]any{"cancelled": true})
		case "extension/initialized":
			if mode == "stop-reading" {
				hang()
			}
		case "extension/shutdown":
			reply(f.ID, map[string]any{"accepted": true})
			os.Exit(0)
		}
	}
	if mode == "sigterm-child" || mode == "setsid-child" {
		hang() // outlive stdin too: only a kill ends this one
	}
}

func initialize(mode string, id json.RawMessage) {
	switch {
	case mode == "hang-init":
		hang()
	case mode == "init-string-id":
		write(line(map[string]any{"jsonrpc": "2.0", "id": string(id), "result": declaration()}))
	case strings.HasPrefix(mode, "version="):
		d := declaration()
		d["protocolVersion"] = json.RawMessage(strings.TrimPrefix(mode, "version="))
		reply(id, d)
	case mode == "dup-member":
		b := line(map[string]any{"jsonrpc": "2.0", "id": id, "result": declaration()})
		// `"name":"x",` once more at the front of the result object.
		i := strings.Index(string(b), `"result":{`) + len(`"result":{`)
		dup := `"name":"someone-else",`
		write([]byte(string(b[:i]) + dup + string(b[i:])))
	case mode == "same-write-request":
		answer := line(map[string]any{"jsonrpc": "2.0", "id": id, "result": declaration()})
		early := line(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "host/ui/publish",
			"params": map[string]any{"kind": "notification", "surfaceId": "s", "sessionId": "x", "generation": 1,
				"payload": map[string]any{"title": "before initialized"}}})
		write(append(answer, early...))
	default:
		reply(id, declaration())
	}
}

// startChild starts a SIGTERM-ignoring copy of itself, in this process's
// group or (escape) in a session of its own, and records both pids.
func startChild(escape bool) {
	self, _ := os.Executable()
	child := exec.Command(self)
	child.Env = append(os.Environ(), "HOSTILE_ROLE=child")
	if escape {
		child.SysProcAttr = escapeAttr()
	}
	if err := child.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "hostile: child:", err)
		os.Exit(2)
	}
	if path := os.Getenv("HOSTILE_PIDFILE"); path != "" {
		fh, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintf(fh, "%s\n%s\n", strconv.Itoa(os.Getpid()), strconv.Itoa(child.Process.Pid))
			fh.Close()
		}
	}
}

// hang blocks forever without tripping the runtime's deadlock detector.
func hang() {
	for {
		time.Sleep(time.Hour)
	}
}
