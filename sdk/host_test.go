package sdk_test

import (
	"errors"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/sdk"
)

// readyHost starts a plugin and returns its *sdk.Host after the handshake.
func readyHost(t *testing.T, o hostOptions) (*testHost, *sdk.Host) {
	t.Helper()
	hosts := make(chan *sdk.Host, 1)
	h := startHost(t, &sdk.Plugin{Name: "demo", Version: "1", OnInitialized: hostFrom(hosts)}, o)
	h.handshake()
	host := recv(t, hosts, "OnInitialized")
	if host.Session().SessionID != "sess-1" || host.Session().WorkspaceRoot != "/work/space" || host.UIHost() != protocol.UIHostHeadless {
		t.Fatalf("session %+v ui %s", host.Session(), host.UIHost())
	}
	return h, host
}

func TestPromptAnswers(t *testing.T) {
	answers := map[protocol.RequestKind]any{
		protocol.RequestConfirm: true, protocol.RequestInput: "Ada",
		protocol.RequestSelect: "green", protocol.RequestMultiselect: []string{"go", "json"},
	}
	h, host := readyHost(t, hostOptions{answer: func(p protocol.UIRequestParams) protocol.UIRequestResult {
		return protocol.UIRequestResult{Values: map[string]any{protocol.SimpleValueKey: answers[p.Kind]}}
	}})
	ctx := h.ctx()

	ok, err := host.RequestConfirm(ctx, "ask", "Proceed?", "Really?")
	if err != nil || !ok {
		t.Fatalf("confirm: %v %v", ok, err)
	}
	checkPrompt(t, recv(t, h.requests, "confirm"), protocol.RequestConfirm, protocol.FormPayload{Title: "Proceed?", Message: "Really?",
		Fields: []protocol.FormField{{Key: "value", Kind: protocol.FieldConfirm}}})

	s, err := host.RequestInput(ctx, "ask", "Name", "Your name", "Bob")
	if err != nil || s != "Ada" {
		t.Fatalf("input: %q %v", s, err)
	}
	checkPrompt(t, recv(t, h.requests, "input"), protocol.RequestInput, protocol.FormPayload{Title: "Name",
		Fields: []protocol.FormField{{Key: "value", Label: "Your name", Kind: protocol.FieldInput, Default: "Bob"}}})

	s, err = host.RequestSelect(ctx, "ask", "Color", "Pick one", []string{"red", "green"})
	if err != nil || s != "green" {
		t.Fatalf("select: %q %v", s, err)
	}
	checkPrompt(t, recv(t, h.requests, "select"), protocol.RequestSelect, protocol.FormPayload{Title: "Color",
		Fields: []protocol.FormField{{Key: "value", Label: "Pick one", Kind: protocol.FieldSelect, Options: []string{"red", "green"}}}})

	list, err := host.RequestMultiSelect(ctx, "ask", "Tags", "Pick some", []string{"go", "json", "yaml"})
	if err != nil || !reflect.DeepEqual(list, []string{"go", "json"}) {
		t.Fatalf("multiselect: %q %v", list, err)
	}
	checkPrompt(t, recv(t, h.requests, "multiselect"), protocol.RequestMultiselect, protocol.FormPayload{Title: "Tags",
		Fields: []protocol.FormField{{Key: "value", Label: "Pick some", Kind: protocol.FieldMultiselect, Options: []string{"go", "json", "yaml"}}}})

	values, err := host.RequestForm(ctx, "ask", protocol.RequestInput, protocol.FormPayload{Fields: []protocol.FormField{{Key: "value", Kind: protocol.FieldInput}}})
	if err != nil || values["value"] != "Ada" {
		t.Fatalf("form: %v %v", values, err)
	}
}

func checkPrompt(t *testing.T, p protocol.UIRequestParams, kind protocol.RequestKind, want protocol.FormPayload) {
	t.Helper()
	if p.Kind != kind || p.SurfaceID != "ask" || p.SessionID != "sess-1" || p.Generation != 7 {
		t.Errorf("%s request params %+v", kind, p)
	}
	var got protocol.FormPayload
	if err := protocol.DecodeStrict(p.Payload, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s payload\n got %+v\nwant %+v", kind, got, want)
	}
}

func TestPromptDismissedAndWrongAnswers(t *testing.T) {
	var dismiss atomic.Bool
	dismiss.Store(true)
	h, host := readyHost(t, hostOptions{answer: func(p protocol.UIRequestParams) protocol.UIRequestResult {
		if dismiss.Load() {
			return protocol.UIRequestResult{Cancelled: true}
		}
		return protocol.UIRequestResult{Values: map[string]any{"value": 42}}
	}})
	ctx := h.ctx()
	check := func(what string, want error) {
		t.Helper()
		var err error
		switch what {
		case "confirm":
			_, err = host.RequestConfirm(ctx, "ask", "t", "m")
		case "input":
			_, err = host.RequestInput(ctx, "ask", "t", "l", "")
		case "select":
			_, err = host.RequestSelect(ctx, "ask", "t", "l", []string{"a"})
		case "multiselect":
			_, err = host.RequestMultiSelect(ctx, "ask", "t", "l", []string{"a"})
		}
		if want != nil && !errors.Is(err, want) || want == nil && (err == nil || errors.Is(err, sdk.ErrDismissed)) {
			t.Errorf("%s: err %v", what, err)
		}
		recv(t, h.requests, what)
	}
	for _, k := range []string{"confirm", "input", "select", "multiselect"} {
		check(k, sdk.ErrDismissed)
	}
	dismiss.Store(false)
	for _, k := range []string{"confirm", "input", "select", "multiselect"} {
		check(k, nil)
	}
}

func TestPromptAndPublishValidatedLocally(t *testing.T) {
	h, host := readyHost(t, hostOptions{})
	ctx := h.ctx()
	_, err := host.RequestSelect(ctx, "ask", "t", "l", nil)
	wantReason(t, err, protocol.ReasonInvalidParams, "options")
	_, err = host.PublishStatus(ctx, "s", protocol.StatusPayload{})
	wantReason(t, err, protocol.ReasonInvalidParams, "label")
	_, err = host.PublishNotification(ctx, "", protocol.NotificationPayload{Title: "x"})
	wantReason(t, err, protocol.ReasonInvalidParams, "surfaceId")
	none(t, h.requests, "request")
	none(t, h.publishes, "publish")
}

func TestPublishKinds(t *testing.T) {
	h, host := readyHost(t, hostOptions{})
	ctx := h.ctx()
	one := 1.0
	for _, publish := range []func() (bool, error){
		func() (bool, error) {
			return host.PublishStatus(ctx, "s", protocol.StatusPayload{Label: "ok", Progress: &one})
		},
		func() (bool, error) {
			return host.PublishCard(ctx, "c", protocol.CardPayload{Title: "t", Actions: []protocol.ActionRef{{ActionID: "a", Label: "A"}}})
		},
		func() (bool, error) {
			return host.PublishForm(ctx, "f", protocol.FormPayload{Fields: []protocol.FormField{{Key: "k", Kind: protocol.FieldInput}}})
		},
		func() (bool, error) {
			return host.PublishNotification(ctx, "n", protocol.NotificationPayload{Title: "hi"})
		},
	} {
		if ok, err := publish(); !ok || err != nil {
			t.Fatalf("publish: %v %v", ok, err)
		}
	}
	var kinds []protocol.PublishKind
	for range 4 {
		kinds = append(kinds, recv(t, h.publishes, "publish").Kind)
	}
	if want := []protocol.PublishKind{"status", "card", "form", "notification"}; !reflect.DeepEqual(kinds, want) {
		t.Fatalf("kinds %v", kinds)
	}
}

func TestReadContentPagesAndVerifies(t *testing.T) {
	data := []byte(strings.Repeat("0123456789", 2_500)) // 25000 bytes: 3 pages of 10000
	for _, tc := range []struct {
		name string
		lie  func(*protocol.ContentReadResult)
		want string
	}{
		{"honest", nil, ""},
		{"wrong sha", func(p *protocol.ContentReadResult) { p.SHA256 = strings.Repeat("ab", 32) }, "sha256 mismatch"},
		{"wrong total", func(p *protocol.ContentReadResult) { p.TotalBytes = 24_000 }, "totalBytes mismatch"},
		{"short total", func(p *protocol.ContentReadResult) { p.TotalBytes = 26_000 }, "totalBytes mismatch"},
		{"total changes", func(p *protocol.ContentReadResult) { p.TotalBytes += p.Offset }, "totalBytes mismatch"},
		{"bad next", func(p *protocol.ContentReadResult) {
			if p.NextOffset != 0 {
				p.NextOffset++
			}
		}, "nextOffset"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			serve := contentPages("content_3", data, 10_000, tc.lie)
			h, host := readyHost(t, hostOptions{content: func(p protocol.ContentReadParams) (any, error) {
				calls++
				return serve(p)
			}})
			got, err := host.ReadContent(h.ctx(), "content_3")
			if tc.want == "" {
				if err != nil || string(got) != string(data) || calls != 3 {
					t.Fatalf("read %d bytes in %d calls: %v", len(got), calls, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

func TestReadContentUnknownRef(t *testing.T) {
	h, host := readyHost(t, hostOptions{content: contentPages("content_4", []byte("{}"), 10, nil)})
	_, err := host.ReadContent(h.ctx(), "content_nope")
	if protocol.ReasonOf(err) != protocol.ReasonContentRefExpired {
		t.Fatalf("err %v", err)
	}
	got, err := host.ReadContent(h.ctx(), "content_4")
	if err != nil || string(got) != "{}" {
		t.Fatalf("%q %v", got, err)
	}
}
