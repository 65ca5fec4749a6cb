package mcp

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// flaky dials servers in memory; a server named in hangs never answers its
// first hangs[name] connections (a start that misses the handshake bound, as
// on a busy machine), and answers after that.
type flaky struct {
	mu      sync.Mutex
	hangs   map[string]int
	dials   map[string]int
	closers []io.Closer
}

func (f *flaky) dial(t *testing.T) func(Server) sdk.Transport {
	t.Cleanup(func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, c := range f.closers {
			c.Close()
		}
	})
	return func(cfg Server) sdk.Transport {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.dials[cfg.Name]++
		if f.dials[cfg.Name] <= f.hangs[cfg.Name] {
			fromServer, toClient := io.Pipe()
			fromClient, toServer := io.Pipe()
			go io.Copy(io.Discard, fromClient)
			f.closers = append(f.closers, toClient, toServer, fromServer, fromClient)
			return &sdk.IOTransport{Reader: fromServer, Writer: toServer}
		}
		serverEnd, clientEnd := sdk.NewInMemoryTransports()
		ss, err := pingServer(cfg.Name).Connect(context.Background(), serverEnd, nil)
		if err != nil {
			t.Errorf("in-memory server: %v", err)
			return clientEnd
		}
		f.closers = append(f.closers, ss)
		return clientEnd
	}
}

// A start that misses the handshake bound is tried again after the backoff,
// with twice the bound, instead of failing for the session; one that never
// answers fails after its last attempt, at exactly the bounds and waits
// added up, naming the last bound (fake clock).
func TestStartIsRetriedWithBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &flaky{hangs: map[string]int{"late": 1, "never": 99}, dials: map[string]int{}}
		const bound, backoff = 5 * time.Second, time.Second
		m := NewManager(Options{Handshake: bound, Backoff: backoff, StartAttempts: 3, dial: f.dial(t)})
		t.Cleanup(m.Close)
		start := time.Now()
		m.Start([]Server{entry("late", "x"), entry("never", "x")})
		synctest.Wait()
		time.Sleep(bound + backoff) // the first attempts missed the bound; the second ones began
		synctest.Wait()
		if got := states(m); got["late"] != StateReady || got["never"] != StateStarting {
			t.Fatalf("after one miss and the backoff: %v, want late ready and never still starting", got)
		}
		if res, err := m.Call(context.Background(), "mcp__late__ping", nil, nil); err != nil || res.Text != "pong from late" {
			t.Fatalf("late after its retry: %+v %v", res, err)
		}
		waitStarted(t, m)
		// the bound, then twice and four times it, and the waits of one
		// then two backoffs between them
		if took, want := time.Since(start), bound+2*bound+4*bound+backoff+2*backoff; took != want {
			t.Errorf("never gave up after %v, want %v", took, want)
		}
		st := m.Servers()[1]
		if st.Name != "never" || st.State != StateFailed || !strings.HasPrefix(st.Err, "handshake: no answer within 5s") || !strings.Contains(st.Err, "tried 3 times, the last: handshake: no answer within 20s") {
			t.Fatalf("never: %+v", st)
		}
		if f.dials["late"] != 2 || f.dials["never"] != 3 {
			t.Errorf("dials %v, want late 2 and never 3", f.dials)
		}
	})
}

// A stop during the backoff ends the retries: the server stays stopped.
func TestStopEndsTheRetries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &flaky{hangs: map[string]int{"never": 99}, dials: map[string]int{}}
		m := NewManager(Options{Handshake: time.Second, Backoff: time.Minute, dial: f.dial(t)})
		t.Cleanup(m.Close)
		m.Start([]Server{entry("never", "x")})
		time.Sleep(2 * time.Second) // into the first backoff
		if err := m.Stop("never"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Hour)
		synctest.Wait()
		if st := m.Servers()[0]; st.State != StateStopped || f.dials["never"] != 1 {
			t.Fatalf("after a stop in the backoff: %+v, %d dials", st, f.dials["never"])
		}
	})
}

// A server that crashes mid-call: the call's error names its exit status
// and its stderr (not a bare EOF), its tools stay offered, and the next call
// starts it again and is answered. The restarts are bounded.
func TestCrashMidCallRestartsOnTheNextCall(t *testing.T) {
	t.Parallel() // its own Manager and processes: see slow
	node := testutil.Node(t)
	// The server dies while answering its second call, saying why on stderr.
	dir := t.TempDir()
	marker := dir + "/calls"
	script := `const fs=require('fs');const m=process.argv[1];
let n=0;try{n=+fs.readFileSync(m,'utf8')}catch(e){}
const rl=require('readline').createInterface({input:process.stdin});
const send=o=>process.stdout.write(JSON.stringify(o)+'\n');
rl.on('line',l=>{const r=JSON.parse(l);
 if(r.method==='initialize')send({jsonrpc:'2.0',id:r.id,result:{protocolVersion:r.params.protocolVersion,capabilities:{tools:{}},serverInfo:{name:'x',version:'1'}}});
 else if(r.method==='tools/list')send({jsonrpc:'2.0',id:r.id,result:{tools:[{name:'echo',inputSchema:{type:'object'}}]}});
 else if(r.method==='tools/call'){n++;fs.writeFileSync(m,String(n));
  if(n%2===0){console.error('fatal: out of cheese, api_key=sk-live-1234567890abcdef');process.exit(7)}
  send({jsonrpc:'2.0',id:r.id,result:{content:[{type:'text',text:'echo '+n}]}})}
 else if(r.id!==undefined)send({jsonrpc:'2.0',id:r.id,result:{}})});`
	crashy := Server{Name: "x", Server: mcpspec.Server{Command: node, Args: []string{"-e", script, marker}}}
	m := started(t, slow, crashy)
	call := func() (Result, error) {
		return m.Call(context.Background(), "mcp__x__echo", json.RawMessage(`{}`), nil)
	}
	if res, err := call(); err != nil || res.Text != "echo 1" {
		t.Fatalf("first call: %+v %v", res, err)
	}
	_, err := call()
	if err == nil || !strings.Contains(err.Error(), "exit status 7") || !strings.Contains(err.Error(), "fatal: out of cheese") {
		t.Fatalf("the call the server crashed in: %v, want its exit status and stderr", err)
	}
	if strings.Contains(err.Error(), "sk-live-1234567890abcdef") {
		t.Fatalf("the server's stderr reached the model unredacted: %v", err)
	}
	if _, ok := tool(m, "mcp__x__echo"); !ok {
		t.Fatalf("the crashed server's tool is no longer offered: %v (status %+v)", m.Tools(), m.Servers())
	}
	// Each restart answers once and crashes at the next call: the budget
	// allows MaxRestarts restarts, then the call says why it is refused.
	for i := range MaxRestarts {
		res, err := call()
		if err != nil || !strings.HasPrefix(res.Text, "echo ") {
			t.Fatalf("call after restart %d: %+v %v", i+1, res, err)
		}
		if _, err := call(); err == nil || !strings.Contains(err.Error(), "exit status 7") {
			t.Fatalf("crash %d: %v", i+2, err)
		}
	}
	if _, err := call(); err == nil || !strings.Contains(err.Error(), "not ready") || !strings.Contains(err.Error(), "restarted 3 times") {
		t.Fatalf("the call past the restart budget: %v", err)
	}
}

// An entry whose command is not there fails at once: trying again cannot
// mend it, so the user reads why without waiting out the retries.
func TestMissingCommandIsNotRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := NewManager(Options{})
		t.Cleanup(m.Close)
		start := time.Now()
		m.Start([]Server{{Name: "gone", Server: mcpspec.Server{Command: "/nonexistent/mcp-server"}}})
		waitStarted(t, m)
		st := m.Servers()[0]
		if st.State != StateFailed || !strings.Contains(st.Err, "not an executable file") || strings.Contains(st.Err, "tried") || time.Since(start) != 0 {
			t.Fatalf("after %v: %+v, want failed at once naming the command", time.Since(start), st)
		}
	})
}
