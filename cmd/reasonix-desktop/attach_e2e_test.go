package main

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// TestHeadlessAttach: `chat --headless --attach` through the real binary
// and the real echo provider. An image reaches a vision model as a data URL
// (echo-vision reports its type and size) and is saved with the message; a
// model without vision refuses it before anything is sent, naming the file
// and the model, exit 1; a text file is inlined into the message.
func TestHeadlessAttach(t *testing.T) {
	h := newHost(t)
	if r := h.run("", "plugin", "install", "--yes", testutil.ExamplePlugin(t, "echo-provider")); r.code != 0 {
		t.Fatal(r.stderr)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 3, 3))); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pic := filepath.Join(dir, "dot.png")
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(pic, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(notes, []byte("the secret word is marmalade\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const vision, plain = "plugin/echo-provider/echo/echo-vision", "plugin/echo-provider/echo/echo-1"

	t.Run("image to a vision model", func(t *testing.T) {
		r := h.run("", "chat", "--headless", "--model", vision, "--attach", pic, "--prompt", "what is this?")
		want := fmt.Sprintf("Images: 1 (image/png %d bytes)", buf.Len())
		if r.code != 0 || !strings.Contains(r.stdout, "Echo: what is this?") || !strings.Contains(r.stdout, want) {
			t.Fatalf("chat %d, want %q:\n%s\n%s", r.code, want, r.stdout, r.stderr)
		}
		m := sessionLine.FindStringSubmatch(r.stderr)
		if m == nil {
			t.Fatalf("no session line: %s", r.stderr)
		}
		saved, err := os.ReadFile(filepath.Join(h.data, "sessions", m[1]+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(saved, []byte(agent.ImageDataURL("image/png", buf.Bytes()))) {
			t.Fatalf("the session does not keep the image:\n%.2000s", saved)
		}
	})

	t.Run("image to a model without vision", func(t *testing.T) {
		r := h.run("", "chat", "--headless", "--model", plain, "--attach", pic, "--prompt", "what is this?")
		if r.code != 1 || strings.Contains(r.stdout, "Echo:") ||
			!strings.Contains(r.stderr, "attachment dot.png not sent: the model "+plain+" does not accept images") {
			t.Fatalf("chat %d:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		if _, err := os.Stat(pic); err != nil { // the file is the user's: untouched
			t.Fatal(err)
		}
		m := sessionLine.FindStringSubmatch(r.stderr)
		if m == nil {
			t.Fatalf("no session line: %s", r.stderr)
		}
		// Nothing was sent or recorded: the chat has no message.
		if saved, err := os.ReadFile(filepath.Join(h.data, "sessions", m[1]+".json")); err == nil && bytes.Contains(saved, []byte("what is this?")) {
			t.Fatalf("a refused message was recorded:\n%s", saved)
		}
	})

	t.Run("text file inlined", func(t *testing.T) {
		r := h.run("", "chat", "--headless", "--model", plain, "--attach", notes, "--prompt", "read this")
		if r.code != 0 || !strings.Contains(r.stdout, "Attached file notes.txt:") || !strings.Contains(r.stdout, "the secret word is marmalade") {
			t.Fatalf("chat %d:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
	})
}
