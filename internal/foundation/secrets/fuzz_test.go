package secrets_test

import (
	"os"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/foundation/secrets"
)

// FuzzFile: whatever the credentials file holds, reading it returns a value
// or an error, and a value read back is the one a Set of it saves.
func FuzzFile(f *testing.F) {
	f.Add([]byte(`{"version":1,"values":{"p/A_KEY":"x"}}`))
	f.Add([]byte(`{"version":2}`))
	f.Add([]byte(`{"version":1,"values":null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := secrets.Open(secrets.Options{Dir: t.TempDir(), Mode: secrets.ModeFile})
		if err := os.WriteFile(s.File(), data, 0o600); err != nil {
			t.Fatal(err)
		}
		v, ok, err := s.Get("p", "A_KEY")
		if err != nil || !ok {
			return
		}
		if err := s.Set("p", "A_KEY", v); err != nil {
			return // a value with a line break cannot be saved again
		}
		if again, ok, err := s.Get("p", "A_KEY"); err != nil || !ok || again != v {
			t.Fatalf("round trip: %q -> %q %v %v", v, again, ok, err)
		}
	})
}
