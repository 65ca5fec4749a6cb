package sdk_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
	"github.com/reasonix/reasonix-desktop/sdk"
)

// scripted is a provider that sends its chunks, then either closes the
// channel or, with hang, waits for cancellation first.
type scripted struct {
	ref    string
	chunks []protocol.ProviderChunk
	hang   bool
	reqs   chan sdk.StreamRequest
}

func (s *scripted) Descriptors() []protocol.ProviderDescriptor {
	return []protocol.ProviderDescriptor{{Ref: s.ref, Model: "m1"}}
}

func (s *scripted) Stream(ctx context.Context, req sdk.StreamRequest) (<-chan protocol.ProviderChunk, error) {
	if s.reqs != nil {
		s.reqs <- req
	}
	ch := make(chan protocol.ProviderChunk)
	go func() {
		defer close(ch)
		for _, c := range s.chunks {
			select {
			case ch <- c:
			case <-ctx.Done():
				return
			}
		}
		if s.hang {
			<-ctx.Done()
		}
	}()
	return ch, nil
}

func text(s string) protocol.ProviderChunk {
	return protocol.ProviderChunk{Type: protocol.ChunkText, Text: s}
}

var done = protocol.ProviderChunk{Type: protocol.ChunkDone}

func emptyRequest() protocol.ProviderRequest {
	return protocol.ProviderRequest{Messages: []protocol.ProviderMessage{{Role: protocol.RoleUser, Content: "hi"}}, Tools: []protocol.ProviderToolSchema{}}
}

func providerHost(t *testing.T, prov *scripted) *testHost {
	t.Helper()
	h := startHost(t, &sdk.Plugin{Name: "demo", Version: "1", Providers: []sdk.Provider{prov}}, hostOptions{})
	h.handshake()
	return h
}

func (h *testHost) open(id string, seqBase int64) {
	h.t.Helper()
	raw, err := h.call(protocol.MethodStreamOpen, protocol.StreamOpenParams{
		StreamID: id, ProviderRef: "plugin/demo/p", Model: "m1", Effort: "low", Request: emptyRequest(), SeqBase: seqBase})
	if err != nil || string(raw) != `{"accepted":true}` {
		h.t.Fatalf("stream/open: %s, %v", raw, err)
	}
}

// collect gathers a stream's chunks up to its end and checks no second end
// follows.
func (h *testHost) collect() ([]protocol.StreamChunkParams, protocol.StreamEndParams) {
	h.t.Helper()
	end := recv(h.t, h.ends, "stream/end")
	var chunks []protocol.StreamChunkParams
	for len(h.chunks) > 0 {
		chunks = append(chunks, <-h.chunks)
	}
	none(h.t, h.ends, "second stream/end")
	none(h.t, h.chunks, "chunk after stream/end")
	return chunks, end
}

// frameOrder describes frames as "response" or "<kind> <method>".
func frameOrder(frames []ndjson.FrameInfo) []string {
	var out []string
	for _, f := range frames {
		if f.Kind == "response" || f.Kind == "error" {
			out = append(out, f.Kind)
		} else {
			out = append(out, f.Kind+" "+f.Method)
		}
	}
	return out
}

func TestStreamNumbersFromSeqBase(t *testing.T) {
	for _, tc := range []struct{ base, first int64 }{{5, 5}, {1, 1}, {0, 1}} {
		prov := &scripted{ref: "plugin/demo/p", chunks: []protocol.ProviderChunk{text("a"), text("b"), done}, reqs: make(chan sdk.StreamRequest, 1)}
		h := providerHost(t, prov)
		h.open("es_1", tc.base)
		req := recv(t, prov.reqs, "Stream call")
		if req.StreamID != "es_1" || req.ProviderRef != "plugin/demo/p" || req.Model != "m1" || req.Effort != "low" || len(req.Request.Messages) != 1 {
			t.Errorf("StreamRequest = %+v", req)
		}
		chunks, end := h.collect()
		if len(chunks) != 3 {
			t.Fatalf("base %d: %d chunks", tc.base, len(chunks))
		}
		for i, c := range chunks {
			if c.Seq != tc.first+int64(i) || c.StreamID != "es_1" {
				t.Errorf("base %d: chunk %d has seq %d stream %q", tc.base, i, c.Seq, c.StreamID)
			}
		}
		want := protocol.StreamEndParams{StreamID: "es_1", LastSeq: tc.first + 2}
		if end != want {
			t.Errorf("base %d: end %+v, want %+v", tc.base, end, want)
		}
	}
}

func TestStreamChunksFollowTheOpenAnswer(t *testing.T) {
	h := providerHost(t, &scripted{ref: "plugin/demo/p", chunks: []protocol.ProviderChunk{text("a"), done}})
	mark := h.frameCount()
	h.open("es_1", 1)
	h.collect()
	order := frameOrder(h.framesSince(mark))
	want := []string{"response", "notification " + protocol.MethodStreamChunk,
		"notification " + protocol.MethodStreamChunk, "notification " + protocol.MethodStreamEnd}
	if !reflect.DeepEqual(order, want) {
		t.Fatalf("frame order %q, want %q", order, want)
	}
}

func TestStreamEndsWithTheErrorChunkMessage(t *testing.T) {
	h := providerHost(t, &scripted{ref: "plugin/demo/p", chunks: []protocol.ProviderChunk{text("a"),
		{Type: protocol.ChunkError, Error: &protocol.ProviderError{Code: protocol.ProviderErrorFailed, Message: "upstream 503"}}}})
	h.open("es_1", 1)
	chunks, end := h.collect()
	if len(chunks) != 2 || chunks[1].Chunk.Type != protocol.ChunkError {
		t.Fatalf("chunks %+v", chunks)
	}
	if want := (protocol.StreamEndParams{StreamID: "es_1", LastSeq: 2, Error: "upstream 503"}); end != want {
		t.Fatalf("end %+v, want %+v", end, want)
	}
}

func TestStreamInvalidChunkEndsWithError(t *testing.T) {
	h := providerHost(t, &scripted{ref: "plugin/demo/p", chunks: []protocol.ProviderChunk{text("a"), {Type: protocol.ChunkUsage}, text("never")}})
	h.open("es_1", 1)
	chunks, end := h.collect()
	if len(chunks) != 1 || end.LastSeq != 1 || end.Interrupted || end.Error == "" {
		t.Fatalf("chunks %d, end %+v", len(chunks), end)
	}
	t.Logf("end error: %s", end.Error)
}

func TestStreamCancelInterrupts(t *testing.T) {
	h := providerHost(t, &scripted{ref: "plugin/demo/p", chunks: []protocol.ProviderChunk{text("a")}, hang: true})
	h.open("es_1", 1)
	recv(t, h.chunks, "first chunk")
	raw, err := h.call(protocol.MethodStreamCancel, protocol.StreamCancelParams{StreamID: "es_1"})
	if err != nil || string(raw) != `{"cancelled":true}` {
		t.Fatalf("cancel: %s %v", raw, err)
	}
	_, end := h.collect()
	if want := (protocol.StreamEndParams{StreamID: "es_1", LastSeq: 1, Interrupted: true}); end != want {
		t.Fatalf("end %+v, want %+v", end, want)
	}
	raw, err = h.call(protocol.MethodStreamCancel, protocol.StreamCancelParams{StreamID: "es_1"})
	if err != nil || string(raw) != `{"cancelled":false}` {
		t.Fatalf("cancel of an ended stream: %s %v", raw, err)
	}
}

func TestShutdownInterruptsStreamsFirst(t *testing.T) {
	h := providerHost(t, &scripted{ref: "plugin/demo/p", hang: true})
	h.open("es_1", 1)
	mark := h.frameCount()
	if _, err := h.call(protocol.MethodShutdown, protocol.ShutdownParams{TimeoutMillis: 2000}); err != nil {
		t.Fatal(err)
	}
	// The interrupted end was written before the shutdown answer.
	order := frameOrder(h.framesSince(mark))
	if want := []string{"notification " + protocol.MethodStreamEnd, "response"}; !reflect.DeepEqual(order, want) {
		t.Fatalf("frame order %q, want %q", order, want)
	}
	if end := recv(t, h.ends, "stream/end"); !end.Interrupted || end.LastSeq != 0 {
		t.Fatalf("end %+v", end)
	}
	if err := h.waitServe(); err != nil {
		t.Fatal(err)
	}
}

func TestStreamOpenErrors(t *testing.T) {
	h := providerHost(t, &scripted{ref: "plugin/demo/p", hang: true})
	open := func(p protocol.StreamOpenParams) error { _, err := h.call(protocol.MethodStreamOpen, p); return err }

	err := open(protocol.StreamOpenParams{StreamID: "es_1", ProviderRef: "plugin/demo/nope", Request: emptyRequest()})
	wantReason(t, err, protocol.ReasonInvalidParams, "unknown providerRef")

	err = open(protocol.StreamOpenParams{StreamID: "es_1", ProviderRef: "plugin/demo/p",
		Request: protocol.ProviderRequest{Tools: []protocol.ProviderToolSchema{}}})
	wantReason(t, err, protocol.ReasonInvalidParams, "request.messages")

	_, err = h.call(protocol.MethodStreamOpen, map[string]any{"streamId": "es_1", "providerRef": "plugin/demo/p", "seqBase": 1})
	wantReason(t, err, protocol.ReasonInvalidParams, "request")

	h.open("es_2", 1)
	err = open(protocol.StreamOpenParams{StreamID: "es_2", ProviderRef: "plugin/demo/p", Request: emptyRequest(), SeqBase: 1})
	wantReason(t, err, protocol.ReasonInvalidParams, "already open")
}

func TestCatalogListsEveryDescriptor(t *testing.T) {
	h := startHost(t, &sdk.Plugin{Name: "demo", Version: "1",
		Providers: []sdk.Provider{&scripted{ref: "plugin/demo/p"}, &scripted{ref: "plugin/demo/q"}}}, hostOptions{})
	h.handshake()
	var res protocol.ProviderCatalogResult
	if err := h.conn.Call(h.ctx(), protocol.MethodProviderCatalog, struct{}{}, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Providers) != 2 || res.Providers[0].Ref != "plugin/demo/p" || res.Providers[1].Ref != "plugin/demo/q" {
		t.Fatalf("catalog %+v", res)
	}
}
