package sdk

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// payloadPointer is the only externalized location of intercept and event
// payloads.
const payloadPointer = "/payload"

// eventRehydrateTimeout bounds fetching an externalized event payload.
const eventRehydrateTimeout = 30 * time.Second

// replacementLimit leaves room for the response envelope in one frame.
const replacementLimit = protocol.FrameBytes - 1<<10

func (s *server) intercept(ctx context.Context, params json.RawMessage) (any, error) {
	var ip protocol.InterceptParams
	if err := protocol.DecodeStrict(params, &ip); err != nil {
		return nil, invalidParams(protocol.MethodIntercept, err)
	}
	f := s.p.Interceptors[ip.Event]
	if f == nil {
		f = s.p.Interceptors[AnyPoint]
	}
	if f == nil {
		return protocol.InterceptResult{Decision: protocol.DecisionContinue}, nil
	}
	timeout := time.Duration(ip.TimeoutMillis) * time.Millisecond
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	payload, err := s.rehydrate(ctx, ip.Payload, ip.Externalized)
	if err != nil {
		return nil, err
	}
	d, err := f(ctx, &InterceptCall{Point: ip.Event, Seq: ip.Seq, Timeout: timeout, Payload: payload, Host: s.host})
	if err != nil {
		return nil, err
	}
	return encodeDecision(d)
}

// encodeDecision turns a Decision into the wire result. The replacement always
// travels inline.
func encodeDecision(d Decision) (protocol.InterceptResult, error) {
	kind := d.Kind
	if kind == "" {
		kind = protocol.DecisionContinue
	}
	res := protocol.InterceptResult{Decision: kind, Reason: d.Reason}
	switch kind {
	case protocol.DecisionContinue, protocol.DecisionBlock, protocol.DecisionAllow, protocol.DecisionDeny:
		if d.Replacement != nil {
			return res, protocol.Errorf(protocol.ReasonInternal, "a %s decision cannot carry a replacement", kind)
		}
	case protocol.DecisionReplace:
		if d.Replacement == nil {
			return res, protocol.NewError(protocol.ReasonInternal, "a replace decision needs a replacement")
		}
		raw, err := json.Marshal(d.Replacement)
		if err != nil {
			return res, protocol.Errorf(protocol.ReasonInternal, "encode replacement: %v", err)
		}
		if string(raw) == "null" {
			return res, protocol.NewError(protocol.ReasonInternal, "a replace decision needs a non-null replacement")
		}
		if len(raw) > replacementLimit {
			return res, protocol.Errorf(protocol.ReasonInternal,
				"replacement too large: %d bytes (limit %d)", len(raw), replacementLimit)
		}
		res.Replacement = raw
	default:
		return res, protocol.Errorf(protocol.ReasonInternal, "unknown decision %q", kind)
	}
	return res, nil
}

// rehydrate returns the payload, fetching it from the host content store when
// it was externalized at /payload, and verifying its size and SHA-256 against
// the descriptor.
func (s *server) rehydrate(ctx context.Context, payload json.RawMessage, ext []protocol.ExternalizedField) (json.RawMessage, error) {
	var desc *protocol.ExternalizedField
	for i := range ext {
		if ext[i].JSONPointer != payloadPointer {
			return nil, protocol.Errorf(protocol.ReasonInternal,
				"externalized field %q is not supported (only %s)", ext[i].JSONPointer, payloadPointer)
		}
		desc = &ext[i]
	}
	if desc == nil {
		return payload, nil
	}
	if p := bytes.TrimSpace(payload); len(p) > 0 && string(p) != "null" {
		return nil, protocol.NewError(protocol.ReasonInvalidParams, "payload: must be null when /payload is externalized")
	}
	data, err := s.host.ReadContent(ctx, desc.ContentRef)
	if err != nil {
		return nil, protocol.Errorf(protocol.ReasonInternal, "rehydrate %s: %v", payloadPointer, err)
	}
	if int64(len(data)) != desc.TotalBytes {
		return nil, protocol.Errorf(protocol.ReasonInternal,
			"rehydrate %s: totalBytes mismatch: descriptor says %d, content has %d", payloadPointer, desc.TotalBytes, len(data))
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); !strings.EqualFold(got, desc.SHA256) {
		return nil, protocol.Errorf(protocol.ReasonInternal,
			"rehydrate %s: sha256 mismatch: descriptor says %s, content has %s", payloadPointer, desc.SHA256, got)
	}
	if !json.Valid(data) {
		return nil, protocol.Errorf(protocol.ReasonInternal, "rehydrate %s: content is not valid JSON", payloadPointer)
	}
	return data, nil
}

// event is registered only when the plugin has an Observer.
func (s *server) event(ctx context.Context, params json.RawMessage) {
	var ep protocol.EventParams
	if err := protocol.DecodeStrict(params, &ep); err != nil {
		s.log.Warn("dropping malformed extension/event", "err", err)
		return
	}
	rctx, cancel := context.WithTimeout(ctx, eventRehydrateTimeout)
	payload, err := s.rehydrate(rctx, ep.Payload, ep.Externalized)
	cancel()
	if err != nil {
		s.log.Warn("dropping extension/event", "event", ep.Event, "err", err)
		return
	}
	s.p.Observer(ctx, Event{Point: ep.Event, Payload: payload})
}

func (s *server) resourcesChanged(ctx context.Context, params json.RawMessage) {
	if s.p.OnResourcesChanged == nil {
		return
	}
	var rp protocol.ResourcesChangedParams
	if err := protocol.DecodeStrict(params, &rp); err != nil {
		s.log.Warn("dropping malformed extension/resources/changed", "err", err)
		return
	}
	s.p.OnResourcesChanged(ctx, rp.Paths)
}

func (s *server) uiAction(ctx context.Context, params json.RawMessage) (any, error) {
	var ap protocol.UIActionParams
	if err := protocol.DecodeStrict(params, &ap); err != nil {
		return nil, invalidParams(protocol.MethodUIAction, err)
	}
	a := s.p.action(ap.ActionID)
	if a == nil {
		// As the Reasonix SDK answers: not accepted, with the reason, rather
		// than a protocol error (the params themselves were valid).
		return protocol.UIActionResult{Accepted: false, Message: fmt.Sprintf("unknown action %q", ap.ActionID)}, nil
	}
	msg, err := a.Handler(ctx, ActionContext{
		ActionID: ap.ActionID, SessionID: ap.SessionID, Generation: ap.Generation, Args: ap.Args, Host: s.host,
	})
	if err != nil {
		s.log.Warn("action failed", "action", ap.ActionID, "err", err)
		if msg == "" {
			msg = err.Error()
		}
	}
	return protocol.UIActionResult{Accepted: err == nil, Message: msg}, nil
}

func (s *server) uiSubmit(ctx context.Context, params json.RawMessage) (any, error) {
	var sp protocol.UISubmitParams
	if err := protocol.DecodeStrict(params, &sp); err != nil {
		return nil, invalidParams(protocol.MethodUISubmit, err)
	}
	values := sp.Values
	if values == nil {
		values = map[string]any{}
	}
	err := s.p.OnSubmit(ctx, Submission{
		SurfaceID: sp.SurfaceID, SessionID: sp.SessionID, Generation: sp.Generation, Values: values, Host: s.host,
	})
	if err != nil {
		s.log.Warn("submit failed", "surface", sp.SurfaceID, "err", err)
	}
	return protocol.UISubmitResult{Accepted: err == nil}, nil
}
