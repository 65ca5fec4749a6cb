package intercept_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/content"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/intercept"
	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// pipeCaller is an interceptor served in this process over net.Pipe: the
// chain's timers, the connection and the plugin all live in the test's
// synctest bubble, so the product's intercept timeouts (5 s, 30 s) pass on
// the bubble's clock in no real time.
type pipeCaller struct {
	conn  *ndjson.Conn
	store *content.Store
}

func (c *pipeCaller) Call(ctx context.Context, m string, p, r any) error {
	return c.conn.Call(ctx, m, p, r)
}
func (c *pipeCaller) Notify(ctx context.Context, m string, p any) error {
	return c.conn.Notify(ctx, m, p)
}
func (c *pipeCaller) Content() *content.Store { return c.store }

// slowPlugin answers every intercept with decision after delay on the
// bubble's clock, counting the answers it wrote.
type slowPlugin struct {
	delay    time.Duration
	decision protocol.Decision
	answered atomic.Int32
}

// chainOf builds a one-member chain of p with the manifest defaults of a
// plugin that set no timeoutMillis (the product's timeouts); everything is
// closed at the test's cleanup, inside the bubble.
func chainOf(t *testing.T, p *slowPlugin, required bool) *intercept.Chain {
	t.Helper()
	hostEnd, pluginEnd := net.Pipe()
	c := &pipeCaller{conn: ndjson.NewConn(hostEnd, hostEnd, ndjson.Options{Name: "plugin slow"}), store: content.NewStore()}
	peer := ndjson.NewConn(pluginEnd, pluginEnd, ndjson.Options{Name: "slow"})
	peer.Handle(protocol.MethodIntercept, func(context.Context, json.RawMessage) (any, error) {
		// The plugin under test is slow on purpose: this sleep is its
		// behaviour, on the bubble's clock.
		time.Sleep(p.delay)
		defer p.answered.Add(1)
		return protocol.InterceptResult{Decision: p.decision, Reason: "late"}, nil
	})
	c.conn.Start()
	peer.Start()
	manifest := &plugin.Manifest{} // no timeoutMillis: the product's defaults
	chain, err := intercept.NewChain([]*intercept.Member{{Plugin: "slow", Required: required,
		Points: []protocol.HookPoint{protocol.HookToolBefore, protocol.HookSessionSave}, Timeout: manifest.Timeout, Client: c}},
		intercept.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		chain.Close()
		hostEnd.Close()
		pluginEnd.Close()
		c.conn.Close()
		peer.Close()
	})
	return chain
}

// An optional plugin that does not answer tool.before within the default 5 s
// is skipped after exactly 5 s, and its answer, when it comes, changes
// nothing: the next run continues without asking it.
func TestInterceptDefaultTimeoutSkipsAnOptionalPlugin(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		p := &slowPlugin{delay: 6 * time.Second, decision: protocol.DecisionBlock}
		chain := chainOf(t, p, false)
		start := time.Now()
		res, err := chain.Run(context.Background(), toolBefore("ls"))
		if elapsed := time.Since(start); elapsed != 5*time.Second {
			t.Fatalf("the run took %s, want the 5s default", elapsed)
		}
		if err != nil || res.Verdict != intercept.Continue || len(res.Degraded) != 1 ||
			!strings.Contains(res.Degraded[0].Reason, "slow did not answer tool.before within 5s") {
			t.Fatalf("%v %+v", err, res)
		}
		time.Sleep(time.Second) // the bubble's clock: the late block is written
		synctest.Wait()         // and read by the host
		if p.answered.Load() != 1 {
			t.Fatalf("%d late answers, want 1", p.answered.Load())
		}
		res, err = chain.Run(context.Background(), toolBefore("ls"))
		if err != nil || res.Verdict != intercept.Continue || len(res.Degraded) != 0 {
			t.Fatalf("after the late answer: %v %+v", err, res)
		}
	})
}

// A required plugin's timeout fails the operation, naming the plugin; the
// default is 5 s at tool.before and 30 s at the other points.
func TestInterceptDefaultTimeoutFailsARequiredPlugin(t *testing.T) {
	t.Parallel()
	tests := []struct {
		call intercept.Call
		want time.Duration
	}{
		{toolBefore("ls"), 5 * time.Second},
		{intercept.Call{Point: protocol.HookSessionSave, Payload: &protocol.SessionPayload{SessionPath: "/s.json", Phase: "save"}}, 30 * time.Second},
	}
	for _, tt := range tests {
		t.Run(string(tt.call.Point), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				chain := chainOf(t, &slowPlugin{delay: time.Hour, decision: protocol.DecisionContinue}, true)
				start := time.Now()
				_, err := chain.Run(context.Background(), tt.call)
				if elapsed := time.Since(start); elapsed != tt.want {
					t.Fatalf("failed after %s, want %s", elapsed, tt.want)
				}
				var fe *intercept.FailedError
				if !errors.As(err, &fe) || fe.Plugin != "slow" || protocol.ReasonOf(err) != protocol.ReasonInterceptTimeout {
					t.Fatalf("err = %v (reason %q)", err, protocol.ReasonOf(err))
				}
			})
		})
	}
}
