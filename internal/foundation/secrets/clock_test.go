package secrets_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/secrets"
)

// A keyring that never answers is given up after the default 5 s per call,
// on the synctest bubble's clock, and the value goes to the file.
func TestKeyringDefaultTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ring := &brokenRing{block: make(chan struct{})} // made in the bubble: waiting on it is durable
		defer close(ring.block)
		s := secrets.Open(secrets.Options{Dir: t.TempDir(), Mode: secrets.ModeAuto, Keyring: ring})
		start := time.Now()
		if err := s.Set("p", "A_KEY", key); err != nil {
			t.Fatal(err)
		}
		if elapsed := time.Since(start); elapsed != secrets.DefaultTimeout || secrets.DefaultTimeout != 5*time.Second {
			t.Fatalf("the keyring was given up after %s, want the 5s default (%s)", elapsed, secrets.DefaultTimeout)
		}
		if s.InKeyring() {
			t.Error("still using a keyring that did not answer")
		}
		if v, ok, _ := s.Get("p", "A_KEY"); !ok || v != key {
			t.Errorf("Get after fallback: %q %v", v, ok)
		}
	})
}
