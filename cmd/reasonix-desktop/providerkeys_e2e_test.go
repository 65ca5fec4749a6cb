package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/foundation/secrets"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// keysE2EKey is not shaped like a known token, so only the value
// registration can keep it off the screen: a leak shows.
const keysE2EKey = "saved-in-app-credential-Hy6Gt5Fr4De3"

// TestProviderKeySavedInTheAppReachesThePlugin: a key saved with `provider
// set-key` (stdin, never argv) goes to the openai-provider sidecar in its
// environment at its next start, and from there only into the
// Authorization header; it is never printed, logged or put in settings.
func TestProviderKeySavedInTheAppReachesThePlugin(t *testing.T) {
	fake := newChatServer(t)
	// CI has no Secret Service: the file store is what runs here (and on a
	// desktop, the test must not write into the user's keyring).
	t.Setenv(secrets.ModeEnv, secrets.ModeFile)
	for _, v := range []string{"OPENAI_API_KEY", "OPENAI_API_KEY_FILE", "OPENAI_MODELS", "OPENAI_FETCH_MODELS", "OPENAI_DISPLAY_PREFIX"} {
		t.Setenv(v, "")
	}
	// The base URL comes from the app's environment: a declared variable
	// with nothing saved still gets the inherited value.
	t.Setenv("OPENAI_BASE_URL", fake.srv.URL+"/v1")
	h := newHost(t)
	if r := h.run("", "plugin", "install", "--yes", testutil.ExamplePlugin(t, "openai-provider")); r.code != 0 {
		t.Fatalf("install: %s", r.stderr)
	}
	var outputs []string
	run := func(stdin string, args ...string) cliResult {
		t.Helper()
		r := h.run(stdin, args...)
		outputs = append(outputs, r.stdout, r.stderr)
		return r
	}

	// The manifest declares what the plugin reads; the trust block says so.
	if r := run("", "plugin", "show", "openai-provider"); r.code != 0 || !strings.Contains(r.stdout, "OPENAI_API_KEY") || strings.Contains(r.stdout, "env: none") {
		t.Fatalf("plugin show %d:\n%s%s", r.code, r.stdout, r.stderr)
	}

	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"key from stdin", keysE2EKey + "\n", []string{"provider", "set-key", "openai-provider", "OPENAI_API_KEY"}, 0, "saved in a private file"},
		{"models", "gpt-fake-1:ctx=32k\n", []string{"provider", "set-key", "openai-provider", "OPENAI_MODELS"}, 0, "next start"},
		{"value in argv is refused", "", []string{"provider", "set-key", "openai-provider", "OPENAI_API_KEY", "sk-in-argv"}, 2, "want 2 arguments"},
		{"undeclared variable", "x\n", []string{"provider", "set-key", "openai-provider", "PATH"}, 1, "does not declare PATH"},
		{"empty stdin", "", []string{"provider", "set-key", "openai-provider", "OPENAI_DISPLAY_PREFIX"}, 1, "no value"},
		{"unknown plugin", "x\n", []string{"provider", "set-key", "nope", "OPENAI_API_KEY"}, 1, "not installed"},
	} {
		r := run(tc.stdin, tc.args...)
		if r.code != tc.code || !strings.Contains(r.stdout+r.stderr, tc.want) {
			t.Errorf("%s: exit %d\n%s%s", tc.name, r.code, r.stdout, r.stderr)
		}
	}
	r := run("", "provider", "list")
	for _, want := range []string{"openai-provider", "OPENAI_API_KEY           saved (secret, not shown)", "OPENAI_MODELS            saved: gpt-fake-1:ctx=32k",
		"OPENAI_BASE_URL          not saved; the app's environment sets it", "OPENAI_DISPLAY_PREFIX    not set"} {
		if r.code != 0 || !strings.Contains(r.stdout, want) {
			t.Errorf("provider list lacks %q:\n%s%s", want, r.stdout, r.stderr)
		}
	}

	const model = "plugin/openai-provider/openai/gpt-fake-1"
	r = run("", "chat", "--headless", "--non-interactive", "--model", model, "--prompt", "hi")
	if r.code != 0 || !strings.Contains(r.stdout, "Hello from the fake model.") {
		t.Fatalf("chat %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	reqs := fake.requests()
	if len(reqs) == 0 || reqs[len(reqs)-1].auth != "Bearer "+keysE2EKey {
		t.Fatalf("the plugin did not send the saved key: %d requests", len(reqs))
	}

	// Forgotten, the key is no longer sent.
	if r := run("", "provider", "clear", "openai-provider", "OPENAI_API_KEY"); r.code != 0 {
		t.Fatalf("clear: %s", r.stderr)
	}
	if r := run("", "chat", "--headless", "--non-interactive", "--model", model, "--prompt", "hi"); r.code != 0 {
		t.Fatalf("chat after clear %d:\n%s", r.code, r.stderr)
	}
	if reqs := fake.requests(); reqs[len(reqs)-1].auth != "" {
		t.Errorf("after clear the plugin still sent %q", reqs[len(reqs)-1].auth)
	}

	for _, out := range outputs {
		if strings.Contains(out, keysE2EKey) {
			t.Errorf("the key is in the output:\n%s", out)
		}
	}
	creds := filepath.Join(h.data, secrets.FileName)
	fi, err := os.Stat(creds)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v", creds, fi.Mode().Perm())
	}
	// Nowhere else in the data directory: not in settings.json, the host log
	// or a session. (credentials.json no longer holds it either: cleared.)
	err = filepath.WalkDir(h.data, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err == nil && bytes.Contains(b, []byte(keysE2EKey)) {
			t.Errorf("the key is in %s", path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
