package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
)

func TestNewErrorUsesTheFrozenTable(t *testing.T) {
	tests := []struct {
		reason    Reason
		code      int
		retryable bool
	}{
		{ReasonUnknownMethod, CodeMethodNotFound, false},
		{ReasonInvalidParams, CodeInvalidParams, false},
		{ReasonProtocolError, CodeInvalidRequest, false},
		{ReasonInternal, CodeInternal, true},
		{ReasonInterceptTimeout, CodeDomain, true},
		{ReasonCapabilityNotDeclared, CodeDomain, false},
		{ReasonStreamGap, CodeDomain, true},
	}
	for _, tt := range tests {
		t.Run(string(tt.reason), func(t *testing.T) {
			e := NewError(tt.reason, "")
			if e.Code != tt.code || e.Data.Retryable != tt.retryable || e.Data.Reason != tt.reason {
				t.Fatalf("got %+v / %+v", e, e.Data)
			}
			spec, _ := LookupReason(tt.reason)
			if e.Message != spec.Message {
				t.Fatalf("empty message should use the table's: %q", e.Message)
			}
		})
	}
}

func TestUnknownReasonBecomesInternal(t *testing.T) {
	e := NewError("made_up", "")
	if e.Reason() != ReasonInternal || e.Code != CodeInternal {
		t.Fatalf("got %+v", e)
	}
}

func TestErrorWireShapeAndMatching(t *testing.T) {
	e := Errorf(ReasonStreamGap, "missing chunk %d of %d", 3, 5)
	b, _ := json.Marshal(e)
	want := `{"code":-32000,"message":"missing chunk 3 of 5","data":{"reason":"stream_gap","retryable":true}}`
	if string(b) != want {
		t.Fatalf("wire form\n got %s\nwant %s", b, want)
	}
	wrapped := fmt.Errorf("turn: %w", e)
	if !errors.Is(wrapped, NewError(ReasonStreamGap, "")) {
		t.Fatal("errors.Is by reason failed")
	}
	if errors.Is(wrapped, NewError(ReasonInternal, "")) {
		t.Fatal("errors.Is matched a different reason")
	}
	if ReasonOf(wrapped) != ReasonStreamGap {
		t.Fatal("ReasonOf")
	}
	if AsError(errors.New("boom")).Reason() != ReasonInternal {
		t.Fatal("AsError of a plain error")
	}
}
