package agent

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// Attachment is a file the user attaches to a message: an image (sent to a
// vision model as a data URL in the message's Images) or a text file
// (inlined into the message's text). Data holds the bytes; when it is nil
// they are read from Path. MIME may be empty: it is then sniffed from the
// name and the bytes.
type Attachment struct {
	Name string
	MIME string
	Data []byte
	Path string
}

// Attachment limits. An image travels base64-encoded inside the provider
// request, which is one NDJSON frame of at most protocol.FrameBytes (8 MiB),
// so an image is capped well below it (the real host's inline cap is the
// DeepSeek API's 32 MiB, which our frame cannot carry). Text files are
// context, not documents: a quarter MiB is ~64k tokens.
const (
	MaxImageBytes    = 4 << 20   // one image, before base64
	MaxImagesBytes   = 4 << 20   // all images of one message, before base64
	MaxTextFileBytes = 256 << 10 // one text file
)

// imageMIMEs are the image types accepted, as the real host accepts them
// (png, jpeg, gif, webp).
var imageMIMEs = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// AttachmentError is an attachment refused before anything was sent: the
// message, its text and its attachments are untouched, so the front end
// keeps them for the user to fix and send again.
type AttachmentError struct {
	Name   string // the file refused
	Reason string
}

func (e *AttachmentError) Error() string {
	return fmt.Sprintf("attachment %s not sent: %s", e.Name, e.Reason)
}

// IsImageAttachment reports whether an attachment is sent as an image
// (its MIME type, given or sniffed, is an accepted image type).
func IsImageAttachment(a Attachment) bool {
	return imageMIMEs[attachmentMIME(a, nil)]
}

// SendWithAttachments runs a turn like SendAll for text plus attachments:
// text files are inlined after the text, each in a block naming the file;
// images become the user message's Images as data URLs
// (data:<mime>;base64,<payload>, the encoding the real host stores and
// sends), and are kept with the message in the session. An image for a
// model whose descriptor does not declare vision, a file over its limit,
// a text file that is not UTF-8 or an unreadable file is refused with an
// *AttachmentError before anything is emitted or recorded.
func (c *Core) SendWithAttachments(ctx context.Context, text string, atts []Attachment) error {
	if len(atts) == 0 {
		return c.SendAll(ctx, text)
	}
	full, images, err := buildAttachments(text, atts)
	if err != nil {
		return err
	}
	if len(images) > 0 {
		if err := c.checkVision(ctx, atts); err != nil {
			return err
		}
	}
	if err := c.acquire(OpTurn); err != nil {
		return err
	}
	_, err = c.sendRun(ctx, &turnRun{text: full, images: images, pending: -1}, -1)
	return err
}

// ReadAttachments reads each attachment given by Path into Data (at most
// one byte over the largest limit, so an oversized file is refused without
// being read whole) and settles its Name and MIME type, so a front end
// can show what it sends and the core reads nothing again. A file that
// cannot be read is an *AttachmentError. It may block on the disk: never
// on a UI goroutine.
func ReadAttachments(atts []Attachment) ([]Attachment, error) {
	out := make([]Attachment, len(atts))
	for i, a := range atts {
		data, err := attachmentData(a)
		if err != nil {
			return nil, &AttachmentError{Name: attachmentName(a), Reason: err.Error()}
		}
		out[i] = Attachment{Name: attachmentName(a), MIME: attachmentMIME(a, data), Data: data, Path: a.Path}
		if out[i].Data == nil {
			out[i].Data = []byte{}
		}
	}
	return out, nil
}

// checkVision refuses images when the session's model does not declare
// vision (or is not in the catalog, so nobody can say it does).
func (c *Core) checkVision(ctx context.Context, atts []Attachment) error {
	model := c.Session().Model
	var names []string
	for _, a := range atts {
		if IsImageAttachment(a) {
			names = append(names, attachmentName(a))
		}
	}
	name := strings.Join(names, ", ")
	if model == "" {
		return &AttachmentError{Name: name, Reason: "no model selected: pick a vision model first"}
	}
	models, _ := c.Models(ctx)
	for _, m := range models {
		if m.ID == model {
			if m.Vision {
				return nil
			}
			break
		}
	}
	return &AttachmentError{Name: name, Reason: fmt.Sprintf(
		"the model %s does not accept images (its descriptor does not declare vision); pick a vision model or remove the image", model)}
}

// buildAttachments reads and checks every attachment: the message text
// with the text files inlined, and the images as data URLs.
func buildAttachments(text string, atts []Attachment) (string, []string, error) {
	var blocks []string
	var images []string
	total := 0
	for _, a := range atts {
		name := attachmentName(a)
		data, err := attachmentData(a)
		if err != nil {
			return "", nil, &AttachmentError{Name: name, Reason: err.Error()}
		}
		mime := attachmentMIME(a, data)
		if imageMIMEs[mime] {
			if len(data) > MaxImageBytes {
				return "", nil, &AttachmentError{Name: name, Reason: fmt.Sprintf("the image is %s, over the %s limit", SizeText(len(data)), SizeText(MaxImageBytes))}
			}
			if total += len(data); total > MaxImagesBytes {
				return "", nil, &AttachmentError{Name: name, Reason: fmt.Sprintf("the images of one message are over the %s limit", SizeText(MaxImagesBytes))}
			}
			images = append(images, ImageDataURL(mime, data))
			continue
		}
		if strings.HasPrefix(mime, "image/") {
			return "", nil, &AttachmentError{Name: name, Reason: mime + " images are not accepted (png, jpeg, gif and webp are)"}
		}
		if len(data) > MaxTextFileBytes {
			return "", nil, &AttachmentError{Name: name, Reason: fmt.Sprintf("the file is %s, over the %s limit for a text file", SizeText(len(data)), SizeText(MaxTextFileBytes))}
		}
		if !utf8.Valid(data) || strings.ContainsRune(string(data), 0) {
			return "", nil, &AttachmentError{Name: name, Reason: "not a UTF-8 text file (only images and text files can be attached)"}
		}
		blocks = append(blocks, TextFileBlock(name, string(data)))
	}
	if len(blocks) > 0 {
		parts := append([]string{}, blocks...)
		if strings.TrimSpace(text) != "" {
			parts = append([]string{text}, blocks...)
		}
		text = strings.Join(parts, "\n\n")
	}
	return text, images, nil
}

// TextFileBlock is how a text file is inlined into a message: a fenced
// block under a line naming the file. The fence is longer than any run of
// backticks in the content, so the content cannot close it.
func TextFileBlock(name, content string) string {
	fence := "```"
	for strings.Contains(content, fence) {
		fence += "`"
	}
	content = strings.TrimSuffix(content, "\n")
	return fmt.Sprintf("Attached file %s:\n%s\n%s\n%s", name, fence, content, fence)
}

// ImageDataURL is an image as the provider message carries it.
func ImageDataURL(mime string, data []byte) string {
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data)
}

// ParseImageDataURL splits a data URL made by ImageDataURL into its MIME
// type and bytes; ok is false for anything else.
func ParseImageDataURL(s string) (mime string, data []byte, ok bool) {
	rest, found := strings.CutPrefix(s, "data:")
	if !found {
		return "", nil, false
	}
	meta, payload, found := strings.Cut(rest, ",")
	if !found {
		return "", nil, false
	}
	mime, found = strings.CutSuffix(meta, ";base64")
	if !found || mime == "" || strings.ContainsAny(mime, ";,") {
		return "", nil, false
	}
	data, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return "", nil, false
	}
	return mime, data, true
}

func attachmentName(a Attachment) string {
	if a.Name != "" {
		return a.Name
	}
	if a.Path != "" {
		return filepath.Base(a.Path)
	}
	return "(unnamed)"
}

// attachmentData is the attachment's bytes, read from Path when Data is
// nil, never more than the largest limit plus one byte (so an oversized
// file is refused without being read whole).
func attachmentData(a Attachment) ([]byte, error) {
	if a.Data != nil || a.Path == "" {
		return a.Data, nil
	}
	f, err := os.Open(a.Path)
	if err != nil {
		return nil, fmt.Errorf("cannot read it: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("cannot read it: %w", err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("it is a folder, not a file")
	}
	limit := int64(max(MaxImageBytes, MaxTextFileBytes)) + 1
	data, err := io.ReadAll(io.LimitReader(f, limit))
	if err != nil {
		return nil, fmt.Errorf("cannot read it: %w", err)
	}
	return data, nil
}

// attachmentMIME is the given MIME type, else the one the extension names,
// else what the bytes look like.
func attachmentMIME(a Attachment, data []byte) string {
	if a.MIME != "" {
		m, _, _ := strings.Cut(a.MIME, ";")
		return strings.ToLower(strings.TrimSpace(m))
	}
	switch strings.ToLower(filepath.Ext(attachmentName(a))) {
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".gif":
		return "image/gif"
	case ".webp":
		return "image/webp"
	}
	if data == nil {
		return ""
	}
	m, _, _ := strings.Cut(http.DetectContentType(data), ";")
	return m
}

// SizeText is a byte count as people read it: "75 bytes", "1.2 KiB",
// "3.4 MiB" (attachment limits, the window's chips).
func SizeText(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// MaxRequestImagesBytes bounds the images of one request, as sent (base64):
// the request travels in one NDJSON frame of protocol.FrameBytes (8 MiB)
// with the rest of the conversation. (The real host budgets 20 MiB of
// inline images a request and offloads the oldest past it.)
const MaxRequestImagesBytes = 6 << 20

// requestImages is the history as a request carries it: a model without
// vision gets no images, and when the images together pass
// MaxRequestImagesBytes the oldest are left out, the newest kept. An image
// left out is named in its message's text, so the model knows one was
// there. The session keeps every image.
func requestImages(msgs []protocol.ProviderMessage, vision bool) []protocol.ProviderMessage {
	total, has := 0, false
	for _, m := range msgs {
		for _, img := range m.Images {
			total += len(img)
			has = true
		}
	}
	if !has || vision && total <= MaxRequestImagesBytes {
		return msgs
	}
	out := slices.Clone(msgs)
	for i := range out {
		m := &out[i]
		if len(m.Images) == 0 {
			continue
		}
		var kept []string
		omitted := 0
		for _, img := range m.Images {
			if vision && total <= MaxRequestImagesBytes {
				kept = append(kept, img)
				continue
			}
			total -= len(img)
			omitted++
		}
		if omitted > 0 {
			why := "the model does not accept images"
			if vision {
				why = "the request's images are over its size limit"
			}
			m.Content += fmt.Sprintf("\n\n[%d attached image(s) left out of this request: %s]", omitted, why)
		}
		m.Images = kept
	}
	return out
}
