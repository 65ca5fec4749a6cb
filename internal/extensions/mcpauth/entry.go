package mcpauth

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"golang.org/x/oauth2"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// entry is one server's sign-in, shared by every handler of its URL. It
// is the oauth2.TokenSource the transport asks before each request.
type entry struct {
	a   *Auth
	key string

	// flow is held through one authorization, the browser's wait
	// included (minutes): a channel, so a waiter gives up with its context.
	flow chan struct{}

	mu           sync.Mutex // guards what follows; held through a refresh, so one runs at a time
	loaded       bool
	rec          *record
	clientLoaded bool
	client       *Client
}

// loadLocked reads the saved sign-in once.
func (e *entry) loadLocked() error {
	if e.loaded {
		return nil
	}
	rec, err := loadJSON[record](e.a.cfg.Secrets, "token "+e.key)
	if err != nil {
		return err
	}
	e.rec, e.loaded = rec, true
	mask(rec, nil)
	return nil
}

// reloadLocked reads the saved sign-in again: another process (the CLI's
// `mcp login`, another window) may have signed in, refreshed or signed
// out since. Read where it matters only (a 401, a refresh, Status), not
// per request: a keyring read is a D-Bus round trip. On a failed read
// what is in memory stays.
func (e *entry) reloadLocked() error {
	rec, err := loadJSON[record](e.a.cfg.Secrets, "token "+e.key)
	if err != nil {
		return err
	}
	e.rec, e.loaded = rec, true
	mask(rec, nil)
	return nil
}

// reload is reloadLocked for a caller without the lock.
func (e *entry) reload() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.reloadLocked(); err != nil {
		e.a.cfg.Log.Info("the saved MCP sign-in could not be read again", "url", e.key, "error", redact.String(err.Error()))
	}
}

func (e *entry) loadClient() (*Client, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.loadClientLocked()
}

func (e *entry) loadClientLocked() (*Client, error) {
	if !e.clientLoaded {
		c, err := loadJSON[Client](e.a.cfg.Secrets, "client "+e.key)
		if err != nil {
			return nil, err
		}
		e.client, e.clientLoaded = c, true
		mask(nil, c)
	}
	if e.client == nil {
		return nil, nil
	}
	c := *e.client
	return &c, nil
}

// store keeps a new sign-in, in memory and in the secrets store. A store
// that fails is logged: the token still serves this process.
func (e *entry) store(r *record) {
	r.Saved = e.a.cfg.now()
	mask(r, nil)
	e.mu.Lock()
	e.rec, e.loaded = r, true
	e.mu.Unlock()
	if err := saveJSON(e.a.cfg.Secrets, "token "+e.key, r); err != nil {
		e.a.cfg.Log.Warn("the MCP sign-in could not be saved: it lasts until the app quits", "url", e.key, "error", redact.String(err.Error()))
	}
}

// usable: a token goes out with the next request (valid, or renewable).
func (e *entry) usable() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.loadLocked() != nil || e.rec == nil || e.rec.Token == nil {
		return false
	}
	return e.validLocked() || e.canRefreshLocked()
}

// access is the access token a request would carry now ("" for none).
func (e *entry) access() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.loadLocked() != nil || e.rec == nil || e.rec.Token == nil || !e.validLocked() {
		return ""
	}
	return e.rec.Token.AccessToken
}

func (e *entry) validLocked() bool {
	t := e.rec.Token
	return t.AccessToken != "" && (t.Expiry.IsZero() || e.a.cfg.now().Before(t.Expiry))
}

func (e *entry) canRefreshLocked() bool {
	r := e.rec
	switch {
	case r == nil || r.Token == nil:
		return false
	case r.Grant == GrantClientCredentials:
		return e.clientLoaded && e.client != nil || !e.clientLoaded
	default:
		return r.Token.RefreshToken != "" && r.TokenURL != ""
	}
}

// Token gives the access token, refreshed first when it expires within
// RefreshBefore. A refresh that fails while the old token still lives
// keeps the old one (the next request tries again).
func (e *entry) Token() (*oauth2.Token, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.loadLocked(); err != nil {
		return nil, err
	}
	if e.rec == nil || e.rec.Token == nil {
		// The transport sends no header on invalid_grant: the 401 that
		// follows brings Authorize, which says what to do.
		return nil, &oauth2.RetrieveError{ErrorCode: "invalid_grant", ErrorDescription: "not signed in"}
	}
	if e.freshLocked() {
		return cloneToken(e.rec.Token), nil
	}
	// Another process may have refreshed it already (and a rotating
	// authorization server has then spent the refresh token we hold).
	if e.reloadLocked() == nil {
		if e.rec == nil || e.rec.Token == nil {
			return nil, &oauth2.RetrieveError{ErrorCode: "invalid_grant", ErrorDescription: "signed out"}
		}
		if e.freshLocked() {
			return cloneToken(e.rec.Token), nil
		}
	}
	t := e.rec.Token
	nt, err := e.refreshLocked()
	if err != nil {
		if e.validLocked() {
			e.a.cfg.Log.Info("an MCP token could not be refreshed early; it is used until it expires", "url", e.key, "error", redact.String(err.Error()))
			return cloneToken(t), nil
		}
		e.forgetIfDeadLocked(err, t.RefreshToken)
		return nil, err
	}
	return cloneToken(nt), nil
}

// freshLocked: the token in hand goes out as it is (not within
// RefreshBefore of its expiry).
func (e *entry) freshLocked() bool {
	t := e.rec.Token
	return t.AccessToken != "" && (t.Expiry.IsZero() || e.a.cfg.now().Add(e.a.cfg.RefreshBefore).Before(t.Expiry))
}

// forceRefresh renews the token now (a server refused it).
func (e *entry) forceRefresh() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.loadLocked(); err != nil {
		return err
	}
	if !e.canRefreshLocked() {
		return errors.New("no refresh token")
	}
	tried := e.rec.Token.RefreshToken
	_, err := e.refreshLocked()
	e.forgetIfDeadLocked(err, tried)
	return err
}

// forgetIfDeadLocked drops a sign-in the authorization server ended (it
// refused the refresh token: invalid_grant), so Status says so and the
// next 401 asks the user instead of retrying a dead token.
// A sign-in another process saved meanwhile (a new refresh token) is
// taken instead of deleted.
func (e *entry) forgetIfDeadLocked(err error, tried string) {
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) || re.ErrorCode != "invalid_grant" {
		return
	}
	if e.reloadLocked() == nil && e.rec != nil && e.rec.Token != nil && e.rec.Token.RefreshToken != tried {
		return
	}
	e.rec = nil
	if err := deleteSecret(e.a.cfg.Secrets, "token "+e.key); err != nil {
		e.a.cfg.Log.Warn("an ended MCP sign-in could not be removed", "url", e.key, "error", redact.String(err.Error()))
	}
	e.a.cfg.Log.Info("an MCP sign-in ended: the authorization server refused its refresh", "url", e.key)
}

// refreshLocked gets a new access token: with the refresh token, or for
// a client credentials sign-in with the client again. The result is saved.
func (e *entry) refreshLocked() (*oauth2.Token, error) {
	r := *e.rec
	ctx, cancel := context.WithTimeout(context.Background(), refreshTimeout)
	defer cancel()
	var nt *oauth2.Token
	var err error
	if r.Grant == GrantClientCredentials {
		if _, err := e.loadClientLocked(); err != nil {
			return nil, err
		}
		if e.client == nil {
			return nil, errors.New("the client of this sign-in is gone")
		}
		nt, err = clientCredentialsToken(ctx, e.a.cfg.HTTPClient, &r, e.client, e.a.cfg.now)
	} else {
		if r.Token.RefreshToken == "" {
			return nil, &oauth2.RetrieveError{ErrorCode: "invalid_grant", ErrorDescription: "no refresh token"}
		}
		ctx = context.WithValue(ctx, oauth2.HTTPClient, e.a.cfg.HTTPClient)
		// A source over a token with no access token refreshes at once.
		nt, err = r.oauthConfig().TokenSource(ctx, &oauth2.Token{RefreshToken: r.Token.RefreshToken}).Token()
		if err == nil && nt.RefreshToken == "" {
			nt.RefreshToken = r.Token.RefreshToken // the server kept the old one valid
		}
	}
	if err != nil {
		return nil, fmt.Errorf("refresh the sign-in: %w", err)
	}
	r.Token = nt
	r.Saved = e.a.cfg.now()
	mask(&r, nil)
	e.rec = &r
	if err := saveJSON(e.a.cfg.Secrets, "token "+e.key, &r); err != nil {
		e.a.cfg.Log.Warn("a refreshed MCP token could not be saved", "url", e.key, "error", redact.String(err.Error()))
	}
	e.a.cfg.Log.Info("MCP token refreshed", "url", e.key, "expires", nt.Expiry)
	return nt, nil
}

func cloneToken(t *oauth2.Token) *oauth2.Token {
	c := *t
	return &c
}
