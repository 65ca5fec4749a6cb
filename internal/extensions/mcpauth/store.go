package mcpauth

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/foundation/secrets"
)

// Secrets is where tokens and client credentials are kept:
// *secrets.Store (the OS keyring, or a 0600 file where none answers).
type Secrets interface {
	Get(plugin, name string) (string, bool, error)
	Set(plugin, name, value string) error
	Delete(plugin, name string) error
}

// secretsPlugin is the "plugin" half of every account this package saves
// under in the secrets store; the name half is "token <url>" or
// "client <url>".
const secretsPlugin = "mcp-oauth"

// Grants a Client may ask for.
const (
	// GrantAuto (the zero value): the authorization code flow, unless the
	// server's authorization server offers client_credentials and not
	// authorization_code and the Client has a secret or a key.
	GrantAuto              = ""
	GrantAuthorizationCode = "authorization_code"
	GrantClientCredentials = "client_credentials"
)

// Client is a client the user registered with a server's authorization
// server themselves (the server's documentation gives its ID and secret),
// saved with SetClient. Without one, the host registers itself dynamically.
type Client struct {
	ID     string `json:"client_id"`
	Secret string `json:"client_secret,omitempty"`
	// PrivateKeyPEM signs a JWT client assertion (private_key_jwt,
	// RFC 7523) instead of sending a secret: a PKCS#8 or SEC1 EC key (ES256)
	// or an RSA key (RS256). It implies the client credentials grant.
	PrivateKeyPEM string `json:"private_key_pem,omitempty"`
	// SigningAlg is the JWT's alg: ES256 or RS256 (from the key when empty).
	SigningAlg string `json:"signing_alg,omitempty"`
	// Grant is GrantAuto, GrantAuthorizationCode or GrantClientCredentials.
	Grant string `json:"grant,omitempty"`
}

// record is what a sign-in leaves in the secrets store: the token and
// what refreshing it needs (the client and the token endpoint), so a
// token saved yesterday refreshes today without a new sign-in.
type record struct {
	Server       string        `json:"server,omitempty"` // the name it was signed in as, for Status
	Grant        string        `json:"grant"`
	ClientID     string        `json:"client_id,omitempty"`
	ClientSecret string        `json:"client_secret,omitempty"`
	Issuer       string        `json:"issuer,omitempty"`
	Resource     string        `json:"resource,omitempty"`
	AuthURL      string        `json:"auth_url,omitempty"`
	TokenURL     string        `json:"token_url"`
	AuthStyle    int           `json:"auth_style,omitempty"`
	Scopes       []string      `json:"scopes,omitempty"`
	Token        *oauth2.Token `json:"token"`
	Saved        time.Time     `json:"saved"`
}

func (r *record) oauthConfig() *oauth2.Config {
	return &oauth2.Config{
		ClientID:     r.ClientID,
		ClientSecret: r.ClientSecret,
		Endpoint: oauth2.Endpoint{
			AuthURL:   r.AuthURL,
			TokenURL:  r.TokenURL,
			AuthStyle: oauth2.AuthStyle(r.AuthStyle),
		},
		Scopes: r.Scopes,
	}
}

// Key is the canonical form of a server URL tokens are saved under:
// scheme and host lower-cased, default port, fragment and trailing slash
// dropped. Two spellings of one server share a sign-in.
func Key(serverURL string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(serverURL))
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("%q is not an http(s) URL of an MCP server", serverURL)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	if p := u.Port(); (u.Scheme == "https" && p == "443") || (u.Scheme == "http" && p == "80") {
		u.Host = u.Hostname()
	}
	u.Fragment, u.RawFragment = "", ""
	u.User = nil
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u.String(), nil
}

func loadJSON[T any](s Secrets, name string) (*T, error) {
	v, ok, err := s.Get(secretsPlugin, name)
	if err != nil {
		return nil, fmt.Errorf("read the saved sign-in: %w", err)
	}
	if !ok || v == "" {
		return nil, nil
	}
	var t T
	if err := json.Unmarshal([]byte(v), &t); err != nil {
		return nil, fmt.Errorf("the saved sign-in %q is not valid (sign in again): %w", name, err)
	}
	return &t, nil
}

func saveJSON(s Secrets, name string, v any) error {
	b, err := json.Marshal(v) // compact: no line break, as the store needs
	if err != nil {
		return fmt.Errorf("encode the sign-in: %w", err)
	}
	if err := s.Set(secretsPlugin, name, string(b)); err != nil {
		return fmt.Errorf("save the sign-in: %w", err)
	}
	return nil
}

func deleteSecret(s Secrets, name string) error {
	if err := s.Delete(secretsPlugin, name); err != nil && !errors.Is(err, secrets.ErrNotFound) {
		return fmt.Errorf("forget the sign-in: %w", err)
	}
	return nil
}

// mask registers every secret a record or client holds with the redactor,
// so a token that shows up in an error or a log line is masked by value.
func mask(r *record, c *Client) {
	var env []string
	if r != nil {
		if r.Token != nil {
			env = append(env, "MCP_OAUTH_ACCESS_TOKEN="+r.Token.AccessToken, "MCP_OAUTH_REFRESH_TOKEN="+r.Token.RefreshToken)
		}
		env = append(env, "MCP_OAUTH_CLIENT_SECRET="+r.ClientSecret)
	}
	if c != nil {
		env = append(env, "MCP_OAUTH_CLIENT_SECRET="+c.Secret)
		for _, line := range strings.Split(c.PrivateKeyPEM, "\n") {
			// The body's lines; the armour (-----BEGIN …-----) is no secret,
			// and masking it everywhere would hide what a key file is.
			if line = strings.TrimSpace(line); !strings.HasPrefix(line, "-----") {
				env = append(env, "MCP_OAUTH_PRIVATE_KEY="+line)
			}
		}
	}
	redact.RegisterEnviron(env)
}
