package sdk_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
	"github.com/reasonix/reasonix-desktop/sdk"
)

// waitTimeout detects hangs; it never orders events, and is generous so
// that a loaded machine (make stress: -race beside a CPU hog) is no failure.
const waitTimeout = 2 * time.Minute

// quiet is how long a test watches for frames that must not arrive.
const quiet = 150 * time.Millisecond

// testHost plays the host: a real ndjson.Conn wired to ServeIO by io.Pipe
// pairs.
type testHost struct {
	t        *testing.T
	conn     *ndjson.Conn
	served   chan struct{} // closed when ServeIO returned
	serveErr error

	publishes chan protocol.UIPublishParams
	requests  chan protocol.UIRequestParams
	chunks    chan protocol.StreamChunkParams
	ends      chan protocol.StreamEndParams

	mu       sync.Mutex
	inFrames []ndjson.FrameInfo // frames the host received
}

// hostOptions customise the host side.
type hostOptions struct {
	// answer answers host/ui/request (default: cancelled).
	answer func(protocol.UIRequestParams) protocol.UIRequestResult
	// content serves host/content/read (default: unknown_method).
	content func(protocol.ContentReadParams) (any, error)
}

func startHost(t *testing.T, p *sdk.Plugin, o hostOptions) *testHost {
	t.Helper()
	toPluginR, toPluginW := io.Pipe()
	toHostR, toHostW := io.Pipe()
	h := &testHost{
		t:         t,
		served:    make(chan struct{}),
		publishes: make(chan protocol.UIPublishParams, 64),
		requests:  make(chan protocol.UIRequestParams, 64),
		chunks:    make(chan protocol.StreamChunkParams, 1024),
		ends:      make(chan protocol.StreamEndParams, 16),
	}
	h.conn = ndjson.NewConn(toHostR, toPluginW, ndjson.Options{Name: "host", OnFrame: func(f ndjson.FrameInfo) {
		if f.Dir == ndjson.In {
			h.mu.Lock()
			h.inFrames = append(h.inFrames, f)
			h.mu.Unlock()
		}
	}})
	h.conn.Handle(protocol.MethodUIPublish, func(_ context.Context, raw json.RawMessage) (any, error) {
		var pp protocol.UIPublishParams
		if err := protocol.DecodeStrict(raw, &pp); err != nil {
			return nil, protocol.Errorf(protocol.ReasonInvalidParams, "%v", err)
		}
		if _, err := protocol.DecodeSurface(pp.Kind, pp.Payload); err != nil {
			return nil, err
		}
		h.publishes <- pp
		return protocol.UIPublishResult{Accepted: true}, nil
	})
	h.conn.Handle(protocol.MethodUIRequest, func(_ context.Context, raw json.RawMessage) (any, error) {
		var rp protocol.UIRequestParams
		if err := protocol.DecodeStrict(raw, &rp); err != nil {
			return nil, protocol.Errorf(protocol.ReasonInvalidParams, "%v", err)
		}
		if _, err := protocol.DecodePrompt(rp.Kind, rp.Payload); err != nil {
			return nil, err
		}
		h.requests <- rp
		if o.answer == nil {
			return protocol.UIRequestResult{Cancelled: true}, nil
		}
		return o.answer(rp), nil
	})
	if o.content != nil {
		h.conn.Handle(protocol.MethodContentRead, func(_ context.Context, raw json.RawMessage) (any, error) {
			var cp protocol.ContentReadParams
			if err := protocol.DecodeStrict(raw, &cp); err != nil {
				return nil, protocol.Errorf(protocol.ReasonInvalidParams, "%v", err)
			}
			return o.content(cp)
		})
	}
	h.conn.HandleNotification(protocol.MethodStreamChunk, func(_ context.Context, raw json.RawMessage) {
		var cp protocol.StreamChunkParams
		if err := protocol.DecodeStrict(raw, &cp); err != nil {
			t.Errorf("bad chunk %s: %v", raw, err)
			return
		}
		h.chunks <- cp
	})
	h.conn.HandleNotification(protocol.MethodStreamEnd, func(_ context.Context, raw json.RawMessage) {
		var ep protocol.StreamEndParams
		if err := protocol.DecodeStrict(raw, &ep); err != nil {
			t.Errorf("bad end %s: %v", raw, err)
			return
		}
		h.ends <- ep
	})
	if p != nil && p.Logger == nil {
		p.Logger = slog.New(slog.NewTextHandler(t.Output(), nil))
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		h.serveErr = sdk.ServeIO(ctx, p, toPluginR, toHostW)
		close(h.served)
	}()
	h.conn.Start()
	t.Cleanup(func() {
		h.conn.Close() // closes toPluginW: the plugin sees EOF
		select {
		case <-h.served:
		case <-time.After(waitTimeout):
			t.Errorf("ServeIO did not return after EOF")
		}
		cancel()
		toPluginR.Close()
		toHostR.Close()
	})
	return h
}

func initParams() protocol.InitializeParams {
	return protocol.InitializeParams{
		ProtocolID:      protocol.ProtocolID,
		ProtocolVersion: protocol.ProtocolVersion,
		Session:         protocol.SessionContext{SessionID: "sess-1", WorkspaceRoot: "/work/space", Generation: 7},
		Capabilities:    protocol.HostCapabilities{ContentRefs: true, UIHost: protocol.UIHostHeadless, ProtocolVersion: "2"},
	}
}

func (h *testHost) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	h.t.Cleanup(cancel)
	return ctx
}

// initialize runs extension/initialize only.
func (h *testHost) initialize() protocol.InitializeResult {
	h.t.Helper()
	var res protocol.InitializeResult
	if err := h.conn.Call(h.ctx(), protocol.MethodInitialize, initParams(), &res); err != nil {
		h.t.Fatalf("initialize: %v", err)
	}
	return res
}

// handshake runs initialize and initialized.
func (h *testHost) handshake() protocol.InitializeResult {
	h.t.Helper()
	res := h.initialize()
	if err := h.conn.Notify(h.ctx(), protocol.MethodInitialized, struct{}{}); err != nil {
		h.t.Fatalf("initialized: %v", err)
	}
	return res
}

// call makes a request and returns the raw result.
func (h *testHost) call(method string, params any) (json.RawMessage, error) {
	var raw json.RawMessage
	err := h.conn.Call(h.ctx(), method, params, &raw)
	return raw, err
}

// waitServe waits for ServeIO to return and returns its error.
func (h *testHost) waitServe() error {
	h.t.Helper()
	select {
	case <-h.served:
		return h.serveErr
	case <-time.After(waitTimeout):
		h.t.Fatal("ServeIO did not return")
		return nil
	}
}

// frameCount returns how many frames the host has received so far.
func (h *testHost) frameCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.inFrames)
}

func (h *testHost) framesSince(n int) []ndjson.FrameInfo {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]ndjson.FrameInfo(nil), h.inFrames[n:]...)
}

func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(waitTimeout):
		t.Fatalf("timed out waiting for %s", what)
	}
	var zero T
	return zero
}

func none[T any](t *testing.T, ch <-chan T, what string) {
	t.Helper()
	select {
	case v := <-ch:
		t.Fatalf("unexpected %s: %+v", what, v)
	case <-time.After(quiet):
	}
}

// wantReason asserts err is a protocol error of reason r whose message
// contains substr.
func wantReason(t *testing.T, err error, r protocol.Reason, substr string) *protocol.Error {
	t.Helper()
	var pe *protocol.Error
	if !errors.As(err, &pe) {
		t.Fatalf("want a %s protocol error, got %v", r, err)
	}
	if pe.Reason() != r || !strings.Contains(pe.Message, substr) {
		t.Fatalf("want %s containing %q, got %v", r, substr, pe)
	}
	return pe
}

// contentPages serves data as host/content/read pages of pageSize bytes;
// lie tweaks each page before it is sent.
func contentPages(ref string, data []byte, pageSize int, lie func(*protocol.ContentReadResult)) func(protocol.ContentReadParams) (any, error) {
	sum := sha256.Sum256(data)
	return func(p protocol.ContentReadParams) (any, error) {
		if p.ContentRef != ref || p.Offset > int64(len(data)) {
			return nil, protocol.NewError(protocol.ReasonContentRefExpired, "")
		}
		end := min(int(p.Offset)+pageSize, len(data))
		page := protocol.ContentReadResult{
			ContentRef: ref, Offset: p.Offset, TotalBytes: int64(len(data)),
			SHA256: hex.EncodeToString(sum[:]), Encoding: protocol.EncodingUTF8,
			DataBase64: base64.StdEncoding.EncodeToString(data[p.Offset:end]),
		}
		if end < len(data) {
			page.NextOffset = int64(end)
		}
		if lie != nil {
			lie(&page)
		}
		return page, nil
	}
}

// hostFrom returns a Plugin.OnInitialized that hands the Host to the test.
func hostFrom(ch chan<- *sdk.Host) func(context.Context, *sdk.Host) {
	return func(_ context.Context, h *sdk.Host) { ch <- h }
}
