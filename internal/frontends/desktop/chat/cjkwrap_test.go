package chat

import (
	"sort"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// drawnRows are the rows of text an assistant view draws: each row's left
// and right edge, in the view's coordinates, and the width its text may
// fill; the rows' text joined as the selection reads it.
type drawnRow struct {
	left, right float32
	first       rune // the row's first character
}

func drawnRows(av *assistantView) (rows []drawnRow, avail float32, text string) {
	runs := collectRuns(av.text.box, fyne.Position{}, nil)
	byY := map[float32]*drawnRow{}
	var ys []float32
	for _, r := range runs {
		row, ok := byY[r.pos.Y]
		if !ok {
			row = &drawnRow{left: r.pos.X, right: r.pos.X, first: -1}
			byY[r.pos.Y] = row
			ys = append(ys, r.pos.Y)
		}
		if len(r.text) > 0 && (row.first < 0 || r.pos.X < row.left) {
			row.first = r.text[0]
		}
		row.left = min(row.left, r.pos.X)
		row.right = max(row.right, r.pos.X+r.size.Width)
		avail = r.right
	}
	sort.Slice(ys, func(i, j int) bool { return ys[i] < ys[j] })
	for _, y := range ys {
		rows = append(rows, *byY[y])
	}
	if len(runs) > 0 {
		text = runsText(runs, textPos{}, textPos{run: len(runs) - 1, off: len(runs[len(runs)-1].text)})
	}
	return rows, avail, text
}

// A Chinese sentence in a narrow transcript fills each row to the width
// and wraps between characters: Fyne's word wrap breaks only at spaces, so
// the sentence jumped whole to the next row (after English words, leaving
// the first row nearly empty) and, longer than a row, was cut past the
// spaces it had.
func TestChineseWrapsByCharacterToTheWidth(t *testing.T) {
	for _, text := range []string{
		// 40 characters of Chinese.
		"我们先读取配置文件，然后检查每个插件的清单是否完整，最后再启动模型提供方。",
		// English words, then Chinese: the case that left a gap.
		"Run read_file first, 然后我们一起看看这个函数为什么在输入为空的时候返回了错误的结果。",
	} {
		t.Run(text[:6], func(t *testing.T) {
			h := newHarness(t)
			h.ui(func() { h.d.win.Resize(fyne.NewSize(260, 700)) })
			av := h.reply(text)
			// Every width from 240 to 330: a row never starts with the
			// punctuation that closes the sentence before it (UAX #14).
			for w := float32(240); w <= 330; w += 6 {
				h.ui(func() { h.d.win.Resize(fyne.NewSize(w, 700)) })
				h.ui(func() {
					rows, _, _ := drawnRows(av)
					for i, r := range rows {
						if strings.ContainsRune("，。、；：！？", r.first) {
							t.Errorf("at width %v row %d starts with %q", w, i, r.first)
						}
					}
				})
			}
			h.ui(func() { h.d.win.Resize(fyne.NewSize(260, 700)) })
			h.ui(func() {
				rows, avail, got := drawnRows(av)
				if len(rows) < 2 {
					t.Fatalf("the text is on %d row(s) in a narrow view", len(rows))
				}
				char := fyne.MeasureText("字", theme.TextSize(), fyne.TextStyle{}).Width
				for i, r := range rows {
					if r.right > avail+0.5 {
						t.Errorf("row %d ends at %v, past the text's width %v", i, r.right, avail)
					}
					if i < len(rows)-1 && r.right < avail-2*char {
						t.Errorf("row %d ends at %v: more than two characters short of %v", i, r.right, avail)
					}
				}
				if got != text {
					t.Errorf("the rows read back as %q", got)
				}
				// The units of a row are drawn as one text per style, not
				// one per character (pack.go).
				if n := countTexts(av.text.box); n > 2*len(rows) {
					t.Errorf("%d rows are drawn as %d texts", len(rows), n)
				}
				if strings.Contains(got, "\u200b") {
					t.Error("the selection's text holds zero-width spaces")
				}
			})
		})
	}
}
