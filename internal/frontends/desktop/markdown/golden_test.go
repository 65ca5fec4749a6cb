package markdown

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// goldenReply is a reply as a model writes one: every kind of block the
// chat shows, and a paragraph long enough to wrap several times.
const goldenReply = "# Plan\n\n" +
	"## What changes\n\n" +
	"A paragraph with **bold**, *italic*, `inline code` and a [link](https://example.org/docs). " +
	"It goes on long enough to wrap: the transcript is narrower than the thought, so the words " +
	"have to find their rows, and a word never breaks in the middle when a space is near.\n\n" +
	"- first item\n- second item\n  - nested under it\n    1. deeper, numbered\n- third item\n\n" +
	"1. one\n2. two\n\n" +
	"> A quoted line.\n\n" +
	"| Name | Count | Note |\n|:---|:---:|---:|\n| alpha | 1 | left |\n| **beta** | 22 | right |\n\n" +
	"```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n\n" +
	"### Last\n\nDone."

// variant is the default theme held to one variant whatever the app's
// settings say, so the test renders light and dark on any machine.
type variant struct {
	fyne.Theme
	v fyne.ThemeVariant
}

func (t variant) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(n, t.v)
}

// replyView lays blocks out as the chat shows them: a run of text in a
// word-wrapped RichText, a code block in a monospace RichText on the input
// background, a table as a grid of wrapped cells.
func replyView(blocks []Block) fyne.CanvasObject {
	box := container.NewVBox()
	rich := func(segs []widget.RichTextSegment, wrap fyne.TextWrap) *widget.RichText {
		rt := widget.NewRichText(segs...)
		rt.Wrapping = wrap
		return rt
	}
	for _, b := range blocks {
		switch {
		case b.Code != nil:
			code := &widget.TextSegment{Style: widget.RichTextStyleCodeBlock, Text: b.Code.Text}
			// The test sets the theme before it builds the view, so the
			// rectangle takes the theme's colour as the chat's box does.
			box.Add(container.NewStack(
				canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground)),
				container.NewBorder(widget.NewLabel(b.Code.Lang), nil, nil, nil, rich([]widget.RichTextSegment{code}, fyne.TextWrapBreak))))
		case b.Table != nil:
			cols := 0
			for _, r := range b.Table.Rows {
				cols = max(cols, len(r))
			}
			grid := container.NewGridWithColumns(cols)
			for _, r := range b.Table.Rows {
				for i := range cols {
					var segs []widget.RichTextSegment
					if i < len(r) {
						segs = r[i]
					}
					grid.Add(rich(segs, fyne.TextWrapWord))
				}
			}
			box.Add(grid)
		default:
			box.Add(rich(b.Segs, fyne.TextWrapWord))
		}
	}
	return box
}

// The reply's rendering is held to golden markup (testdata/reply_*.xml) in
// the light and the dark theme: a change to how headings, lists, tables,
// code or wrapped paragraphs look fails here with the new markup written to
// testdata/failed/ to compare, and to copy over the golden when the change
// is meant.
//
// Both themes render to the one golden: the markup names every colour by
// its theme name (foreground, hyperlink, inputBackground…) when it is the
// current theme's, so a colour written in by value shows up as rgba(…) or
// under another name in at least one of them and fails (the light input
// background is the dark theme's "foreground").
func TestReplyRendersAsGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    fyne.ThemeVariant
	}{
		{"light", theme.VariantLight},
		{"dark", theme.VariantDark},
	} {
		t.Run(tc.name, func(t *testing.T) {
			app := test.NewTempApp(t)
			app.Settings().SetTheme(variant{theme.DefaultTheme(), tc.v})
			// A link the chat shows is tappable (its tap asks first); with
			// no handler it would be text.
			view := replyView(RenderBlocks(goldenReply, func(string) {}))
			win := test.NewTempWindow(t, view)
			win.Resize(fyne.NewSize(420, 900))
			// A wrapped RichText knows its height once it has its width:
			// the second layout gives each block the height of its rows.
			view.Refresh()
			test.AssertRendersToMarkup(t, "reply.xml", win.Canvas())
		})
	}
}
