package protocol

import (
	"errors"
	"fmt"
	"sort"
)

// JSON-RPC 2.0 error codes used by the protocol.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternal       = -32603
	CodeDomain         = -32000
)

// Reason is a frozen error reason of the v2 error table.
type Reason string

// The frozen error table, sorted by reason.
const (
	ReasonActivationFailed        Reason = "activation_failed"
	ReasonBrowserCancelled        Reason = "browser_cancelled"
	ReasonBrowserOriginMismatch   Reason = "browser_origin_mismatch"
	ReasonBrowserPermissionDenied Reason = "browser_permission_denied"
	ReasonBrowserStaleRef         Reason = "browser_stale_ref"
	ReasonBrowserTabBusy          Reason = "browser_tab_busy"
	ReasonBrowserTabNotFound      Reason = "browser_tab_not_found"
	ReasonBrowserTimeout          Reason = "browser_timeout"
	ReasonBrowserUnavailable      Reason = "browser_unavailable"
	ReasonCapabilityNotDeclared   Reason = "capability_not_declared"
	ReasonCleanupFailed           Reason = "cleanup_failed"
	ReasonContentRefExpired       Reason = "content_ref_expired"
	ReasonDependencyCycle         Reason = "dependency_cycle"
	ReasonDependencyUnsatisfied   Reason = "dependency_unsatisfied"
	ReasonFrameTooLarge           Reason = "frame_too_large"
	ReasonInterceptTimeout        Reason = "intercept_timeout"
	ReasonInternal                Reason = "internal"
	ReasonInvalidParams           Reason = "invalid_params"
	ReasonProtocolError           Reason = "protocol_error"
	ReasonProviderFailed          Reason = "provider_failed"
	ReasonProviderInterrupted     Reason = "provider_interrupted"
	ReasonSchemaMismatch          Reason = "schema_mismatch"
	ReasonShutdownTimeout         Reason = "shutdown_timeout"
	ReasonStaleGeneration         Reason = "stale_generation"
	ReasonStreamCancelled         Reason = "stream_cancelled"
	ReasonStreamGap               Reason = "stream_gap"
	ReasonUnknownMethod           Reason = "unknown_method"
	ReasonUnsupportedVersion      Reason = "unsupported_version"
)

// ErrorSpec is one row of the frozen error table.
type ErrorSpec struct {
	Reason      Reason `json:"reason"`
	JSONRPCCode int    `json:"jsonRpcCode"`
	Message     string `json:"message"`
	Retryable   bool   `json:"retryable"`
}

var errorTable = map[Reason]ErrorSpec{}

func init() {
	for _, s := range []ErrorSpec{
		{ReasonActivationFailed, CodeDomain, "Component activation failed; the new generation was not published.", false},
		{ReasonBrowserCancelled, CodeDomain, "The browser call was cancelled by runtime drain, sidecar disconnect, or the caller.", false},
		{ReasonBrowserOriginMismatch, CodeDomain, "The tab origin does not match the expected origin.", false},
		{ReasonBrowserPermissionDenied, CodeDomain, "The browser action was denied by a sensitive-field, permission, or human-input gate.", false},
		{ReasonBrowserStaleRef, CodeDomain, "The element ref is no longer valid after navigation.", false},
		{ReasonBrowserTabBusy, CodeDomain, "The tab, renderer, lease, or pending request limit is exhausted.", true},
		{ReasonBrowserTabNotFound, CodeDomain, "The tab does not exist or does not belong to this chat.", false},
		{ReasonBrowserTimeout, CodeDomain, "The browser wait or action timed out.", true},
		{ReasonBrowserUnavailable, CodeDomain, "The browser host API is unavailable or the companion cannot start.", true},
		{ReasonCapabilityNotDeclared, CodeDomain, "The extension used a capability its manifest did not declare.", false},
		{ReasonCleanupFailed, CodeDomain, "Component cleanup failed while disposing scoped effects.", true},
		{ReasonContentRefExpired, CodeDomain, "The referenced content has expired.", true},
		{ReasonDependencyCycle, CodeDomain, "The dependency graph contains a required cycle.", false},
		{ReasonDependencyUnsatisfied, CodeDomain, "A required dependency is missing or not version-compatible.", false},
		{ReasonFrameTooLarge, CodeDomain, "The frame exceeds the frozen protocol size limit.", false},
		{ReasonInterceptTimeout, CodeDomain, "The extension did not answer an intercept within its timeout.", true},
		{ReasonInternal, CodeInternal, "An internal extension protocol error occurred.", true},
		{ReasonInvalidParams, CodeInvalidParams, "The params do not match the registered method schema.", false},
		{ReasonProtocolError, CodeInvalidRequest, "The extension protocol frame or envelope is invalid.", false},
		{ReasonProviderFailed, CodeDomain, "The extension provider stream failed.", true},
		{ReasonProviderInterrupted, CodeDomain, "The extension provider stream was interrupted.", true},
		{ReasonSchemaMismatch, CodeDomain, "A capability schema hash does not match the expected pin.", false},
		{ReasonShutdownTimeout, CodeDomain, "The extension did not shut down within the requested timeout.", true},
		{ReasonStaleGeneration, CodeDomain, "The message belongs to a superseded runtime generation.", false},
		{ReasonStreamCancelled, CodeDomain, "The provider stream was cancelled.", false},
		{ReasonStreamGap, CodeDomain, "A provider stream chunk is missing from the ordered sequence.", true},
		{ReasonUnknownMethod, CodeMethodNotFound, "The method is not registered in Extension Protocol v2.", false},
		{ReasonUnsupportedVersion, CodeDomain, "The peer's extension protocol version is not supported.", false},
	} {
		errorTable[s.Reason] = s
	}
}

// ErrorTable returns the frozen error table sorted by reason.
func ErrorTable() []ErrorSpec {
	out := make([]ErrorSpec, 0, len(errorTable))
	for _, s := range errorTable {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Reason < out[j].Reason })
	return out
}

// LookupReason returns the table row of a reason.
func LookupReason(r Reason) (ErrorSpec, bool) {
	s, ok := errorTable[r]
	return s, ok
}

// ErrorData is the structured data of a protocol error
// (ProtocolErrorData {reason, retryable} on the wire).
type ErrorData struct {
	Reason    Reason `json:"reason"`
	Retryable bool   `json:"retryable"`
}

// Error is a JSON-RPC error object as it travels on the wire. It implements
// error so handlers can return it and callers can inspect it with errors.As.
type Error struct {
	Code    int        `json:"code"`
	Message string     `json:"message"`
	Data    *ErrorData `json:"data,omitempty"`
}

func (e *Error) Error() string {
	if e.Data != nil && e.Data.Reason != "" {
		return fmt.Sprintf("%s (%d): %s", e.Data.Reason, e.Code, e.Message)
	}
	return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message)
}

// Reason returns the error's reason, or "" when it carries none.
func (e *Error) Reason() Reason {
	if e == nil || e.Data == nil {
		return ""
	}
	return e.Data.Reason
}

// Is lets errors.Is match two protocol errors by reason, so callers can write
// errors.Is(err, protocol.NewError(protocol.ReasonStreamGap, "")).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok {
		return false
	}
	return t.Reason() != "" && t.Reason() == e.Reason()
}

// NewError builds the wire error of a reason from the frozen table. An empty
// message uses the table's message. Unknown reasons become internal errors so
// a typo can never put a non-frozen reason on the wire.
func NewError(r Reason, message string) *Error {
	spec, ok := errorTable[r]
	if !ok {
		spec = errorTable[ReasonInternal]
		if message == "" {
			message = fmt.Sprintf("unknown error reason %q", r)
		}
	}
	if message == "" {
		message = spec.Message
	}
	return &Error{Code: spec.JSONRPCCode, Message: message, Data: &ErrorData{Reason: spec.Reason, Retryable: spec.Retryable}}
}

// Errorf is NewError with a formatted message.
func Errorf(r Reason, format string, args ...any) *Error {
	return NewError(r, fmt.Sprintf(format, args...))
}

// ReasonOf extracts the protocol reason of an error chain, or "" if none.
func ReasonOf(err error) Reason {
	var pe *Error
	if errors.As(err, &pe) {
		return pe.Reason()
	}
	return ""
}

// AsError converts any error to a wire error: protocol errors pass through,
// everything else becomes an internal error carrying err's message.
func AsError(err error) *Error {
	var pe *Error
	if errors.As(err, &pe) {
		return pe
	}
	return NewError(ReasonInternal, err.Error())
}
