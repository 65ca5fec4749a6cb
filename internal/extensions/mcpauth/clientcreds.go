package mcpauth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// clientCredentials signs in with the client alone (RFC 6749 §4.4): no
// user, no browser. The token is kept like any other; "refreshing" it is
// asking again.
func (e *entry) clientCredentials(ctx context.Context, name string, d *discovery, c *Client) error {
	r := &record{
		Server:    name,
		Grant:     GrantClientCredentials,
		ClientID:  c.ID,
		Issuer:    d.asm.Issuer,
		Resource:  d.resource,
		TokenURL:  d.asm.TokenEndpoint,
		AuthStyle: int(secretStyle(d.asm.TokenEndpointAuthMethodsSupported)),
		Scopes:    d.scopes,
	}
	if r.TokenURL == "" {
		return errors.New("the authorization server names no token endpoint")
	}
	tok, err := clientCredentialsToken(ctx, e.a.cfg.HTTPClient, r, c, e.a.cfg.now)
	if err != nil {
		return err
	}
	r.Token = tok
	e.store(r)
	e.a.cfg.Log.Info("signed in to an MCP server with client credentials", "server", name, "url", e.key)
	return nil
}

// clientCredentialsToken asks the token endpoint for a token with the
// client's secret, or with a JWT signed by its key (RFC 7523 §2.2), made
// anew for every request (a JWT is single-use: jti, a short exp).
func clientCredentialsToken(ctx context.Context, hc *http.Client, r *record, c *Client, now func() time.Time) (*oauth2.Token, error) {
	cfg := clientcredentials.Config{
		ClientID:       c.ID,
		ClientSecret:   c.Secret,
		TokenURL:       r.TokenURL,
		Scopes:         r.Scopes,
		AuthStyle:      oauth2.AuthStyle(r.AuthStyle),
		EndpointParams: resourceParam(r.Resource),
	}
	if c.PrivateKeyPEM != "" {
		aud := r.Issuer
		if aud == "" {
			aud = r.TokenURL
		}
		jwt, err := clientAssertion(c, aud, now())
		if err != nil {
			return nil, err
		}
		cfg.ClientSecret = ""
		cfg.AuthStyle = oauth2.AuthStyleInParams
		cfg.EndpointParams.Set("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
		cfg.EndpointParams.Set("client_assertion", jwt)
	}
	tok, err := cfg.Token(context.WithValue(ctx, oauth2.HTTPClient, hc))
	if err != nil {
		return nil, fmt.Errorf("client credentials token request: %w", err)
	}
	return tok, nil
}

// secretStyle picks how the secret is sent, as the server offers:
// client_secret_post first (OAuth 2.1), then client_secret_basic.
func secretStyle(supported []string) oauth2.AuthStyle {
	switch {
	case slices.Contains(supported, "client_secret_post"):
		return oauth2.AuthStyleInParams
	case slices.Contains(supported, "client_secret_basic"):
		return oauth2.AuthStyleInHeader
	}
	return oauth2.AuthStyleAutoDetect
}

// clientAssertion is a JWT with iss = sub = the client ID and aud = the
// authorization server, signed ES256 (P-256) or RS256.
func clientAssertion(c *Client, aud string, now time.Time) (string, error) {
	block, _ := pem.Decode([]byte(c.PrivateKeyPEM))
	if block == nil {
		return "", errors.New("the client's private key is not PEM")
	}
	var key any
	var err error
	if key, err = x509.ParsePKCS8PrivateKey(block.Bytes); err != nil {
		if key, err = x509.ParseECPrivateKey(block.Bytes); err != nil {
			if key, err = x509.ParsePKCS1PrivateKey(block.Bytes); err != nil {
				return "", errors.New("the client's private key is neither PKCS#8, SEC1 EC nor PKCS#1 RSA")
			}
		}
	}
	alg := c.SigningAlg
	switch key.(type) {
	case *ecdsa.PrivateKey:
		if alg == "" {
			alg = "ES256"
		}
	case *rsa.PrivateKey:
		if alg == "" {
			alg = "RS256"
		}
	default:
		return "", fmt.Errorf("a %T cannot sign a client assertion", key)
	}
	jti := make([]byte, 16)
	rand.Read(jti)
	header, _ := json.Marshal(map[string]string{"alg": alg, "typ": "JWT"})
	claims, _ := json.Marshal(map[string]any{
		"iss": c.ID, "sub": c.ID, "aud": aud,
		"iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(),
		"jti": base64.RawURLEncoding.EncodeToString(jti),
	})
	b64 := base64.RawURLEncoding
	input := b64.EncodeToString(header) + "." + b64.EncodeToString(claims)
	sum := sha256.Sum256([]byte(input))
	var sig []byte
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		if alg != "ES256" || k.Curve.Params().BitSize != 256 {
			return "", fmt.Errorf("an EC key signs ES256 on P-256 only, not %s", alg)
		}
		rr, ss, err := ecdsa.Sign(rand.Reader, k, sum[:])
		if err != nil {
			return "", fmt.Errorf("sign the client assertion: %w", err)
		}
		// JWS wants r||s, each 32 bytes (RFC 7518 §3.4), not ASN.1.
		sig = make([]byte, 64)
		rr.FillBytes(sig[:32])
		ss.FillBytes(sig[32:])
	case *rsa.PrivateKey:
		if alg != "RS256" {
			return "", fmt.Errorf("an RSA key signs RS256 only, not %s", alg)
		}
		if sig, err = rsa.SignPKCS1v15(rand.Reader, k, crypto.SHA256, sum[:]); err != nil {
			return "", fmt.Errorf("sign the client assertion: %w", err)
		}
	}
	return input + "." + b64.EncodeToString(sig), nil
}
