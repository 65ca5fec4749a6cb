package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// httpEverything runs server-everything serving mode ("sse",
// "streamableHttp") on a port of its own and returns the port once it
// accepts connections. The test owns the process; a Manager only connects.
func httpEverything(t *testing.T, mode string) int {
	t.Helper()
	port := freePort(t)
	cmd := exec.Command(testutil.Node(t), testutil.MCPServer(t, "server-everything"), mode)
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	testutil.Eventually(t, "the "+mode+" server listening", func() bool {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	return port
}

// An SSE server stays usable after its start: the handshake's deadline
// bounded the transport's long-lived GET, which died the moment the start
// returned, and every call after it failed "the connection closed".
func TestEverythingOverSSE(t *testing.T) {
	t.Parallel() // its own Manager and processes: see slow
	port := httpEverything(t, "sse")
	m := started(t, slow, Server{Name: "old", Server: mcpspec.Server{Type: TypeSSE, URL: fmt.Sprintf("http://127.0.0.1:%d/sse", port)}})
	if st := m.Servers(); st[0].State != StateReady {
		t.Fatalf("status %+v", st)
	}
	for i := range 3 {
		msg := fmt.Sprintf("over sse %d", i)
		res, err := m.Call(context.Background(), "mcp__old__echo", json.RawMessage(`{"message":"`+msg+`"}`), nil)
		if err != nil || !strings.Contains(res.Text, msg) {
			t.Fatalf("echo %d over sse: %+v %v (status %+v)", i, res, err, m.Servers())
		}
	}
	if st := m.Servers(); st[0].State != StateReady {
		t.Fatalf("after the calls: %+v", st)
	}
}

// The handshake bound still ends an SSE start that never completes: a
// server that accepts the GET and never names its endpoint is failed at
// the bound, and its GET is ended (the connection no longer lives on the
// handshake's context, so nothing else would end it).
func TestSSEStartThatNeverCompletesIsBounded(t *testing.T) {
	t.Parallel()
	ended := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		close(ended)
	}))
	t.Cleanup(srv.Close)
	m := NewManager(Options{Handshake: 300 * time.Millisecond, StartAttempts: 1})
	t.Cleanup(m.Close)
	m.Start([]Server{{Name: "mute", Server: mcpspec.Server{Type: TypeSSE, URL: srv.URL + "/sse"}}})
	waitStarted(t, m)
	if st := m.Servers()[0]; st.State != StateFailed || !strings.Contains(st.Err, "no answer within 300ms") {
		t.Fatalf("status %+v, want failed with no answer within the bound", st)
	}
	<-ended // the server saw its GET end
}
