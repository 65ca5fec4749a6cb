package desktop

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/protocol"
)

const visionModel = "plugin/echo-provider/echo/echo-vision"

// attachFiles writes a real PNG and a text file and returns their URIs
// and the PNG's size.
func attachFiles(t *testing.T) (pic, notes fyne.URI, size int) {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p, n := filepath.Join(dir, "dot.png"), filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(n, []byte("remember the marmalade\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return storage.NewFileURI(p), storage.NewFileURI(n), buf.Len()
}

// pending are the composer's attachment chips' names (UI work).
func (h *harness) pending() (names []string) {
	h.ui(func() { names = h.d.composer.attach.names() })
	return names
}

// lastUser is the chat's last user message as the core recorded it.
func lastUser(msgs []protocol.ProviderMessage) (protocol.ProviderMessage, bool) {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == protocol.RoleUser {
			return msgs[i], true
		}
	}
	return protocol.ProviderMessage{}, false
}

// Dropped files become chips; Send takes them with the text to the real
// core: the vision model reports the image, the text file is inlined, the
// sent message shows both as chips and the tray empties.
func TestAttachmentsReachAVisionModel(t *testing.T) {
	h := newHarness(t)
	h.install("echo-provider")
	c := h.chatReady()
	if err := c.SetModel(context.Background(), visionModel, ""); err != nil {
		t.Fatal(err)
	}
	pic, notes, size := attachFiles(t)
	h.ui(func() { h.d.composer.attach.addURIs([]fyne.URI{pic, notes}) }) // what the window's drop callback does
	if got := h.pending(); !slices.Equal(got, []string{"dot.png", "notes.txt"}) {
		t.Fatalf("chips %v", got)
	}
	h.send("what is this?")
	report := fmt.Sprintf("Images: 1 (image/png %d bytes)", size)
	h.waitFor("the model's report", func() bool { return strings.Contains(h.renderedTranscript(), report) })
	wantChips := []string{fmt.Sprintf("image/png · %d bytes", size), "notes.txt"}
	if got := h.d.transcript.get().Chips(); !slices.Equal(got, wantChips) {
		t.Fatalf("message chips %v, want %v", got, wantChips)
	}
	h.ui(func() {
		shown := h.renderedTranscript()
		for _, w := range append(wantChips, "remember the marmalade") {
			if !strings.Contains(shown, w) {
				t.Errorf("the transcript does not show %q:\n%s", w, shown)
			}
		}
	})
	if got := h.pending(); len(got) != 0 {
		t.Fatalf("the tray still holds %v after Send", got)
	}
	m, ok := lastUser(c.Session().Messages)
	if !ok || len(m.Images) != 1 || !strings.HasPrefix(m.Images[0], "data:image/png;base64,") {
		t.Fatalf("recorded user message %+v", m)
	}
	// Reopened from disk, the message shows the same chips.
	id := c.Session().ID
	if err := c.NewSession(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	if err := c.LoadSession(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the reloaded chips", func() bool { return slices.Equal(h.d.transcript.get().Chips(), wantChips) })
}

// An image for a model without vision is refused with the reason shown;
// the text and the chip come back to the composer and nothing is sent.
func TestAttachedImageRefusedWithoutVision(t *testing.T) {
	h := newHarness(t)
	h.install("echo-provider")
	c := h.chatReady()
	pic, _, _ := attachFiles(t)
	h.ui(func() { h.d.composer.attach.addURIs([]fyne.URI{pic}) })
	h.send("describe it")
	h.waitFor("the refusal, the text and the chip back", func() bool {
		return strings.Contains(h.renderedTranscript(), "attachment dot.png not sent: the model "+echoModel+" does not accept images") &&
			h.d.composer.entry.Text == "describe it" && slices.Equal(h.d.composer.attach.names(), []string{"dot.png"}) &&
			!h.d.state.Busy()
	})
	if _, ok := lastUser(c.Session().Messages); ok {
		t.Fatalf("a refused message was recorded: %+v", c.Session().Messages)
	}
}

// ✕ on a chip removes that attachment; the paperclip opens a file picker.
func TestAttachmentChipRemoveAndPicker(t *testing.T) {
	h := newHarness(t)
	pic, notes, _ := attachFiles(t)
	h.ui(func() { h.d.composer.attach.addURIs([]fyne.URI{pic, notes}) })
	h.ui(func() {
		chip := h.d.composer.attach.box.Objects[0]
		var remove *widget.Button
		walkObjects(chip, func(o fyne.CanvasObject) {
			if b, ok := o.(*widget.Button); ok {
				remove = b
			}
		})
		if remove == nil {
			t.Fatal("the chip has no remove button")
		}
		test.Tap(remove)
	})
	if got := h.pending(); !slices.Equal(got, []string{"notes.txt"}) {
		t.Fatalf("after ✕ the chips are %v", got)
	}
	h.ui(func() { test.Tap(h.d.composer.attach.btn) })
	h.waitFor("the file picker", func() bool { return h.topOverlay() != nil })
}
