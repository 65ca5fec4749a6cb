package mcpauth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// The wait for the browser ends at SignInTimeout exactly (a user who
// closed the tab is not waited for forever), and an answer just before it
// is taken. The bubble's clock is fake: no real minutes pass.
func TestBrowserWaitEndsAtSignInTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := New(Config{OpenBrowser: func(string) error { return nil }, SignInTimeout: 5 * time.Minute})
		e := &entry{a: a, key: "https://example.com/mcp"}
		results := make(chan callback, 1)
		start := time.Now()
		_, err := e.fetcher(results)(context.Background(), &auth.AuthorizationArgs{URL: "https://as.example/authorize"})
		if err == nil || !strings.Contains(err.Error(), "did not come back within 5m0s") {
			t.Fatalf("got %v", err)
		}
		if waited := time.Since(start); waited != 5*time.Minute {
			t.Fatalf("gave up after %s, want 5m0s", waited)
		}

		go func() {
			time.Sleep(5*time.Minute - time.Millisecond)
			results <- callback{res: &auth.AuthorizationResult{Code: "c", State: "s"}}
		}()
		res, err := e.fetcher(results)(context.Background(), &auth.AuthorizationArgs{URL: "https://as.example/authorize"})
		if err != nil || res.Code != "c" {
			t.Fatalf("an answer a millisecond before the bound: %v %v", res, err)
		}
	})
}

// The private_key_jwt assertion verifies with the client's public key and
// says what RFC 7523 asks: iss = sub = the client, aud = the issuer.
func TestClientAssertionVerifies(t *testing.T) {
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ecDER, _ := x509.MarshalPKCS8PrivateKey(ec)
	rs, _ := rsa.GenerateKey(rand.Reader, 2048)
	rsDER := x509.MarshalPKCS1PrivateKey(rs)
	now := time.Unix(1_800_000_000, 0)
	for _, tc := range []struct {
		alg    string
		pem    string
		verify func(sum, sig []byte) bool
	}{
		{"ES256", string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: ecDER})), func(sum, sig []byte) bool {
			return len(sig) == 64 && ecdsa.Verify(&ec.PublicKey, sum, new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:]))
		}},
		{"RS256", string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: rsDER})), func(sum, sig []byte) bool {
			return rsa.VerifyPKCS1v15(&rs.PublicKey, crypto.SHA256, sum, sig) == nil
		}},
	} {
		jwt, err := clientAssertion(&Client{ID: "cid", PrivateKeyPEM: tc.pem}, "https://as.example", now)
		if err != nil {
			t.Fatalf("%s: %v", tc.alg, err)
		}
		parts := strings.Split(jwt, ".")
		if len(parts) != 3 {
			t.Fatalf("%s: %q", tc.alg, jwt)
		}
		sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
		sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
		if !tc.verify(sum[:], sig) {
			t.Fatalf("%s: the signature does not verify", tc.alg)
		}
		var head, claims map[string]any
		h, _ := base64.RawURLEncoding.DecodeString(parts[0])
		c, _ := base64.RawURLEncoding.DecodeString(parts[1])
		_ = json.Unmarshal(h, &head)
		_ = json.Unmarshal(c, &claims)
		if head["alg"] != tc.alg || claims["iss"] != "cid" || claims["sub"] != "cid" || claims["aud"] != "https://as.example" ||
			claims["exp"].(float64) != float64(now.Add(5*time.Minute).Unix()) || claims["jti"] == "" {
			t.Fatalf("%s: header %v claims %v", tc.alg, head, claims)
		}
	}
}
