package sdk

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// ErrDismissed is returned by the Request* methods when the user dismissed
// the prompt (the host answered {cancelled: true}).
var ErrDismissed = errors.New("sdk: prompt dismissed")

// Host is the host API of one connection. Every method that talks to the host
// blocks until extension/initialized has arrived (the protocol forbids
// extension traffic before it) or ctx is done. Surfaces and prompts carry the
// session and generation of extension/initialize.
type Host struct {
	conn      *ndjson.Conn
	ready     chan struct{}
	readyOnce sync.Once

	mu      sync.Mutex
	hasSess bool
	session protocol.SessionContext
	uiHost  protocol.UIHost
}

func newHost(c *ndjson.Conn) *Host { return &Host{conn: c, ready: make(chan struct{})} }

// setSession records the initialize params; false if already initialized.
func (h *Host) setSession(s protocol.SessionContext, ui protocol.UIHost) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.hasSess {
		return false
	}
	h.hasSess, h.session, h.uiHost = true, s, ui
	return true
}

func (h *Host) hasSession() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.hasSess
}

// markReady opens the barrier; false if it was already open.
func (h *Host) markReady() bool {
	first := false
	h.readyOnce.Do(func() { close(h.ready); first = true })
	return first
}

// wait blocks until extension/initialized, ctx end or connection end.
func (h *Host) wait(ctx context.Context) error {
	select {
	case <-h.ready:
		return nil
	default:
	}
	select {
	case <-h.ready:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("sdk: waiting for extension/initialized: %w", ctx.Err())
	case <-h.conn.Done():
		return fmt.Errorf("sdk: connection closed before extension/initialized: %w", h.conn.Err())
	}
}

// Session is the session of extension/initialize (zero before it).
func (h *Host) Session() protocol.SessionContext {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.session
}

// UIHost is the host's front end (desktop, headless, ...).
func (h *Host) UIHost() protocol.UIHost {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.uiHost
}

// PublishStatus publishes (or replaces, same surfaceID) a status surface.
// accepted is false when the host dropped it (stale generation or session).
func (h *Host) PublishStatus(ctx context.Context, surfaceID string, s protocol.StatusPayload) (accepted bool, err error) {
	return h.publish(ctx, protocol.PublishStatus, surfaceID, s)
}

// PublishCard publishes (or replaces) a card surface.
func (h *Host) PublishCard(ctx context.Context, surfaceID string, c protocol.CardPayload) (bool, error) {
	return h.publish(ctx, protocol.PublishCard, surfaceID, c)
}

// PublishForm publishes (or replaces) a form; submissions reach OnSubmit.
func (h *Host) PublishForm(ctx context.Context, surfaceID string, f protocol.FormPayload) (bool, error) {
	return h.publish(ctx, protocol.PublishForm, surfaceID, f)
}

// PublishNotification shows a transient notification.
func (h *Host) PublishNotification(ctx context.Context, surfaceID string, n protocol.NotificationPayload) (bool, error) {
	return h.publish(ctx, protocol.PublishNotification, surfaceID, n)
}

func (h *Host) publish(ctx context.Context, kind protocol.PublishKind, surfaceID string, payload any) (bool, error) {
	raw, err := json.Marshal(payload)
	if err != nil {
		return false, fmt.Errorf("sdk: encode %s: %w", kind, err)
	}
	// Check locally what the host would reject, with the same paths.
	if surfaceID == "" {
		return false, protocol.NewError(protocol.ReasonInvalidParams, "surfaceId: must not be empty")
	}
	if _, err := protocol.DecodeSurface(kind, raw); err != nil {
		return false, err
	}
	if err := h.wait(ctx); err != nil {
		return false, err
	}
	sess := h.Session()
	var res protocol.UIPublishResult
	err = h.conn.Call(ctx, protocol.MethodUIPublish, protocol.UIPublishParams{
		Kind: kind, SurfaceID: surfaceID, SessionID: sess.SessionID, Generation: sess.Generation, Payload: raw,
	}, &res)
	return res.Accepted, err
}

// RequestForm asks the user to fill f and returns the answered values keyed
// by field key (confirm: bool, input/select: string, multiselect: []any of
// strings), or ErrDismissed.
func (h *Host) RequestForm(ctx context.Context, surfaceID string, kind protocol.RequestKind, f protocol.FormPayload) (map[string]any, error) {
	raw, err := json.Marshal(f)
	if err != nil {
		return nil, fmt.Errorf("sdk: encode %s prompt: %w", kind, err)
	}
	if surfaceID == "" {
		return nil, protocol.NewError(protocol.ReasonInvalidParams, "surfaceId: must not be empty")
	}
	if _, err := protocol.DecodePrompt(kind, raw); err != nil {
		return nil, err
	}
	if err := h.wait(ctx); err != nil {
		return nil, err
	}
	sess := h.Session()
	var res protocol.UIRequestResult
	if err := h.conn.Call(ctx, protocol.MethodUIRequest, protocol.UIRequestParams{
		Kind: kind, SurfaceID: surfaceID, SessionID: sess.SessionID, Generation: sess.Generation, Payload: raw,
	}, &res); err != nil {
		return nil, err
	}
	if res.Cancelled {
		return nil, ErrDismissed
	}
	if res.Values == nil {
		res.Values = map[string]any{}
	}
	return res.Values, nil
}

// simple asks a one-field prompt keyed protocol.SimpleValueKey and returns
// values.value.
func (h *Host) simple(ctx context.Context, surfaceID string, kind protocol.RequestKind, title, message string, field protocol.FormField) (any, error) {
	field.Key = protocol.SimpleValueKey
	values, err := h.RequestForm(ctx, surfaceID, kind, protocol.FormPayload{Title: title, Message: message, Fields: []protocol.FormField{field}})
	if err != nil {
		return nil, err
	}
	v, ok := values[protocol.SimpleValueKey]
	if !ok {
		return nil, fmt.Errorf("sdk: the host answered the %s prompt without values.%s", kind, protocol.SimpleValueKey)
	}
	return v, nil
}

func wrongAnswer(kind protocol.RequestKind, want string, v any) error {
	return fmt.Errorf("sdk: the host answered the %s prompt with %T, want %s", kind, v, want)
}

// RequestConfirm asks a yes/no question.
func (h *Host) RequestConfirm(ctx context.Context, surfaceID, title, message string) (bool, error) {
	v, err := h.simple(ctx, surfaceID, protocol.RequestConfirm, title, message, protocol.FormField{Kind: protocol.FieldConfirm})
	if err != nil {
		return false, err
	}
	b, ok := v.(bool)
	if !ok {
		return false, wrongAnswer(protocol.RequestConfirm, "a boolean", v)
	}
	return b, nil
}

// RequestInput asks for a line of text; def pre-fills it.
func (h *Host) RequestInput(ctx context.Context, surfaceID, title, label, def string) (string, error) {
	field := protocol.FormField{Label: label, Kind: protocol.FieldInput}
	if def != "" {
		field.Default = def
	}
	v, err := h.simple(ctx, surfaceID, protocol.RequestInput, title, "", field)
	if err != nil {
		return "", err
	}
	s, ok := v.(string)
	if !ok {
		return "", wrongAnswer(protocol.RequestInput, "a string", v)
	}
	return s, nil
}

// RequestSelect asks for one of options.
func (h *Host) RequestSelect(ctx context.Context, surfaceID, title, label string, options []string) (string, error) {
	v, err := h.simple(ctx, surfaceID, protocol.RequestSelect, title, "",
		protocol.FormField{Label: label, Kind: protocol.FieldSelect, Options: options})
	if err != nil {
		return "", err
	}
	s, ok := v.(string)
	if !ok {
		return "", wrongAnswer(protocol.RequestSelect, "a string", v)
	}
	return s, nil
}

// RequestMultiSelect asks for any subset of options.
func (h *Host) RequestMultiSelect(ctx context.Context, surfaceID, title, label string, options []string) ([]string, error) {
	v, err := h.simple(ctx, surfaceID, protocol.RequestMultiselect, title, "",
		protocol.FormField{Label: label, Kind: protocol.FieldMultiselect, Options: options})
	if err != nil {
		return nil, err
	}
	list, ok := v.([]any)
	if !ok {
		return nil, wrongAnswer(protocol.RequestMultiselect, "an array of strings", v)
	}
	out := make([]string, 0, len(list))
	for _, item := range list {
		s, ok := item.(string)
		if !ok {
			return nil, wrongAnswer(protocol.RequestMultiselect, "an array of strings", item)
		}
		out = append(out, s)
	}
	return out, nil
}

// ReadContent reads a whole content object from the host content store, page
// by page (host/content/read), and verifies the host's totalBytes and sha256.
func (h *Host) ReadContent(ctx context.Context, ref string) ([]byte, error) {
	if err := h.wait(ctx); err != nil {
		return nil, err
	}
	var (
		buf    []byte
		total  int64 = -1
		sum    string
		offset int64
	)
	for {
		var page protocol.ContentReadResult
		if err := h.conn.Call(ctx, protocol.MethodContentRead, protocol.ContentReadParams{ContentRef: ref, Offset: offset}, &page); err != nil {
			return nil, fmt.Errorf("sdk: content %s at offset %d: %w", ref, offset, err)
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("sdk: content %s at offset %d: %s", ref, offset, fmt.Sprintf(format, args...))
		}
		switch {
		case page.ContentRef != ref:
			return nil, bad("host answered for contentRef %q", page.ContentRef)
		case page.Offset != offset:
			return nil, bad("host answered offset %d", page.Offset)
		case page.Encoding != protocol.EncodingUTF8:
			return nil, bad("unsupported encoding %q", page.Encoding)
		case total >= 0 && page.TotalBytes != total:
			return nil, bad("totalBytes mismatch: %d, earlier pages said %d", page.TotalBytes, total)
		case total >= 0 && !strings.EqualFold(page.SHA256, sum):
			return nil, bad("sha256 mismatch: %s, earlier pages said %s", page.SHA256, sum)
		case page.TotalBytes > protocol.ContentRefObjectBytes:
			return nil, bad("totalBytes %d exceeds the %d-byte object limit", page.TotalBytes, protocol.ContentRefObjectBytes)
		}
		total, sum = page.TotalBytes, page.SHA256
		data, err := base64.StdEncoding.DecodeString(page.DataBase64)
		if err != nil {
			return nil, bad("dataBase64: %v", err)
		}
		buf = append(buf, data...)
		if int64(len(buf)) > total {
			return nil, bad("totalBytes mismatch: host said %d, received at least %d", total, len(buf))
		}
		if page.NextOffset == 0 {
			break
		}
		if page.NextOffset != offset+int64(len(data)) || len(data) == 0 {
			return nil, bad("nextOffset %d does not follow a %d-byte page", page.NextOffset, len(data))
		}
		offset = page.NextOffset
	}
	if int64(len(buf)) != total {
		return nil, fmt.Errorf("sdk: content %s: totalBytes mismatch: host said %d, received %d", ref, total, len(buf))
	}
	got := sha256.Sum256(buf)
	if hex.EncodeToString(got[:]) != strings.ToLower(sum) {
		return nil, fmt.Errorf("sdk: content %s: sha256 mismatch: host said %s, content has %s", ref, sum, hex.EncodeToString(got[:]))
	}
	if buf == nil {
		buf = []byte{}
	}
	return buf, nil
}
