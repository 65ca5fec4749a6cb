package secrets_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/foundation/atomicfile"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/foundation/secrets"
)

const key = "e2e-secret-Vq7Lm3Nx8Rt2Kp9Wz"

func TestFileStoreRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s := secrets.Open(secrets.Options{Dir: dir, Mode: secrets.ModeFile})
	if s.InKeyring() || !strings.Contains(s.Where(), "private file") {
		t.Fatalf("file mode says %q", s.Where())
	}
	if _, ok, err := s.Get("openai-provider", "OPENAI_API_KEY"); ok || err != nil {
		t.Fatalf("empty store: ok=%v err=%v", ok, err)
	}
	if err := s.Set("openai-provider", "OPENAI_API_KEY", key); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("other", "OPENAI_API_KEY", "another-value-123456"); err != nil {
		t.Fatal(err)
	}
	// A second Store (another process) reads what the first saved.
	again := secrets.Open(secrets.Options{Dir: dir, Mode: secrets.ModeFile})
	for _, tc := range []struct{ plugin, want string }{{"openai-provider", key}, {"other", "another-value-123456"}} {
		v, ok, err := again.Get(tc.plugin, "OPENAI_API_KEY")
		if err != nil || !ok || v != tc.want {
			t.Errorf("%s: %q %v %v", tc.plugin, v, ok, err)
		}
	}
	if err := again.Delete("openai-provider", "OPENAI_API_KEY"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Get("openai-provider", "OPENAI_API_KEY"); ok {
		t.Error("the deleted value is still there")
	}
	if v, ok, _ := s.Get("other", "OPENAI_API_KEY"); !ok || v != "another-value-123456" {
		t.Error("delete took another plugin's value")
	}
}

func TestFileIsPrivateAndWrittenAtomically(t *testing.T) {
	dir := t.TempDir()
	s := secrets.Open(secrets.Options{Dir: dir, Mode: secrets.ModeFile})
	if err := s.Set("p", "X_API_KEY", key); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(s.File())
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	// A crashed writer's temp file is not read and does not block the next write.
	stale := filepath.Join(dir, atomicfile.TempPrefix+secrets.FileName+"-crashed")
	if err := os.WriteFile(stale, []byte("{torn"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("p", "X_BASE_URL", "http://127.0.0.1:1/v1"); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var temps []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), atomicfile.TempPrefix) && e.Name() != filepath.Base(stale) {
			temps = append(temps, e.Name())
		}
	}
	if len(temps) > 0 {
		t.Errorf("temp files left: %v", temps)
	}
	var doc struct {
		Version int               `json:"version"`
		Values  map[string]string `json:"values"`
	}
	b, _ := os.ReadFile(s.File())
	if err := json.Unmarshal(b, &doc); err != nil || doc.Version != 1 || doc.Values["p/X_API_KEY"] != key || doc.Values["p/X_BASE_URL"] == "" {
		t.Errorf("file %s: %v", b, err)
	}
	if fi, _ := os.Stat(s.File()); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("after a rewrite: mode %v", fi.Mode().Perm())
	}
}

func TestConcurrentWritersLoseNothing(t *testing.T) {
	s := secrets.Open(secrets.Options{Dir: t.TempDir(), Mode: secrets.ModeFile})
	var wg sync.WaitGroup
	names := []string{"A_KEY", "B_KEY", "C_KEY", "D_KEY", "E_KEY", "F_KEY"}
	for _, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.Set("p", n, "value-of-"+n); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for _, n := range names {
		if v, ok, _ := s.Get("p", n); !ok || v != "value-of-"+n {
			t.Errorf("%s: %q %v", n, v, ok)
		}
	}
}

func TestValuesAreRedacted(t *testing.T) {
	s := secrets.Open(secrets.Options{Dir: t.TempDir(), Mode: secrets.ModeFile})
	const v = "plain-looking-Credential-77aa11bb"
	if err := s.Set("p", "SERVICE_TOKEN", v); err != nil {
		t.Fatal(err)
	}
	if got := redact.String("the plugin said " + v); strings.Contains(got, v) {
		t.Errorf("not masked: %s", got)
	}
}

func TestRejectsLineBreaks(t *testing.T) {
	s := secrets.Open(secrets.Options{Dir: t.TempDir(), Mode: secrets.ModeFile})
	for _, v := range []string{"a\nb", "a\rb", "a\x00b"} {
		if err := s.Set("p", "K_KEY", v); err == nil {
			t.Errorf("%q accepted", v)
		}
	}
}

// brokenRing is a keyring that fails as a machine without a Secret Service
// does (a third-party seam: the real one is go-keyring's).
type brokenRing struct {
	mu    sync.Mutex
	calls int
	block chan struct{} // when set, calls wait on it (a keyring that never answers)
}

func (r *brokenRing) call() error {
	r.mu.Lock()
	r.calls++
	r.mu.Unlock()
	if r.block != nil {
		<-r.block
	}
	return errors.New("The name org.freedesktop.secrets was not provided by any .service files")
}
func (r *brokenRing) Get(string, string) (string, error) { return "", r.call() }
func (r *brokenRing) Set(string, string, string) error   { return r.call() }
func (r *brokenRing) Delete(string, string) error        { return r.call() }

// memRing is a working keyring.
type memRing struct {
	mu sync.Mutex
	m  map[string]string
}

func (r *memRing) Get(s, u string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	v, ok := r.m[s+"|"+u]
	if !ok {
		return "", secrets.ErrNotFound
	}
	return v, nil
}
func (r *memRing) Set(s, u, p string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.m[s+"|"+u] = p
	return nil
}
func (r *memRing) Delete(s, u string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.m[s+"|"+u]; !ok {
		return secrets.ErrNotFound
	}
	delete(r.m, s+"|"+u)
	return nil
}

func TestModes(t *testing.T) {
	tests := []struct {
		name       string
		mode       string
		ring       func() secrets.Keyring
		wantErr    bool
		wantRing   bool // the value is in the keyring, not the file
		wantWhere  string
		wantInFile bool
	}{
		{"auto with a keyring", secrets.ModeAuto, func() secrets.Keyring { return &memRing{m: map[string]string{}} }, false, true, "system keyring", false},
		{"auto without one falls back", secrets.ModeAuto, func() secrets.Keyring { return &brokenRing{} }, false, false, "private file", true},
		{"keyring only fails loudly", secrets.ModeKeyring, func() secrets.Keyring { return &brokenRing{} }, true, false, "system keyring", false},
		{"file never asks the keyring", secrets.ModeFile, func() secrets.Keyring { return &brokenRing{} }, false, false, "private file", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ring := tc.ring()
			s := secrets.Open(secrets.Options{Dir: t.TempDir(), Mode: tc.mode, Keyring: ring})
			err := s.Set("p", "A_KEY", key)
			if (err != nil) != tc.wantErr {
				t.Fatalf("Set: %v", err)
			}
			if tc.wantErr && !strings.Contains(err.Error(), "system keyring") {
				t.Errorf("error does not say what failed: %v", err)
			}
			if !strings.Contains(s.Where(), tc.wantWhere) {
				t.Errorf("Where %q", s.Where())
			}
			_, statErr := os.Stat(s.File())
			if inFile := statErr == nil; inFile != tc.wantInFile {
				t.Errorf("file exists %v, want %v", inFile, tc.wantInFile)
			}
			if m, ok := ring.(*memRing); ok && (m.m[secrets.Service+"|p/A_KEY"] == key) != tc.wantRing {
				t.Errorf("keyring holds %v", m.m)
			}
			if b, ok := ring.(*brokenRing); ok && tc.mode == secrets.ModeFile && b.calls != 0 {
				t.Errorf("file mode called the keyring %d times", b.calls)
			}
			if !tc.wantErr {
				if v, ok, err := s.Get("p", "A_KEY"); v != key || !ok || err != nil {
					t.Errorf("Get: %q %v %v", v, ok, err)
				}
			}
		})
	}
}

func TestKeyringThatNeverAnswersFallsBack(t *testing.T) {
	ring := &brokenRing{block: make(chan struct{})}
	defer close(ring.block)
	s := secrets.Open(secrets.Options{Dir: t.TempDir(), Mode: secrets.ModeAuto, Keyring: ring, Timeout: 1})
	if err := s.Set("p", "A_KEY", key); err != nil {
		t.Fatal(err)
	}
	if s.InKeyring() {
		t.Error("still using a keyring that did not answer")
	}
	if v, ok, _ := s.Get("p", "A_KEY"); !ok || v != key {
		t.Errorf("Get after fallback: %q %v", v, ok)
	}
}

func TestModeFromEnv(t *testing.T) {
	for in, want := range map[string]string{"": "auto", "FILE": "file", " keyring ": "keyring", "bogus": "auto"} {
		t.Setenv(secrets.ModeEnv, in)
		if got := secrets.ModeFromEnv(); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

func TestBrokenFileIsAnErrorNamingIt(t *testing.T) {
	dir := t.TempDir()
	s := secrets.Open(secrets.Options{Dir: dir, Mode: secrets.ModeFile})
	if err := os.WriteFile(s.File(), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Get("p", "A_KEY"); err == nil || !strings.Contains(err.Error(), secrets.FileName) {
		t.Errorf("Get: %v", err)
	}
	if err := s.Set("p", "A_KEY", "x"); err == nil {
		t.Error("Set overwrote a file it could not read")
	}
}
