package xdev_test

import (
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/extensions/xdev"
)

func TestExtensionStatusListsLoadedAndFailed(t *testing.T) {
	f := newFixture(t)
	f.ext("c-exit", map[string]any{"handshake": "exit"})
	f.ext("z-good.sh", nil)
	m := f.open(xdev.Config{HandshakeTimeout: 5 * time.Second})
	st := m.ExtensionStatus()
	if len(st) != 2 {
		t.Fatalf("status %+v", st)
	}
	good, bad := st[0], st[1]
	if good.Name != "z_good" || good.State != "Active" || len(good.Capabilities) == 0 {
		t.Errorf("loaded %+v", good)
	}
	if bad.State != "Failed" || !strings.Contains(bad.Failure, "exit status 3") || !strings.HasSuffix(bad.Path, "c-exit") {
		t.Errorf("failed %+v", bad)
	}
}

// The plugin manager shows an extension's stderr tail from the host's one
// stderr ring, redacted (it used to show the raw lines).
func TestExtensionStatusStderrTailIsRedacted(t *testing.T) {
	f := newFixture(t)
	secret := "sk-abcdefghijklmnopqrstuvwxyz0123"
	f.ext("leaky", map[string]any{"stderr": "OPENAI_API_KEY=" + secret})
	m := f.open(xdev.Config{})
	var tail string
	eventually(t, "the stderr line in the status", func() bool {
		st := m.ExtensionStatus()
		if len(st) != 1 {
			t.Fatalf("status %+v", st)
		}
		tail = st[0].StderrTail
		return strings.Contains(tail, "OPENAI_API_KEY=")
	})
	if strings.Contains(tail, secret) {
		t.Fatalf("the status shows a secret: %q", tail)
	}
}
