package chat

import (
	"regexp"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// A user message's attachments show as chips under its "You" header: one
// per image (its type and size: the session keeps the image as a data URL,
// not its file name) and one per text file inlined into the text (the
// core's "Attached file <name>:" block, whose content the message shows).

// ImageChipLabel is an image chip's text: "image/png · 1.2 KiB".
func ImageChipLabel(mime string, size int) string {
	return mime + " · " + agent.SizeText(size)
}

// imageChipLabels labels the data URLs of a saved message, sizing each
// from its base64 length (nothing is decoded).
func imageChipLabels(images []string) []string {
	out := make([]string, 0, len(images))
	for _, img := range images {
		rest, _ := strings.CutPrefix(img, "data:")
		meta, payload, ok := strings.Cut(rest, ",")
		mime, b64 := strings.CutSuffix(meta, ";base64")
		if !ok || !b64 || mime == "" {
			out = append(out, i18n.T("image"))
			continue
		}
		n := len(payload) / 4 * 3
		n -= len(payload) - len(strings.TrimRight(payload, "="))
		out = append(out, ImageChipLabel(mime, max(n, 0)))
	}
	return out
}

// fileBlockRE finds the core's inlined text files (agent.TextFileBlock).
var fileBlockRE = regexp.MustCompile("(?m)^Attached file (.+):\n```")

// fileChipLabels names the text files inlined into a message's text.
func fileChipLabels(text string) []string {
	var out []string
	for _, m := range fileBlockRE.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// ExpectImages labels the images of the next user message this transcript
// shows (the composer sends them; the core's user-message event carries
// only the text). nil forgets them (the message was refused). Safe from
// any goroutine.
func (t *Transcript) ExpectImages(labels []string) {
	t.mu.Lock()
	t.pendingImages = labels
	t.mu.Unlock()
}

// Chips lists the chips of the last user message (tests, the end-to-end
// script's trace).
func (t *Transcript) Chips() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i := len(t.items) - 1; i >= 0; i-- {
		if it := t.items[i]; it.kind == itemUser {
			return append(append([]string{}, it.images...), fileChipLabels(it.text.String())...)
		}
	}
	return nil
}

// chipChars is the most characters a chip shows (a long file name keeps
// its start and its extension).
const chipChars = 40

func shortChip(s string) string {
	r := []rune(s)
	if len(r) <= chipChars {
		return s
	}
	return string(r[:chipChars-12]) + "…" + string(r[len(r)-11:])
}

// chipRow is the chips of a user message (UI goroutine).
type chipRow struct {
	box   *fyne.Container
	shown []string
}

func newChipRow() *chipRow {
	r := &chipRow{box: container.NewHBox()}
	r.box.Hide()
	return r
}

// show sets the chips: images first, then the text files of text.
func (r *chipRow) show(images []string, text string) {
	labels := append(append([]string{}, images...), fileChipLabels(text)...)
	if strings.Join(labels, "\x00") == strings.Join(r.shown, "\x00") && (len(labels) > 0) == r.box.Visible() {
		return
	}
	r.shown = labels
	r.box.RemoveAll()
	for i, l := range labels {
		icon := theme.FileTextIcon()
		if i < len(images) {
			icon = theme.FileImageIcon()
		}
		// Shortened here, not truncated by the label: in a row of chips a
		// truncating label is as narrow as its "…" and showed nothing else.
		lab := widget.NewLabel(shortChip(l))
		r.box.Add(uikit.PanelBox(theme.ColorNameInputBackground, 0, container.NewHBox(widget.NewIcon(icon), lab)))
	}
	uikit.SetShown(r.box, len(labels) > 0)
}
