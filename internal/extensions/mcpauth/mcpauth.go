package mcpauth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// Defaults of Config.
const (
	// DefaultSignInTimeout bounds the wait for the browser to come back
	// to the loopback redirect: a user who closed the tab is not waited
	// for forever.
	DefaultSignInTimeout = 5 * time.Minute
	// DefaultRefreshBefore: a token is refreshed this long before it
	// expires, so a request never leaves with a token about to die on the
	// way (oauth2's own margin is 10 s).
	DefaultRefreshBefore = time.Minute
	// refreshTimeout bounds one refresh (a TokenSource has no context).
	refreshTimeout = 30 * time.Second
)

// Config configures an Auth.
type Config struct {
	// Secrets keeps tokens and clients (required): *secrets.Store.
	Secrets Secrets
	// OpenBrowser shows the user the authorization page (the window's
	// OpenURL; the CLI prints the address and tries xdg-open/open/start).
	// Nil: no sign-in can run, only saved tokens are used.
	OpenBrowser func(url string) error
	// Log gets what happened (signed in, refreshed, failed), never a value.
	Log *slog.Logger
	// HTTPClient makes the discovery, registration and token requests
	// (http.DefaultClient when nil).
	HTTPClient *http.Client
	// SignInOnDemand lets a Handler run the browser flow itself on a 401
	// (where the user is at hand: `mcp call`, the conformance client).
	// False: a 401 no saved token fixes is a *SignInError.
	SignInOnDemand bool
	// SignInTimeout bounds the wait for the browser (DefaultSignInTimeout).
	SignInTimeout time.Duration
	// RefreshBefore is how long before expiry a token is refreshed
	// (DefaultRefreshBefore).
	RefreshBefore time.Duration
	// ClientName is the client_name of a dynamic registration.
	ClientName string
	// ClientIDMetadataURL, if set, is an https URL serving this client's
	// metadata document (SEP-991): used as the client ID where the
	// authorization server accepts such documents.
	ClientIDMetadataURL string
	// Command is the CLI named in a SignInError ("reasonix-desktop").
	Command string

	now func() time.Time // tests
}

// Auth holds every remote server's sign-in. Safe for concurrent use; one
// per process (handlers of the same server share its token).
type Auth struct {
	cfg Config

	mu      sync.Mutex
	entries map[string]*entry
}

// New returns an Auth. Nothing is read until a server is used.
func New(cfg Config) *Auth {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = http.DefaultClient
	}
	if cfg.SignInTimeout <= 0 {
		cfg.SignInTimeout = DefaultSignInTimeout
	}
	if cfg.RefreshBefore <= 0 {
		cfg.RefreshBefore = DefaultRefreshBefore
	}
	if cfg.ClientName == "" {
		cfg.ClientName = "Reasonix Desktop"
	}
	if cfg.Command == "" {
		cfg.Command = "reasonix-desktop"
	}
	if cfg.now == nil {
		cfg.now = time.Now
	}
	return &Auth{cfg: cfg, entries: map[string]*entry{}}
}

// SignInError is a 401 the host cannot fix on its own: the user has to
// sign in. Its text says how.
type SignInError struct {
	Server  string // the server's name
	URL     string
	Command string // the CLI
	Err     error  // why the flow did not run or failed; nil: not signed in
}

// ErrSignInRequired matches every *SignInError (errors.Is).
var ErrSignInRequired = errors.New("sign-in required")

func (e *SignInError) Error() string {
	name := e.Server
	if name == "" || strings.ContainsAny(name, " \t'\"$`\\") {
		name = "'" + strings.ReplaceAll(name, "'", `'\''`) + "'"
	}
	what := "needs you to sign in"
	if e.Err != nil {
		what = "could not sign in (" + redact.String(e.Err.Error()) + ")"
	}
	return fmt.Sprintf("MCP server %s %s: run `%s mcp login %s`, or press Sign in in the window's MCP servers", name, what, e.Command, name)
}

// Unwrap gives the cause, and ErrSignInRequired.
func (e *SignInError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrSignInRequired}
	}
	return []error{ErrSignInRequired, e.Err}
}

// ErrNotRequired: SignIn found a server that answers without a sign-in.
var ErrNotRequired = errors.New("the server answers without a sign-in")

// Handler is the go-sdk OAuthHandler of one server, for the Streamable
// HTTP transport (mcp.Options.OAuth). A URL that is not http(s) gets a
// handler that never authorizes.
func (a *Auth) Handler(name, serverURL string) auth.OAuthHandler {
	e, err := a.entry(serverURL)
	if err != nil {
		return badURL{err}
	}
	return &handler{e: e, name: name}
}

// SignIn signs in to the server now (the window's Sign in, `mcp login`):
// it asks the server without a token, and runs the flow its 401 names,
// opening the browser for the user; a token saved before is replaced. It
// returns ErrNotRequired for a server that answers without one.
func (a *Auth) SignIn(ctx context.Context, name, serverURL string) error {
	e, err := a.entry(serverURL)
	if err != nil {
		return err
	}
	req, resp, err := probe(ctx, a.cfg.HTTPClient, serverURL)
	if err != nil {
		return fmt.Errorf("sign in to %s: %w", name, err)
	}
	if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		drain(resp) // an SSE stream too: closing it ends it
		if resp.StatusCode/100 == 2 {
			return fmt.Errorf("sign in to %s: %w", name, ErrNotRequired)
		}
		return fmt.Errorf("sign in to %s: the server answered %s", name, resp.Status)
	}
	return e.authorize(ctx, name, req, resp, true, true) // logs the sign-in
}

// SignOut forgets the server's tokens, here and in the secrets store. A
// client saved with SetClient is kept (it is configuration, not a
// sign-in).
func (a *Auth) SignOut(name, serverURL string) error {
	e, err := a.entry(serverURL)
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.rec, e.loaded = nil, true
	if err := deleteSecret(a.cfg.Secrets, "token "+e.key); err != nil {
		return fmt.Errorf("sign out of %s: %w", name, err)
	}
	a.cfg.Log.Info("signed out of an MCP server", "server", name, "url", e.key)
	return nil
}

// Status is a server's sign-in as the user sees it.
type Status struct {
	SignedIn    bool      // a token is saved
	Grant       string    // GrantAuthorizationCode or GrantClientCredentials
	Expires     time.Time // the access token's expiry (zero: none given)
	Refreshable bool      // it renews itself without the user
	Scopes      []string
	Saved       time.Time // when it was obtained or last refreshed
}

// Status reports the server's sign-in.
func (a *Auth) Status(name, serverURL string) (Status, error) {
	e, err := a.entry(serverURL)
	if err != nil {
		return Status{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.reloadLocked(); err != nil {
		return Status{}, fmt.Errorf("the sign-in of %s: %w", name, err)
	}
	r := e.rec
	if r == nil || r.Token == nil {
		return Status{}, nil
	}
	return Status{
		SignedIn:    true,
		Grant:       r.Grant,
		Expires:     r.Token.Expiry,
		Refreshable: e.canRefreshLocked(),
		Scopes:      append([]string(nil), r.Scopes...),
		Saved:       r.Saved,
	}, nil
}

// SetClient saves a client the user registered with the server's
// authorization server (an ID and a secret or a key); a zero Client
// forgets it.
func (a *Auth) SetClient(serverURL string, c Client) error {
	e, err := a.entry(serverURL)
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.client, e.clientLoaded = nil, true
	if c == (Client{}) {
		return deleteSecret(a.cfg.Secrets, "client "+e.key)
	}
	if c.ID == "" {
		return errors.New("a client needs its client ID")
	}
	mask(nil, &c)
	if err := saveJSON(a.cfg.Secrets, "client "+e.key, c); err != nil {
		return err
	}
	e.client = &c
	return nil
}

func (a *Auth) entry(serverURL string) (*entry, error) {
	key, err := Key(serverURL)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	e := a.entries[key]
	if e == nil {
		e = &entry{a: a, key: key, flow: make(chan struct{}, 1)}
		a.entries[key] = e
	}
	return e, nil
}

// handler is one server's OAuthHandler; the token is its entry's.
type handler struct {
	e    *entry
	name string
}

func (h *handler) TokenSource(context.Context) (oauth2.TokenSource, error) {
	if h.e.usable() {
		return h.e, nil
	}
	// No header: the server's 401 brings Authorize, which says what to do.
	return nil, nil
}

func (h *handler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	return h.e.authorize(ctx, h.name, req, resp, h.e.a.cfg.SignInOnDemand, false)
}

// badURL is the handler of an entry whose URL cannot be signed in to.
type badURL struct{ err error }

func (b badURL) TokenSource(context.Context) (oauth2.TokenSource, error) { return nil, nil }
func (b badURL) Authorize(_ context.Context, _ *http.Request, resp *http.Response) error {
	drain(resp)
	return b.err
}

// authorize answers a 401 or 403. interactive: the browser flow may run;
// explicit: the user asked (SignIn), so a token in hand is not reused.
func (e *entry) authorize(ctx context.Context, name string, req *http.Request, resp *http.Response, interactive, explicit bool) error {
	challenges, _ := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if resp.StatusCode == http.StatusForbidden && !insufficientScope(challenges) {
		// A refusal no token changes: the retry reports it as it is.
		drain(resp)
		return nil
	}
	// One flow at a time per server: the chats sharing it wait for it,
	// as long as their context lets them (a start's handshake bound is
	// not stretched by a browser left open).
	select {
	case e.flow <- struct{}{}:
		defer func() { <-e.flow }()
	case <-ctx.Done():
		drain(resp)
		return fmt.Errorf("waiting for the sign-in to %s under way: %w", name, ctx.Err())
	}
	e.reload() // a sign-in another process made counts

	sent := strings.TrimPrefix(req.Header.Get("Authorization"), "Bearer ")
	if !explicit {
		if cur := e.access(); cur != "" && cur != sent {
			// Signed in or refreshed while this request was out.
			drain(resp)
			return nil
		}
		if resp.StatusCode == http.StatusUnauthorized && sent != "" {
			// The server refused a token we hold: one refresh may mend it.
			err := e.forceRefresh()
			if err == nil {
				drain(resp)
				return nil
			}
			e.a.cfg.Log.Info("refreshing a refused MCP token failed", "server", name, "error", redact.String(err.Error()))
		}
	}

	c, err := e.loadClient()
	if err != nil {
		drain(resp)
		return &SignInError{Server: name, URL: e.key, Command: e.a.cfg.Command, Err: err}
	}
	if c != nil && c.Grant != GrantAuthorizationCode && (c.Secret != "" || c.PrivateKeyPEM != "") {
		d, err := discover(ctx, e.a.cfg.HTTPClient, req, resp)
		if err != nil {
			drain(resp)
			return &SignInError{Server: name, URL: e.key, Command: e.a.cfg.Command, Err: err}
		}
		if c.Grant == GrantClientCredentials || c.PrivateKeyPEM != "" || d.clientCredentialsOnly() {
			drain(resp)
			if err := e.clientCredentials(ctx, name, d, c); err != nil {
				return &SignInError{Server: name, URL: e.key, Command: e.a.cfg.Command, Err: err}
			}
			return nil
		}
	}

	if !interactive {
		drain(resp)
		return &SignInError{Server: name, URL: e.key, Command: e.a.cfg.Command}
	}
	if e.a.cfg.OpenBrowser == nil {
		drain(resp)
		return &SignInError{Server: name, URL: e.key, Command: e.a.cfg.Command, Err: errors.New("no browser can be opened here")}
	}
	if err := e.authorizationCode(ctx, name, req, resp, c); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("sign in to %s: %w", name, err)
		}
		return &SignInError{Server: name, URL: e.key, Command: e.a.cfg.Command, Err: err}
	}
	e.a.cfg.Log.Info("signed in to an MCP server", "server", name, "url", e.key)
	return nil
}

func insufficientScope(cs []oauthex.Challenge) bool {
	for _, c := range cs {
		if c.Scheme == "bearer" && c.Params["error"] == "insufficient_scope" {
			return true
		}
	}
	return false
}

// drain closes a response Authorize was handed (it owns the body).
func drain(resp *http.Response) {
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
}
