package panels

import (
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

// The meter's words in both languages: the total in the chat's currency
// (nothing when no reply was priced: unknown is not free), the off-peak
// and unpriced replies counted, the context against the window ("~" for
// an estimate), the balance per currency.
func TestMeterTexts(t *testing.T) {
	t.Cleanup(func() { i18n.SetLang(i18n.English) })
	cost := agent.ChatCost{Amount: 0.0123, Currency: "CNY", Replies: 3, Unpriced: 1, OffPeak: 1}
	use := agent.ContextUse{Tokens: 12_345, Window: 131_072}
	bal := agent.AccountBalance{Available: false, Balances: []agent.CurrencyBalance{{Currency: "CNY", Total: 0.5}}}
	for _, tc := range []struct{ lang, cost, use, bal string }{
		{i18n.English, "This chat ¥0.0123 (1 reply off-peak, 1 reply not priced)", "Context ~12,345 / 131,072 (9%)", "Balance ¥0.5000 (too low to use)"},
		{i18n.SimplifiedChinese, "本会话 ¥0.0123（1 条回复按闲时计价，1 条回复无价格）", "上下文 ~12,345 / 131,072（9%）", "余额 ¥0.5000（余额不足）"},
	} {
		i18n.SetLang(tc.lang)
		if got := CostText(cost); got != tc.cost {
			t.Errorf("%s: cost %q, want %q", tc.lang, got, tc.cost)
		}
		if got := ContextText(use); got != tc.use {
			t.Errorf("%s: context %q, want %q", tc.lang, got, tc.use)
		}
		if got := BalanceText(bal); got != tc.bal {
			t.Errorf("%s: balance %q, want %q", tc.lang, got, tc.bal)
		}
	}
	if got := CostText(agent.ChatCost{Replies: 2, Unpriced: 2}); got != "" {
		t.Errorf("no reply priced: %q, want nothing", got)
	}
}
