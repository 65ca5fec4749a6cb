package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Ctrl+C in the line loop stops the reply in flight (the turn ends
// "stopped", the chat goes on), and only at the prompt ends the chat, with
// exit status 0 and the session saved.
func TestHeadlessCtrlCStopsTheReplyThenQuits(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	cmd := h.command("chat", "--headless", "--repl", "--json", "--model", "plugin/echo-provider/echo/echo-1")
	// Slow enough that the signal lands mid-reply.
	cmd.Env = append(cmd.Env, "ECHO_PROVIDER_DELAY_MS=200")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})

	type event struct {
		Kind   string `json:"kind"`
		Text   string `json:"text"`
		Reason string `json:"reason"`
		Error  string `json:"error"`
	}
	events := make(chan event, 256)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var e event
			if json.Unmarshal(sc.Bytes(), &e) == nil {
				events <- e
			}
		}
		close(events)
	}()
	waitFor := func(what string, match func(event) bool) event {
		t.Helper()
		timeout := time.After(30 * time.Second)
		for {
			select {
			case e, ok := <-events:
				if !ok {
					t.Fatalf("output ended before %s", what)
				}
				if match(e) {
					return e
				}
			case <-timeout:
				t.Fatalf("no %s within 30 s", what)
			}
		}
	}

	io.WriteString(stdin, "one two three four five six seven eight nine ten eleven twelve\n")
	waitFor("reply text", func(e event) bool { return e.Kind == "text" })
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	end := waitFor("the end of the turn", func(e event) bool { return e.Kind == "turn_done" || e.Kind == "turn_failed" })
	if raw, _ := json.Marshal(end); !strings.Contains(string(raw), "stopped") {
		t.Fatalf("the turn ended %s, want it stopped", raw)
	}

	// The chat goes on: the next line is read and answered.
	io.WriteString(stdin, "/sessions\n")
	waitFor("the session list", func(e event) bool { return e.Kind == "sessions" })

	// At the prompt, Ctrl+C ends the chat.
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		exited <- err // for the cleanup
		if err != nil {
			t.Fatalf("the chat ended with %v, want status 0", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Ctrl+C at the prompt did not end the chat")
	}
}
