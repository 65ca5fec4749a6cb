package markdown

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"
)

func textsOf(segs []widget.RichTextSegment) []string {
	var out []string
	for _, s := range segs {
		if t, ok := s.(*widget.TextSegment); ok && t.Style.Inline {
			out = append(out, t.Text)
		}
	}
	return out
}

func TestParagraphSplitsAtBreaksFyneDoesNotSee(t *testing.T) {
	// English keeps its one segment: Fyne breaks it at its spaces.
	en := Render("Read the file, then fix the well-known bug.", nil)
	if got := textsOf(en); len(got) != 1 {
		t.Errorf("English is %d segments: %q", len(got), got)
	}
	// Chinese after English: one unit per segment, each after a zero-width
	// space; the closing punctuation stays with its character, English
	// words with their space.
	zh := Render("Run **read_file** 然后看看。", nil)
	want := []string{"Run ", "read_file ", "然", "后", "看", "看。"}
	got := textsOf(zh)
	if len(got) != len(want) {
		t.Fatalf("units %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != ZeroWidthSpace+want[i] {
			t.Errorf("unit %d is %q, want %q", i, got[i], ZeroWidthSpace+want[i])
		}
	}
	if p := PlainText(zh); p != "Run read_file 然后看看。\n" {
		t.Errorf("plain text %q", p)
	}
	// A table cell and a list item are paragraphs too.
	blocks := RenderBlocks("- 第一项内容\n\n| 名称 | 说明 |\n|---|---|\n| 插件 | 模型提供方 |\n", nil)
	for _, b := range blocks {
		var segs []widget.RichTextSegment
		switch {
		case b.Table != nil:
			segs = b.Table.Rows[1][1]
			if strings.Contains(b.Table.Plain, ZeroWidthSpace) {
				t.Errorf("the table's copy holds zero-width spaces: %q", b.Table.Plain)
			}
		default:
			segs = b.Segs
		}
		if n := len(textsOf(segs)); n < 4 {
			t.Errorf("a block is %d segments: %q", n, textsOf(segs))
		}
	}
}

// A long line of Chinese has no ". " and no space: it is split after a
// sentence of its own, not left whole (Fyne's layout time grows faster
// than the text).
func TestLongChineseLineSplitsAfterASentence(t *testing.T) {
	sentence := "这是一个用于测试的句子，它没有任何空格。"
	text := strings.Repeat(sentence, 40)
	p := wordSplit(text, 0, lineLimit)
	if p < 0 || !strings.HasSuffix(text[:p], "。") {
		t.Fatalf("split at %d", p)
	}
	if p > lineLimit || p < lineLimit-len(sentence) {
		t.Errorf("split at %d, not the last sentence end before %d", p, lineLimit)
	}
}
