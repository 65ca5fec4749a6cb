package main_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// A bad configuration stops the sidecar at startup with a message naming
// the variable, and never the key.
func TestConfigErrorsExitAtStartup(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-key")
	for _, tc := range []struct {
		name string
		env  []string
		want string
	}{
		{"malformed model", []string{"OPENAI_API_KEY=" + fakeKey, "OPENAI_MODELS=gpt-4o:ctx=lots"}, "OPENAI_MODELS entry 1"},
		{"unknown setting", []string{"OPENAI_API_KEY=" + fakeKey, "OPENAI_MODELS=a,b:temperature=2"}, "OPENAI_MODELS entry 2"},
		{"unreadable key file", []string{"OPENAI_API_KEY_FILE=" + missing, "OPENAI_MODELS=a"}, "OPENAI_API_KEY_FILE"},
		{"both keys", []string{"OPENAI_API_KEY=" + fakeKey, "OPENAI_API_KEY_FILE=" + missing, "OPENAI_MODELS=a"}, "only one of OPENAI_API_KEY and OPENAI_API_KEY_FILE"},
		{"bad base URL", []string{"OPENAI_API_KEY=" + fakeKey, "OPENAI_BASE_URL=api.deepseek.com", "OPENAI_MODELS=a"}, "OPENAI_BASE_URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
			defer cancel()
			cmd := exec.CommandContext(ctx, testutil.Binary(t, "examples/openai-provider"))
			cmd.Env = append(os.Environ(), "OPENAI_BASE_URL=", "OPENAI_API_KEY=", "OPENAI_API_KEY_FILE=", "OPENAI_FETCH_MODELS=")
			cmd.Env = append(cmd.Env, tc.env...)
			var stdout, stderr bytes.Buffer
			cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(""), &stdout, &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 2 {
				t.Fatalf("exit %v, want status 2\n%s", err, stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.want) || !strings.Contains(stderr.String(), "configuration error") {
				t.Errorf("stderr lacks %q:\n%s", tc.want, stderr.String())
			}
			if strings.Contains(stderr.String(), fakeKey) || stdout.Len() != 0 {
				t.Errorf("stdout %q, stderr %q", stdout.String(), stderr.String())
			}
		})
	}
}
