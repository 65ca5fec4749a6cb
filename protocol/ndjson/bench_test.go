package ndjson

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/pprof"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// benchChildEnv selects a child loop when the test binary is re-executed as
// the benchmark peer: "conn" serves through this package's Conn, "raw" is a
// plain encoding/json + bufio loop used as the baseline.
const benchChildEnv = "NDJSON_BENCH_CHILD"

// benchChildProfileEnv, when set, makes the benchmark child write a CPU
// profile to that path.
const benchChildProfileEnv = "NDJSON_BENCH_CHILD_CPUPROFILE"

func runChild() int {
	if os.Getenv(benchChildEnv) == "raw" {
		return rawChild()
	}
	return connChild()
}

func TestMain(m *testing.M) {
	if path := os.Getenv(benchChildProfileEnv); path != "" && os.Getenv(benchChildEnv) != "" {
		// Profile the child: the parent's -cpuprofile only sees its side.
		f, err := os.Create(path)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			code := runChild()
			pprof.StopCPUProfile()
			f.Close()
			os.Exit(code)
		}
	}
	switch os.Getenv(benchChildEnv) {
	case "conn":
		os.Exit(connChild())
	case "raw":
		os.Exit(rawChild())
	}
	code := m.Run()
	if code == 0 {
		// Every goroutine a Conn started must be gone once the tests closed
		// their connections (Close waits for them).
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: goroutines outlived the tests: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}

// benchParams is the payload of every benchmark frame.
type benchParams struct {
	Text string `json:"text"`
	N    int    `json:"n"`
	OK   bool   `json:"ok"`
}

var benchPayload = benchParams{Text: "the quick brown fox jumps over the lazy dog", N: 42, OK: true}

// countWant asks the child how many notifications it has seen, once it has
// seen at least Want of them.
type countWant struct {
	Want int64 `json:"want"`
}

type countResult struct {
	Count int64 `json:"count"`
}

// connChild echoes "echo" params and counts "tick" notifications; "count"
// answers once the count reaches the wanted value (notifications run on
// their own goroutine, so the request may overtake the last of them).
func connChild() int {
	c := NewConn(os.Stdin, os.Stdout, Options{Name: "bench-child"})
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	var count int64
	c.Handle("echo", func(_ context.Context, p json.RawMessage) (any, error) { return p, nil })
	c.HandleNotification("tick", func(context.Context, json.RawMessage) {
		mu.Lock()
		count++
		mu.Unlock()
		cond.Broadcast()
	})
	c.Handle("count", func(_ context.Context, p json.RawMessage) (any, error) {
		var w countWant
		if err := json.Unmarshal(p, &w); err != nil {
			return nil, err
		}
		mu.Lock()
		defer mu.Unlock()
		for count < w.Want {
			cond.Wait()
		}
		return countResult{count}, nil
	})
	c.Start()
	<-c.Done()
	return 0
}

// rawMsg and rawResp are the baseline's envelope types.
type rawMsg struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      *int64          `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

type rawResp struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int64  `json:"id"`
	Result  any    `json:"result"`
}

// rawChild is the no-framework baseline: bufio.Scanner lines, plain
// encoding/json, one response line per request.
func rawChild() int {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 64<<10), 8<<20)
	w := bufio.NewWriter(os.Stdout)
	var count int64
	for sc.Scan() {
		var m rawMsg
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			continue
		}
		if m.ID == nil {
			count++
			continue
		}
		var result any = m.Params
		if m.Method == "count" {
			result = countResult{count}
		}
		b, _ := json.Marshal(rawResp{"2.0", *m.ID, result})
		w.Write(b)
		w.WriteByte('\n')
		if err := w.Flush(); err != nil {
			return 1
		}
	}
	return 0
}

// child is a running benchmark peer process.
type child struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out io.ReadCloser
}

func startChild(b *testing.B, mode string) *child {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), benchChildEnv+"="+mode)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	ch := &child{cmd: cmd, in: in, out: out}
	b.Cleanup(ch.stop)
	return ch
}

// stop closes the child's stdin, waits for it to exit and kills it if it
// does not.
func (ch *child) stop() {
	ch.in.Close()
	done := make(chan struct{})
	go func() {
		_ = ch.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = ch.cmd.Process.Kill()
		<-done
	}
}

func connTo(b *testing.B, ch *child) *Conn {
	c := NewConn(ch.out, ch.in, Options{Name: "bench-parent"})
	c.Start()
	b.Cleanup(func() { c.Close() })
	return c
}

func BenchmarkRoundTripChild(b *testing.B) {
	c := connTo(b, startChild(b, "conn"))
	ctx := context.Background()
	var raw json.RawMessage
	if err := c.Call(ctx, "echo", benchPayload, &raw); err != nil { // warm up
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := c.Call(ctx, "echo", benchPayload, &raw); err != nil {
			b.Fatal(err)
		}
	}
}

// rawParent is the baseline client: plain encoding/json + bufio.
type rawParent struct {
	w  *bufio.Writer
	r  *bufio.Reader
	id int64
}

type rawReq struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int64  `json:"id,omitempty"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

type rawReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      int64           `json:"id"`
	Result  json.RawMessage `json:"result"`
}

func (p *rawParent) send(id int64, method string, params any) {
	buf, _ := json.Marshal(rawReq{"2.0", id, method, params})
	p.w.Write(buf)
	p.w.WriteByte('\n')
}

func (p *rawParent) call(method string, params any) (json.RawMessage, error) {
	p.id++
	p.send(p.id, method, params)
	if err := p.w.Flush(); err != nil {
		return nil, err
	}
	line, err := p.r.ReadSlice('\n')
	if err != nil {
		return nil, err
	}
	var r rawReply
	if err := json.Unmarshal(line, &r); err != nil {
		return nil, err
	}
	if r.ID != p.id {
		return nil, fmt.Errorf("reply id %d, want %d", r.ID, p.id)
	}
	return r.Result, nil
}

func rawParentOf(ch *child) *rawParent {
	return &rawParent{w: bufio.NewWriter(ch.in), r: bufio.NewReaderSize(ch.out, 64<<10)}
}

func BenchmarkRoundTripRawChild(b *testing.B) {
	p := rawParentOf(startChild(b, "raw"))
	if _, err := p.call("echo", benchPayload); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := p.call("echo", benchPayload); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNotifyChild(b *testing.B) {
	c := connTo(b, startChild(b, "conn"))
	ctx := context.Background()
	if err := c.Call(ctx, "count", countWant{0}, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		if err := c.Notify(ctx, "tick", benchPayload); err != nil {
			b.Fatal(err)
		}
	}
	var res countResult
	if err := c.Call(ctx, "count", countWant{int64(b.N)}, &res); err != nil {
		b.Fatal(err)
	}
	elapsed := time.Since(start)
	b.StopTimer()
	if res.Count != int64(b.N) {
		b.Fatalf("child counted %d of %d", res.Count, b.N)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "msgs/s")
}

func BenchmarkNotifyRawChild(b *testing.B) {
	p := rawParentOf(startChild(b, "raw"))
	if _, err := p.call("count", countWant{0}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		p.send(0, "tick", benchPayload)
	}
	raw, err := p.call("count", countWant{int64(b.N)})
	if err != nil {
		b.Fatal(err)
	}
	elapsed := time.Since(start)
	b.StopTimer()
	var res countResult
	if err := json.Unmarshal(raw, &res); err != nil || res.Count != int64(b.N) {
		b.Fatalf("child counted %s (%v), want %d", raw, err, b.N)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "msgs/s")
}
