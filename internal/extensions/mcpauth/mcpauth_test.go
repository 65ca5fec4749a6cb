package mcpauth_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reasonix/reasonix-desktop/internal/extensions/mcpauth"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/foundation/secrets"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// logBuf is a concurrency-safe log sink, to check no token reaches a log.
type logBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type rig struct {
	f     *fakeAuth
	store *secrets.Store
	b     *browser
	log   *logBuf
}

func newRig(t *testing.T, expiresIn int) *rig {
	return &rig{
		f:     newFakeAuth(t, expiresIn),
		store: secrets.Open(secrets.Options{Dir: t.TempDir(), Mode: secrets.ModeFile}),
		b:     &browser{},
		log:   &logBuf{},
	}
}

func (r *rig) auth(onDemand bool) *mcpauth.Auth {
	return mcpauth.New(mcpauth.Config{
		Secrets:        r.store,
		OpenBrowser:    r.b.open,
		Log:            slog.New(slog.NewTextHandler(r.log, &slog.HandlerOptions{Level: slog.LevelDebug})),
		SignInOnDemand: onDemand,
	})
}

// call connects the go-sdk's Streamable HTTP client to the fake server
// through a's handler and calls its echo tool.
func call(t *testing.T, a *mcpauth.Auth, endpoint string) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return callCtx(ctx, t, a, endpoint)
}

func callCtx(ctx context.Context, t *testing.T, a *mcpauth.Auth, endpoint string) error {
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	s, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, OAuthHandler: a.Handler("fake", endpoint), MaxRetries: -1}, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
	if err != nil {
		return err
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "hi" {
		t.Fatalf("echo answered %q", got)
	}
	return nil
}

// savedRecord reads what the sign-in left in the secrets store.
func savedRecord(t *testing.T, store *secrets.Store, endpoint string) (map[string]any, bool) {
	t.Helper()
	key, err := mcpauth.Key(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	v, ok, err := store.Get("mcp-oauth", "token "+key)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		return nil, false
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(v), &rec); err != nil {
		t.Fatalf("saved record %q: %v", v, err)
	}
	return rec, true
}

func accessToken(rec map[string]any) string {
	tok, _ := rec["token"].(map[string]any)
	s, _ := tok["access_token"].(string)
	return s
}

// SignIn runs the browser flow once and keeps the token in the secrets
// store (a 0600 file here), where a later process finds it: that one
// connects and calls with no browser at all.
func TestSignInKeepsTheTokenInSecrets(t *testing.T) {
	r := newRig(t, 3600)
	if err := r.auth(false).SignIn(context.Background(), "fake", r.f.endpoint()); err != nil {
		t.Fatal(err)
	}
	if r.b.count() != 1 {
		t.Fatalf("the browser was opened %d times, want 1", r.b.count())
	}
	rec, ok := savedRecord(t, r.store, r.f.endpoint())
	if !ok || !strings.HasPrefix(accessToken(rec), "access-") || rec["client_id"] != "client-1" {
		t.Fatalf("saved: %v %v", rec, ok)
	}
	fi, err := os.Stat(r.store.File())
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the credentials file: %v %v", fi, err)
	}

	later := r.auth(false) // another process, the same store
	st, err := later.Status("fake", r.f.endpoint()+"/")
	if err != nil || !st.SignedIn || !st.Refreshable || st.Grant != mcpauth.GrantAuthorizationCode || time.Until(st.Expires) < 50*time.Minute {
		t.Fatalf("status %+v %v", st, err)
	}
	if err := call(t, later, r.f.endpoint()); err != nil {
		t.Fatal(err)
	}
	if codes, refreshes := r.f.counts(); r.b.count() != 1 || codes != 1 || refreshes != 0 {
		t.Fatalf("browser %d, codes %d, refreshes %d: the saved token was not used as it was", r.b.count(), codes, refreshes)
	}
	for _, secret := range []string{accessToken(rec), rec["token"].(map[string]any)["refresh_token"].(string)} {
		if strings.Contains(r.log.String(), secret) {
			t.Fatalf("a token reached the log:\n%s", r.log.String())
		}
		if strings.Contains(redact.String("got "+secret), secret) {
			t.Fatalf("the redactor does not mask %q", secret)
		}
	}
}

// A token that expires within RefreshBefore is refreshed before it goes
// out, and the new one is saved; one far from expiry is sent as it is.
func TestRefreshBeforeExpiry(t *testing.T) {
	r := newRig(t, 30) // 30 s left: inside the 1 min margin, outside oauth2's 10 s
	if err := r.auth(false).SignIn(context.Background(), "fake", r.f.endpoint()); err != nil {
		t.Fatal(err)
	}
	first, _ := savedRecord(t, r.store, r.f.endpoint())
	if err := call(t, r.auth(false), r.f.endpoint()); err != nil {
		t.Fatal(err)
	}
	_, refreshes := r.f.counts()
	if refreshes == 0 {
		t.Fatal("a token 30 s from expiry went out without a refresh")
	}
	again, _ := savedRecord(t, r.store, r.f.endpoint())
	if accessToken(again) == accessToken(first) {
		t.Fatal("the refreshed token was not saved")
	}

	r2 := newRig(t, 3600)
	if err := r2.auth(false).SignIn(context.Background(), "fake", r2.f.endpoint()); err != nil {
		t.Fatal(err)
	}
	if err := call(t, r2.auth(false), r2.f.endpoint()); err != nil {
		t.Fatal(err)
	}
	if _, refreshes := r2.f.counts(); refreshes != 0 {
		t.Fatalf("a token an hour from expiry was refreshed %d times", refreshes)
	}
}

// A sign-in made by another process (`mcp login` in a terminal while the
// app runs) reaches a chat that was refused before, without a restart.
func TestSignInFromAnotherProcess(t *testing.T) {
	r := newRig(t, 3600)
	chat := r.auth(false)
	if err := call(t, chat, r.f.endpoint()); !errors.Is(err, mcpauth.ErrSignInRequired) {
		t.Fatalf("before sign-in: %v", err)
	}
	if err := r.auth(false).SignIn(context.Background(), "fake", r.f.endpoint()); err != nil {
		t.Fatal(err)
	}
	if err := call(t, chat, r.f.endpoint()); err != nil {
		t.Fatalf("after another process signed in: %v", err)
	}
}

// Two processes share one sign-in with an authorization server that
// rotates refresh tokens (each is good once): the one that refreshes
// second takes the first's new token instead of spending a dead one and
// losing the sign-in. Both run an hour on, where every token is expired.
func TestRotatedRefreshSharedAcrossProcesses(t *testing.T) {
	r := newRig(t, 3600)
	hourOn := func() time.Time { return time.Now().Add(time.Hour + time.Minute) }
	cfg := mcpauth.Config{Secrets: r.store, OpenBrowser: r.b.open}
	first := mcpauth.NewAt(cfg, hourOn)
	if err := first.SignIn(context.Background(), "fake", r.f.endpoint()); err != nil {
		t.Fatal(err)
	}
	r.f.mu.Lock()
	r.f.expiresIn = 3 * 3600 // refreshed tokens outlive the shifted clock
	r.f.mu.Unlock()
	if err := call(t, mcpauth.NewAt(cfg, hourOn), r.f.endpoint()); err != nil { // the other process refreshes
		t.Fatal(err)
	}
	if err := call(t, first, r.f.endpoint()); err != nil {
		t.Fatalf("the first process after the second refreshed: %v", err)
	}
	if st, err := first.Status("fake", r.f.endpoint()); err != nil || !st.SignedIn {
		t.Fatalf("status %+v %v", st, err)
	}
	if r.b.count() != 1 {
		t.Fatalf("the browser was opened %d times, want 1", r.b.count())
	}
}

// A token the server refuses (revoked) is refreshed once, without the
// user, and the request goes through.
func TestRefusedTokenIsRefreshed(t *testing.T) {
	r := newRig(t, 3600)
	if err := r.auth(false).SignIn(context.Background(), "fake", r.f.endpoint()); err != nil {
		t.Fatal(err)
	}
	r.f.revokeAll(false)
	if err := call(t, r.auth(false), r.f.endpoint()); err != nil {
		t.Fatal(err)
	}
	if _, refreshes := r.f.counts(); refreshes != 1 || r.b.count() != 1 {
		t.Fatalf("refreshes %d, browser %d", refreshes, r.b.count())
	}
}

// A sign-in the authorization server ended (its refresh token refused)
// is forgotten: Status says signed out, the store holds nothing, and the
// connection is refused with what to do.
func TestEndedSignInIsForgotten(t *testing.T) {
	r := newRig(t, 3600)
	if err := r.auth(false).SignIn(context.Background(), "fake", r.f.endpoint()); err != nil {
		t.Fatal(err)
	}
	r.f.revokeAll(true)
	a := r.auth(false)
	if err := call(t, a, r.f.endpoint()); !errors.Is(err, mcpauth.ErrSignInRequired) {
		t.Fatalf("got %v", err)
	}
	if st, err := a.Status("fake", r.f.endpoint()); err != nil || st.SignedIn {
		t.Fatalf("status %+v %v", st, err)
	}
	if _, ok := savedRecord(t, r.store, r.f.endpoint()); ok {
		t.Fatal("the ended sign-in is still saved")
	}
}

// SignOut forgets the token here and in the store; the next connection
// is refused with what to do.
func TestSignOutClears(t *testing.T) {
	r := newRig(t, 3600)
	a := r.auth(false)
	if err := a.SignIn(context.Background(), "fake", r.f.endpoint()); err != nil {
		t.Fatal(err)
	}
	if err := call(t, a, r.f.endpoint()); err != nil {
		t.Fatal(err)
	}
	if err := a.SignOut("fake", r.f.endpoint()); err != nil {
		t.Fatal(err)
	}
	if _, ok := savedRecord(t, r.store, r.f.endpoint()); ok {
		t.Fatal("the token is still in the secrets store")
	}
	if st, err := a.Status("fake", r.f.endpoint()); err != nil || st.SignedIn {
		t.Fatalf("status after sign-out: %+v %v", st, err)
	}
	if err := call(t, a, r.f.endpoint()); !errors.Is(err, mcpauth.ErrSignInRequired) {
		t.Fatalf("after sign-out: %v", err)
	}
	if r.b.count() != 1 {
		t.Fatalf("a chat's handler opened the browser (%d)", r.b.count())
	}
}

// A 401 no saved token fixes, on a chat's handler (no sign-in on demand),
// fails the connection with what the user can do, naming the server.
func TestUnauthorizedSaysWhatToDo(t *testing.T) {
	r := newRig(t, 3600)
	err := call(t, r.auth(false), r.f.endpoint())
	if !errors.Is(err, mcpauth.ErrSignInRequired) {
		t.Fatalf("got %v", err)
	}
	for _, want := range []string{"MCP server fake needs you to sign in", "reasonix-desktop mcp login fake", "Sign in"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	if r.b.count() != 0 {
		t.Fatal("the browser was opened without the user asking")
	}
	// With no browser at all, a handler that may sign in says the same.
	a := mcpauth.New(mcpauth.Config{Secrets: r.store, SignInOnDemand: true})
	if err := call(t, a, r.f.endpoint()); !errors.Is(err, mcpauth.ErrSignInRequired) {
		t.Fatalf("no browser: %v", err)
	}
}

// Where the user is at hand (SignInOnDemand), the first 401 runs the flow
// and the call goes through; two connections at once share one sign-in.
func TestSignInOnDemandOnce(t *testing.T) {
	r := newRig(t, 3600)
	a := r.auth(true)
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for range 2 {
		wg.Go(func() { errs <- call(t, a, r.f.endpoint()) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if codes, _ := r.f.counts(); codes != 1 || r.b.count() != 1 {
		t.Fatalf("%d sign-ins (browser %d) for two connections at once, want 1", codes, r.b.count())
	}
}

// A chat's connection does not wait out a sign-in left open in the
// browser: it gives up with its own context (a start's handshake bound),
// and the sign-in still completes.
func TestWaitForASignInEndsWithTheContext(t *testing.T) {
	r := newRig(t, 3600)
	opened, release := make(chan struct{}), make(chan struct{})
	a := mcpauth.New(mcpauth.Config{Secrets: r.store, OpenBrowser: func(u string) error {
		close(opened)
		<-release // the user has not come back yet
		return r.b.open(u)
	}})
	signedIn := make(chan error, 1)
	go func() { signedIn <- a.SignIn(context.Background(), "fake", r.f.endpoint()) }()
	<-opened
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- callCtx(ctx, t, a, r.f.endpoint()) }()
	guard := time.NewTimer(20 * time.Second)
	defer guard.Stop()
	select {
	case err := <-done:
		// The SDK's words differ with where its connect was: the deadline,
		// or ours, which names the sign-in it waited for.
		if !errors.Is(err, context.DeadlineExceeded) && !strings.Contains(fmt.Sprint(err), "sign-in to fake under way") {
			t.Errorf("got %v", err)
		}
	case <-guard.C:
		t.Error("the connection was still waiting for the browser 20 s on")
	}
	close(release)
	if err := <-signedIn; err != nil {
		t.Fatal(err)
	}
	if err := call(t, a, r.f.endpoint()); err != nil {
		t.Fatal(err)
	}
}

// Sign in to a server that wants none says so, for a Streamable HTTP
// server and for an SSE one (whose endpoint takes no POST).
func TestSignInToAnOpenServer(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "open", Version: "1"}, nil)
	for name, h := range map[string]http.Handler{
		"streamable": mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil),
		"sse":        mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil),
	} {
		ts := httptest.NewServer(h)
		a := mcpauth.New(mcpauth.Config{Secrets: secrets.Open(secrets.Options{Dir: t.TempDir(), Mode: secrets.ModeFile}), OpenBrowser: func(string) error { return errors.New("not wanted") }})
		if err := a.SignIn(context.Background(), "open", ts.URL); !errors.Is(err, mcpauth.ErrNotRequired) {
			t.Errorf("%s: got %v", name, err)
		}
		ts.Close()
	}
}

func TestKey(t *testing.T) {
	for in, want := range map[string]string{
		"https://MCP.Example.com:443/mcp/": "https://mcp.example.com/mcp",
		"http://127.0.0.1:8080/mcp#x":      "http://127.0.0.1:8080/mcp",
		"https://u:p@example.com/a?b=1":    "https://example.com/a?b=1",
	} {
		if got, err := mcpauth.Key(in); err != nil || got != want {
			t.Errorf("Key(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "stdio", "file:///x", "https://"} {
		if _, err := mcpauth.Key(bad); err == nil {
			t.Errorf("Key(%q) took it", bad)
		}
	}
}
