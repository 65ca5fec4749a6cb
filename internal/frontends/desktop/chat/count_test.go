package chat

import (
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

// inLang runs the rest of the test in language tag and restores English.
func inLang(t *testing.T, tag string) {
	t.Helper()
	i18n.SetLang(tag)
	t.Cleanup(func() { i18n.SetLang(i18n.English) })
}

func TestReasoningCountsCharactersForChineseAndWordsElsewhere(t *testing.T) {
	// 15 Han characters and 2 punctuation marks, 4 times, then 10 more:
	// 70 characters counted (punctuation is neither a character nor a word).
	zh70 := strings.Repeat("我们先读取这个文件，然后修改函数。", 4) + "确认之后再提交八个字"
	cases := []struct {
		text, en, zh string
	}{
		{"Let me read the file first, then edit it.", "Reasoning (9 words)", "推理（9 词）"},
		{"one", "Reasoning (1 word)", "推理（1 词）"},
		{"I don't know what read_file returns.", "Reasoning (6 words)", "推理（6 词）"},
		{zh70, "Reasoning (70 characters)", "推理（70 字）"},
		{"先调用 read_file 读取 main.go，再改。", "Reasoning (7 characters, 3 words)", "推理（7 字，3 词）"},
		{"ひらがなとカタカナ", "Reasoning (9 characters)", "推理（9 字）"},
		{"한국어 문장", "Reasoning (5 characters)", "推理（5 字）"},
	}
	for _, c := range cases {
		if got := reasoningLabel(c.text); got != c.en {
			t.Errorf("%q in English: %q, want %q", c.text, got, c.en)
		}
	}
	inLang(t, i18n.SimplifiedChinese)
	for _, c := range cases {
		if got := reasoningLabel(c.text); got != c.zh {
			t.Errorf("%q in Chinese: %q, want %q", c.text, got, c.zh)
		}
	}
}

// The button on a streamed reply says the count, not "1 words" for a
// paragraph of Chinese.
func TestReasoningButtonCountsAChineseParagraph(t *testing.T) {
	h := newHarness(t)
	reasoning := strings.Repeat("用户想知道这个函数为什么返回空值", 4) + "我来看看" // 16×4+4 = 68 Han
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	h.d.Emit(agent.Event{Kind: agent.EventReasoning, Text: reasoning})
	h.d.Emit(agent.Event{Kind: agent.EventText, Text: "好的。"})
	h.d.Emit(agent.Event{Kind: agent.EventTurnDone})
	var label string
	h.waitFor("the reasoning button", func() bool {
		for _, v := range h.d.transcript.liveViews() {
			if a, ok := v.(*assistantView); ok && a.think.Visible() {
				label = a.think.Text
				return true
			}
		}
		return false
	})
	if label != "Reasoning (68 characters)" {
		t.Errorf("the reasoning button says %q", label)
	}
}

// A Chinese character is two columns of the height estimate (the width of
// two Latin characters), so a Chinese reply is not estimated at half its
// height.
func TestEstimateCountsChineseAsWide(t *testing.T) {
	for _, c := range []struct {
		line string
		want int
	}{
		{"hello", 5}, {"你好", 4}, {"read_file 读取", 14}, {"，。", 4}, {"café", 4},
	} {
		if got := columns(c.line); got != c.want {
			t.Errorf("columns(%q) = %d, want %d", c.line, got, c.want)
		}
	}
	if got := countLines(strings.Repeat("字", 40), 40); got != 3 {
		t.Errorf("40 Chinese characters at 40 columns: %d lines, want 3", got)
	}
}
