package agent_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

const visionModel = "plugin/echo-provider/echo/echo-vision"

// testPNG is a real 2×2 PNG.
func testPNG(t testing.TB) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// An image goes to a vision model as a data URL in the user message, is
// saved with the message, and the model sees it (echo-vision reports it).
// Text files are inlined after the text in a block naming the file.
func TestAttachmentsReachTheModelAndTheSession(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	fe := &recorder{}
	c := e.open(t, fe)
	ctx := context.Background()
	if err := c.SetModel(ctx, visionModel, ""); err != nil {
		t.Fatal(err)
	}
	pic := testPNG(t)
	notes := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notes, []byte("line one\nline two\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := c.SendWithAttachments(ctx, "what is this?", []agent.Attachment{
		{Name: "dot.png", Data: pic}, {Path: notes}})
	if err != nil {
		t.Fatal(err)
	}
	wantText := "what is this?\n\nAttached file notes.txt:\n```\nline one\nline two\n```"
	if got := fe.text(agent.EventText); got != "Echo: "+wantText+"\n\nImages: 1 (image/png "+itoa(len(pic))+" bytes)" {
		t.Fatalf("reply %q", got)
	}
	store, _ := agent.NewSessionStore(e.layout.SessionsDir())
	saved, err := store.Load(c.Session().ID)
	if err != nil {
		t.Fatal(err)
	}
	m := saved.Messages[0]
	if m.Content != wantText || len(m.Images) != 1 || m.Images[0] != agent.ImageDataURL("image/png", pic) {
		t.Fatalf("saved user message %+v", m)
	}
}

// Refusals happen before anything is sent, emitted or recorded, each
// naming the file and why.
func TestAttachmentsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	dir := t.TempDir()
	big := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(big, bytes.Repeat([]byte("a"), agent.MaxTextFileBytes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		model string
		att   agent.Attachment
		want  string
	}{
		{"image to a model without vision", echoModel, agent.Attachment{Name: "dot.png", Data: testPNG(t)},
			"attachment dot.png not sent: the model " + echoModel + " does not accept images (its descriptor does not declare vision)"},
		{"binary file", visionModel, agent.Attachment{Name: "a.bin", Data: []byte{0xff, 0xfe, 0, 1}},
			"attachment a.bin not sent: not a UTF-8 text file"},
		{"text file over the limit", visionModel, agent.Attachment{Path: big},
			"attachment big.txt not sent: the file is 256.0 KiB, over the 256.0 KiB limit"},
		{"image over the limit", visionModel, agent.Attachment{Name: "huge.png", Data: make([]byte, agent.MaxImageBytes+1)},
			"attachment huge.png not sent: the image is 4.0 MiB, over the 4.0 MiB limit"},
		{"unsupported image type", visionModel, agent.Attachment{Name: "a.bmp", MIME: "image/bmp", Data: []byte("BM")},
			"attachment a.bmp not sent: image/bmp images are not accepted"},
		{"missing file", visionModel, agent.Attachment{Path: filepath.Join(dir, "gone.txt")},
			"attachment gone.txt not sent: cannot read it"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fe := &recorder{}
			c := e.open(t, fe)
			ctx := context.Background()
			if err := c.SetModel(ctx, tc.model, ""); err != nil {
				t.Fatal(err)
			}
			err := c.SendWithAttachments(ctx, "hi", []agent.Attachment{tc.att})
			var ae *agent.AttachmentError
			if !errors.As(err, &ae) || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("err %v, want prefix %q", err, tc.want)
			}
			if n := len(fe.eventsOf(agent.EventTurnStarted)) + len(fe.eventsOf(agent.EventUserMessage)); n != 0 || len(c.Session().Messages) != 0 || len(c.Session().Notes) != 0 {
				t.Fatalf("a refused attachment started a turn (%d events), messages %+v notes %+v", n, c.Session().Messages, c.Session().Notes)
			}
			// Nothing is held: the same text sends at once without it.
			if err := c.Send(ctx, "hi"); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// FuzzParseImageDataURL: whatever ImageDataURL makes parses back to the
// same type and bytes, and the parser never panics on any input.
func FuzzParseImageDataURL(f *testing.F) {
	f.Add("image/png", []byte{1, 2, 3}, "data:image/png;base64,AQID")
	f.Add("image/jpeg", []byte{}, "data:;base64,")
	f.Add("x", []byte("y"), "data:image/png,abc")
	f.Fuzz(func(t *testing.T, mime string, data []byte, raw string) {
		agent.ParseImageDataURL(raw)
		if mime == "" || strings.ContainsAny(mime, ";,") {
			return
		}
		gotMIME, got, ok := agent.ParseImageDataURL(agent.ImageDataURL(mime, data))
		if !ok || gotMIME != mime || !bytes.Equal(got, data) {
			t.Fatalf("round trip %q %x -> %q %x %v", mime, data, gotMIME, got, ok)
		}
	})
}

// Images accumulate in the history; a request carries the newest that fit
// its frame (the oldest are left out of the request, not the session), so
// a chat with two large images still gets answers. A model without vision
// picked later gets none.
func TestRequestImagesFitTheFrame(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	fe := &recorder{}
	c := e.open(t, fe)
	ctx := context.Background()
	if err := c.SetModel(ctx, visionModel, ""); err != nil {
		t.Fatal(err)
	}
	big := func(b byte) agent.Attachment {
		return agent.Attachment{Name: "big.png", Data: bytes.Repeat([]byte{b}, 7<<19)} // 3.5 MiB: two pass the 8 MiB frame
	}
	for i, b := range []byte{1, 2} {
		if err := c.SendWithAttachments(ctx, "picture "+strconv.Itoa(i), []agent.Attachment{big(b)}); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
	}
	if got := fe.text(agent.EventText); !strings.HasSuffix(got, "Echo: picture 1\n\nImages: 1 (image/png 3670016 bytes)") {
		t.Fatalf("reply %q", got)
	}
	var kept int
	for _, m := range c.Session().Messages {
		kept += len(m.Images)
	}
	if kept != 2 {
		t.Fatalf("the session keeps %d images, want 2", kept)
	}
	// Without vision the history's images stay out of the request.
	if err := c.SetModel(ctx, echoModel, ""); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(ctx, "and now?"); err != nil {
		t.Fatal(err)
	}
}

// A turn refused before its message was recorded (a UserPromptSubmit hook)
// keeps the message's images with its text, in the saved file too.
func TestAFailedTurnKeepsItsImages(t *testing.T) {
	t.Parallel()
	fe := &recorder{}
	e, c := openWithPackages(t, fe, hookFixture(t, "hooks-prompt"))
	ctx := context.Background()
	if err := c.SetModel(ctx, "plugin/echo-provider/echo/echo-vision", ""); err != nil {
		t.Fatal(err)
	}
	png := []byte("\x89PNG\r\n\x1a\n tiny")
	err := c.SendWithAttachments(ctx, "tell me about project X", []agent.Attachment{{Name: "x.png", MIME: "image/png", Data: png}})
	if err == nil {
		t.Fatal("the hook did not block")
	}
	saved := loadSaved(t, e, c.Session().ID)
	if len(saved.Notes) != 1 || saved.Notes[0].Input != "tell me about project X" || len(saved.Notes[0].InputImages) != 1 ||
		saved.Notes[0].InputImages[0] != agent.ImageDataURL("image/png", png) {
		t.Fatalf("saved notes %+v", saved.Notes)
	}
}
