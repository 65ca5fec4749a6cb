package chat

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// replyOf is a reply of about n characters in paragraphs of sentences.
func replyOf(sentence string, n int) string {
	var b strings.Builder
	for i := 0; utf8.RuneCountInString(b.String()) < n; i++ {
		b.WriteString(sentence)
		if i%6 == 5 {
			b.WriteString("\n\n")
		}
	}
	return b.String()
}

// BenchmarkReplyLayout lays out a 2,000-character reply, English and
// Chinese in the same run, at alternating widths (what a frame pays when
// the reply is measured again: a resize, a rebind while it streams). The
// Chinese reply's paragraphs are one segment per character (the UAX #14
// line breaking); text-objects is how many texts the reply draws.
func BenchmarkReplyLayout(b *testing.B) {
	b.Run("english", func(b *testing.B) {
		benchLayout(b, replyOf("The provider streams the reply and the window shows it as it arrives. ", 2000))
	})
	b.Run("chinese", func(b *testing.B) {
		benchLayout(b, replyOf("模型提供方会流式返回回复，窗口在收到内容时立即显示。", 2000))
	})
}

func benchLayout(b *testing.B, text string) {
	h := newHarness(b)
	h.ui(func() { h.d.win.Resize(fyne.NewSize(900, 4000)) })
	av := h.reply(text)
	var spent time.Duration
	objs := 0
	i := 0
	for b.Loop() {
		h.ui(func() {
			w := float32(700 + 10*(i%2))
			i++
			start := time.Now()
			fitRow(av.object(), w, 0)
			spent += time.Since(start)
			objs = countTexts(av.text.box)
		})
	}
	b.ReportMetric(float64(spent)/float64(b.N)/1e6, "ms/layout")
	b.ReportMetric(float64(objs), "text-objects")
}

// countTexts counts the visible texts under o.
func countTexts(o fyne.CanvasObject) int {
	if !o.Visible() {
		return 0
	}
	switch c := o.(type) {
	case *fyne.Container:
		n := 0
		for _, child := range c.Objects {
			n += countTexts(child)
		}
		return n
	case *selText:
		n := 0
		if c.r != nil {
			for _, obj := range c.r.Objects() {
				if _, ok := obj.(*canvas.Text); ok && obj.Visible() {
					n++
				}
			}
		}
		return n
	case fyne.Widget:
		return 0
	}
	return 0
}

// BenchmarkTranscriptStreamingChinese is BenchmarkTranscriptStreaming
// with a Chinese reply (each character its own segment once its paragraph
// holds Chinese), beside the English one in the same run.
func BenchmarkTranscriptStreamingChinese(b *testing.B) {
	b.Run("english", func(b *testing.B) { benchStream(b, 0, proseChunk) })
	b.Run("chinese", func(b *testing.B) { benchStream(b, 0, chineseChunk) })
}

func chineseChunk(i int) string {
	switch {
	case i%200 == 199:
		return "结束。\n\n"
	case i%50 == 49:
		return "**加粗**，"
	}
	return "文字"
}
