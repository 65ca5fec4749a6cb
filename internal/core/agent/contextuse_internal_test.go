package agent

import "testing"

// DeepSeek's rule of thumb: 0.3 token an English character, 0.6 a Chinese
// one (rounded up). A Chinese text is not counted as one "word".
func TestEstimateTextCountsChineseByCharacter(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int64
	}{
		{"", 0},
		{"hello world", 4},       // 11 × 0.3 = 3.3
		{"你好，世界", 3},             // 5 × 0.6 = 3.0 (the full-width comma is CJK punctuation)
		{"用 Go 写一个 HTTP 服务器", 8}, // 7 CJK × 0.6 + 10 Latin × 0.3 = 4.2 + 3.0 = 7.2 → 8
		{"é", 1},                 // other scripts: 2 × 0.3
	} {
		if got := estimateText(tc.text); got != tc.want {
			t.Errorf("estimateText(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
}
