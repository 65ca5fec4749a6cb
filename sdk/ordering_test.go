package sdk_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/sdk"
)

// orderChildEnv re-executes the test binary as a plugin: sdk.Serve on the
// process's real stdin and stdout (the tap is off: the SDK sets none), a
// provider whose chunks are ready before its stream/open handler returns,
// then exit as soon as Serve returns.
const orderChildEnv = "SDK_TEST_ORDER_CHILD"

// orderChunks is how many chunks each stream of the child sends.
const orderChunks = 16

func TestMain(m *testing.M) {
	if os.Getenv(orderChildEnv) != "" {
		chunks := make([]protocol.ProviderChunk, 0, orderChunks+1)
		for i := range orderChunks {
			chunks = append(chunks, text(fmt.Sprint(i)))
		}
		p := &sdk.Plugin{Name: "order", Version: "1",
			Providers: []sdk.Provider{&ready{ref: "plugin/order/p", chunks: append(chunks, done)}},
			// Work that outlives Serve's own context: an answer not yet
			// written when Serve returns would be lost with the process.
			// The sleep is that slow work, the behaviour under test.
			OnShutdown: func(context.Context) { time.Sleep(100 * time.Millisecond) },
		}
		if err := sdk.Serve(context.Background(), p); err != nil {
			fmt.Fprintln(os.Stderr, "serve:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	// TestShutdownBoundsOnShutdown's OnShutdown never returns on purpose:
	// the SDK leaves it behind once the shutdown timeout passed.
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/reasonix/reasonix-desktop/sdk_test.TestShutdownBoundsOnShutdown.func1"))
}

// ready is a provider whose channel holds every chunk before Stream
// returns: without ordering, the first chunks would race the open answer.
type ready struct {
	ref    string
	chunks []protocol.ProviderChunk
}

func (r *ready) Descriptors() []protocol.ProviderDescriptor {
	return []protocol.ProviderDescriptor{{Ref: r.ref, Model: "m1"}}
}

func (r *ready) Stream(context.Context, sdk.StreamRequest) (<-chan protocol.ProviderChunk, error) {
	ch := make(chan protocol.ProviderChunk, len(r.chunks))
	for _, c := range r.chunks {
		ch <- c
	}
	close(ch)
	return ch, nil
}

// rawFrame is what the raw peer reads: its own envelope, no SDK types.
type rawFrame struct {
	ID     *int64          `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// rawPlugin is a plugin child process driven by hand over its real pipes.
type rawPlugin struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	exit   chan error
	waited bool // the test waits for the exit
}

func startRawPlugin(t *testing.T) *rawPlugin {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), orderChildEnv+"=1")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &rawPlugin{t: t, cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<16), exit: make(chan error, 1)}
	t.Cleanup(func() {
		in.Close()
		if p.waited {
			return
		}
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return p
}

func (p *rawPlugin) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatal(err)
	}
}

// next reads one whole frame; io.EOF once the plugin closed its stdout.
func (p *rawPlugin) next() (rawFrame, error) {
	line, err := p.out.ReadBytes('\n')
	if err != nil {
		if len(line) > 0 {
			p.t.Fatalf("a frame cut short by the end of the stream: %q", line)
		}
		return rawFrame{}, err
	}
	var f rawFrame
	if err := json.Unmarshal(line, &f); err != nil {
		p.t.Fatalf("frame %q: %v", line, err)
	}
	return f, nil
}

func (p *rawPlugin) mustNext() rawFrame {
	p.t.Helper()
	f, err := p.next()
	if err != nil {
		p.t.Fatalf("read: %v", err)
	}
	return f
}

// With the SDK's tap off, no stream chunk precedes its stream/open answer
// on the wire, and the shutdown answer is written whole before the process
// exits (Serve returns although the host keeps its end of stdin open).
func TestWireOrderWithoutTheTap(t *testing.T) {
	p := startRawPlugin(t)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"extension/initialize","params":{"protocolVersion":"2","protocolId":"reasonix.extension.v2","manifest":{},"session":{"sessionId":"sess-1","workspaceRoot":"/w","generation":1},"capabilities":{"contentRefs":true,"uiHost":"headless","protocolVersion":"2"}}}`)
	if f := p.mustNext(); f.ID == nil || *f.ID != 1 || f.Result == nil {
		t.Fatalf("initialize answer %+v", f)
	}
	p.send(`{"jsonrpc":"2.0","method":"extension/initialized","params":{}}`)
	// All opens at once: their handlers, answers and chunks interleave.
	const streams = 32
	var opens strings.Builder
	for k := range streams {
		fmt.Fprintf(&opens, `{"jsonrpc":"2.0","id":%d,"method":"extension/provider/stream/open","params":{"streamId":"es_%024x","providerRef":"plugin/order/p","model":"m1","request":{"messages":[{"role":"user","content":"hi"}],"tools":[],"maxTokens":0},"seqBase":1,"generation":1}}`+"\n", 10+k, k)
	}
	p.send(strings.TrimSuffix(opens.String(), "\n"))
	answered := map[string]bool{}
	chunks := map[string]int{}
	for ended := 0; ended < streams; {
		f := p.mustNext()
		var params struct {
			StreamID string `json:"streamId"`
		}
		_ = json.Unmarshal(f.Params, &params)
		sid := params.StreamID
		switch {
		case f.ID != nil && *f.ID >= 10 && *f.ID < 10+streams:
			if f.Result == nil {
				t.Fatalf("open %d failed: %s", *f.ID, f.Error)
			}
			answered[fmt.Sprintf("es_%024x", *f.ID-10)] = true
		case f.Method == protocol.MethodStreamChunk:
			if !answered[sid] {
				t.Fatalf("%s: chunk %d was written before the open answer", sid, chunks[sid]+1)
			}
			chunks[sid]++
		case f.Method == protocol.MethodStreamEnd:
			if !answered[sid] || chunks[sid] != orderChunks+1 {
				t.Fatalf("%s: end after %d chunks, answered %v", sid, chunks[sid], answered[sid])
			}
			ended++
		default:
			t.Fatalf("unexpected frame %+v", f)
		}
	}
	p.send(`{"jsonrpc":"2.0","id":99,"method":"extension/shutdown","params":{"timeoutMillis":5000}}`)
	f := p.mustNext()
	if f.ID == nil || *f.ID != 99 || string(f.Result) != `{"accepted":true}` {
		t.Fatalf("shutdown answer %+v", f)
	}
	tm := time.AfterFunc(3*time.Second, func() { _ = p.cmd.Process.Signal(syscall.SIGQUIT) })
	defer tm.Stop()
	if _, err := p.next(); !errors.Is(err, io.EOF) {
		t.Fatalf("after the shutdown answer: %v, want the end of the stream", err)
	}
	p.waited = true
	go func() { p.exit <- p.cmd.Wait() }() // all reads are done
	select {
	case err := <-p.exit:
		if err != nil {
			t.Fatalf("plugin exit: %v", err)
		}
	case <-time.After(waitTimeout):
		t.Fatal("the plugin did not exit after its shutdown answer while stdin stayed open")
	}
}
