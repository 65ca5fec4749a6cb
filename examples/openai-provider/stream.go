package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/sdk"
)

// errUnreachable is the user-facing text of a request that got no answer.
var errUnreachable = errors.New("could not reach the provider")

// statusError is an HTTP error status, described without the body: error
// bodies may echo the request, the account or part of the key.
type statusError int

func (e statusError) Error() string {
	code := int(e)
	switch {
	case code == http.StatusTooManyRequests:
		return fmt.Sprintf("rate limited by the provider (HTTP %d); retry later", code)
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return fmt.Sprintf("the server rejected the API key (HTTP %d)", code)
	case code == http.StatusNotFound:
		return fmt.Sprintf("the provider rejected the request (HTTP %d); check the base URL and the model name", code)
	case code >= 400 && code < 500:
		return fmt.Sprintf("the provider rejected the request (HTTP %d)", code)
	case code >= 500:
		return fmt.Sprintf("the provider failed (HTTP %d)", code)
	}
	return fmt.Sprintf("the provider answered with an unexpected status (HTTP %d)", code)
}

// provider streams chat completions from one OpenAI-compatible server.
type provider struct {
	cfg     config
	client  *http.Client
	catalog []modelSpec
	log     *slog.Logger
}

func newProvider(cfg config, log *slog.Logger) *provider {
	return &provider{cfg: cfg, client: newHTTPClient(cfg.baseURL), catalog: cfg.models, log: log}
}

// newHTTPClient has no overall timeout (a stream lasts as long as the
// answer; cancellation ends it) and refuses redirects off the base URL's
// host, so the key is only ever sent where the user pointed it.
func newHTTPClient(base string) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	baseURL, _ := url.Parse(base)
	return &http.Client{Transport: tr, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if baseURL == nil || req.URL.Scheme != baseURL.Scheme || req.URL.Host != baseURL.Host || len(via) >= 5 {
			return http.ErrUseLastResponse
		}
		return nil
	}}
}

func (p *provider) Descriptors() []protocol.ProviderDescriptor {
	out := make([]protocol.ProviderDescriptor, 0, len(p.catalog))
	for _, m := range p.catalog {
		out = append(out, m.descriptor(p.cfg.prefix))
	}
	return out
}

// spec returns the catalog entry of model (zero settings when unknown).
func (p *provider) spec(model string) modelSpec {
	for _, m := range p.catalog {
		if m.Name == model {
			return m
		}
	}
	return modelSpec{Name: model}
}

func (p *provider) Stream(ctx context.Context, req sdk.StreamRequest) (<-chan protocol.ProviderChunk, error) {
	model := req.Model
	if model == "" && len(p.catalog) > 0 {
		model = p.catalog[0].Name
	}
	if model == "" {
		return nil, errors.New("no model was requested and none is configured (set OPENAI_MODELS)")
	}
	body, err := encodeRequest(buildRequest(req, model, p.spec(model)))
	if err != nil {
		return nil, err
	}
	ch := make(chan protocol.ProviderChunk)
	go p.run(ctx, req.StreamID, body, ch)
	return ch, nil
}

// run performs one request and closes ch. Failures end the stream with an
// error chunk carrying a generic message; a cancelled ctx just closes ch (the
// SDK reports the stream as interrupted).
func (p *provider) run(ctx context.Context, streamID string, body []byte, ch chan<- protocol.ProviderChunk) {
	defer close(ch)
	emit := func(c protocol.ProviderChunk) bool {
		select {
		case ch <- c:
			return true
		case <-ctx.Done():
			return false
		}
	}
	err := p.do(ctx, body, emit)
	if err == nil || ctx.Err() != nil {
		return
	}
	msg := publicMessage(err)
	p.log.Warn("stream failed", "stream", streamID, "error", msg)
	emit(protocol.ProviderChunk{Type: protocol.ChunkError,
		Error: &protocol.ProviderError{Code: protocol.ProviderErrorFailed, Message: msg}})
}

func (p *provider) do(ctx context.Context, body []byte, emit func(protocol.ProviderChunk) bool) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.cfg.baseURL+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("build the chat request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	p.authorize(req)
	resp, err := p.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		p.log.Warn("chat request got no answer", "cause", netCause(err))
		return errUnreachable
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		// Read a little so the connection can be reused; never log it.
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		p.log.Warn("chat request refused", "status", resp.StatusCode)
		return statusError(resp.StatusCode)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		// Reading goes on (some servers mislabel their streams), but a JSON
		// answer means the server ignored "stream": true.
		p.log.Warn("the answer is not labelled as an event stream", "contentType", ct)
	}
	a := newAssembler(emit)
	if err := readSSE(resp.Body, a.event); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	return a.done()
}

// authorize adds the key, when there is one, to a request for the base URL.
func (p *provider) authorize(req *http.Request) {
	if p.cfg.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+p.cfg.apiKey)
	}
}

// publicMessage is the text the user sees for err: one of the generic
// messages, never a wrapped cause (which could name the endpoint).
func publicMessage(err error) string {
	var se statusError
	switch {
	case errors.As(err, &se):
		return se.Error()
	case errors.Is(err, errUnreachable):
		return errUnreachable.Error()
	case errors.Is(err, errMidStream):
		return errMidStream.Error()
	case errors.Is(err, errMalformed):
		return errMalformed.Error()
	}
	return errStreamEnded.Error()
}

// netCause classifies a transport error for the log without the URL (a
// *url.Error prints it, and a URL may carry credentials).
func netCause(err error) string {
	var (
		dnsErr  *net.DNSError
		certErr *tls.CertificateVerificationError
		netErr  net.Error
	)
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded):
		return "timeout"
	case errors.As(err, &dnsErr):
		return "dns lookup failed"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.As(err, &certErr):
		return "tls certificate not trusted"
	case errors.As(err, &netErr) && netErr.Timeout():
		return "timeout"
	}
	return "network error"
}
