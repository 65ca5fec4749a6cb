package chat

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// DeepSeek's usage of one reply: 300,000 tokens in (200,000 of them cache
// hits), 50,000 out.
var dsUsage = protocol.ProviderUsage{PromptTokens: 300_000, CompletionTokens: 50_000,
	CacheHitTokens: 200_000, CacheMissTokens: 100_000}

func TestUsageLineShowsCostOnlyWhenPriced(t *testing.T) {
	u := protocol.ProviderUsage{PromptTokens: 1_200_000, CompletionTokens: 3_000}
	if got := usageLine(u, agent.Cost{}, 0); got != "1,200,000 in · 3,000 out" {
		t.Errorf("no pricing: %q", got)
	}
	offPeak := agent.Cost{Amount: 0.35, Currency: "CNY", OffPeak: true, Priced: true}
	want := "300,000 in · 50,000 out · cache 200,000 hit / 100,000 miss · ¥0.3500 (off-peak) · context 30%"
	if got := usageLine(dsUsage, offPeak, 1_000_000); got != want {
		t.Errorf("priced:\n got %q\nwant %q", got, want)
	}
	// Not priced (no list names the model): no amount, never "free".
	for _, c := range []agent.Cost{{}, {Currency: "USD"}} {
		if got := usageLine(dsUsage, c, 0); strings.ContainsAny(got, "$¥") || strings.Contains(strings.ToLower(got), "free") {
			t.Errorf("unpriced: %q", got)
		}
	}
	inLang(t, i18n.SimplifiedChinese)
	want = "输入 300,000 · 输出 50,000 · 缓存命中 200,000 / 未命中 100,000 · ¥0.3500（错峰优惠） · 上下文 30%"
	if got := usageLine(dsUsage, offPeak, 1_000_000); got != want {
		t.Errorf("in Chinese:\n got %q\nwant %q", got, want)
	}
}

// currencyHost is the test window with the user's currency setting.
type currencyHost struct {
	*testHost
	currency string
}

func (h *currencyHost) Currency() string { return h.currency }

// footerText waits for a usage line under the last reply and returns it.
func (h *harness) footerText() string {
	text := ""
	h.waitFor("a usage line", func() bool {
		text = h.footerNow()
		return text != ""
	})
	return text
}

// footerNow is the usage line under the last reply (UI work).
func (h *harness) footerNow() string {
	text := ""
	for _, v := range h.d.transcript.liveViews() {
		if a, ok := v.(*assistantView); ok && a.footer.usage.Visible() {
			text = a.footer.usage.Segments[0].(*widget.TextSegment).Text
		}
	}
	return text
}

// A live reply shows the cost the core priced it at, in the reply's
// currency with its off-peak mark; with another currency chosen it is
// priced again from the table at the reply's time (hand computation from
// DeepSeek's list of 2025-02 at 17:00 UTC, off-peak: 0.2 M hits × $0.035 +
// 0.1 M misses × $0.135 + 0.05 M out × $0.55 = $0.0480).
func TestFooterShowsTheReplysCost(t *testing.T) {
	t.Setenv(agent.NowEnv, "2025-08-01T17:00:00Z")
	h := newHarness(t)
	const model = "plugin/openai-provider/openai/deepseek-chat"
	host := &currencyHost{testHost: h.d.host}
	h.ui(func() {
		h.d.transcript.d.host = host
		h.d.state.SetModels([]providers.Model{{ID: model}}, nil)
		h.d.state.SetModel(model, "")
	})
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	h.d.Emit(agent.Event{Kind: agent.EventText, Text: "好的。"})
	// ¥ off-peak: 0.2 × 0.25 + 0.1 × 1 + 0.05 × 4 = 0.35, as the core says.
	h.d.transcript.SetUsageCost(dsUsage, &agent.Cost{Amount: 0.35, Currency: "CNY", OffPeak: true, Priced: true})
	h.d.Emit(agent.Event{Kind: agent.EventTurnDone})
	if got := h.footerText(); !strings.Contains(got, "cache 200,000 hit / 100,000 miss · ¥0.3500 (off-peak)") {
		t.Errorf("the core's cost: %q", got)
	}
	h.ui(func() {
		host.currency = "USD"
		h.d.transcript.Relabel() // what a currency change does to the chat
	})
	h.waitFor("the cost in dollars", func() bool { return strings.Contains(h.footerNow(), "$0.0480 (off-peak)") })
}

// A chat saved before replies were priced shows each reply's cost from the
// table at the session's time (10:00 UTC: full price, ¥ 0.2 × 0.5 + 0.1 ×
// 2 + 0.05 × 8 = 0.70).
func TestFooterPricesAnOldSessionAtItsTime(t *testing.T) {
	h := newHarness(t)
	s := agent.Session{Model: "deepseek-chat", LastMessageAt: time.Date(2025, 8, 1, 10, 0, 0, 0, time.UTC),
		Messages: []protocol.ProviderMessage{
			{Role: protocol.RoleUser, Content: "你好"},
			{Role: protocol.RoleAssistant, Content: "你好！"},
		},
		Notes: []agent.Note{{After: 2, Kind: agent.NoteUsage, Usage: &dsUsage}}}
	h.ui(func() { h.d.transcript.ShowSession(s) })
	if got := h.footerText(); !strings.Contains(got, "¥0.7000") || strings.Contains(got, "off-peak") {
		t.Errorf("the old reply's cost: %q", got)
	}
	if s.Notes[0].Cost != nil {
		t.Error("showing the session changed its notes")
	}
}
