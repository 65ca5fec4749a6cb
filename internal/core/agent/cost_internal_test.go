package agent

import (
	"math"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// A plugin that declares its prices is priced from them, not from the
// vendor's list of the same model name (a proxy bills its own way); the
// declared currency is not converted.
func TestDeclaredPricesWinOverTheTable(t *testing.T) {
	u := protocol.ProviderUsage{PromptTokens: 3000, CacheHitTokens: 1000, CacheMissTokens: 2000, CompletionTokens: 500}
	at := time.Date(2025, 8, 1, 10, 0, 0, 0, time.UTC)
	info := providers.Model{Plugin: "proxy", InputPerMillion: 1, OutputPerMillion: 4, CacheHitPerMillion: 0.1, PricingCurrency: "USD"}
	// 1000×0.1 + 2000×1 + 500×4 = 100+2000+2000 = 4100 → $0.0041
	got := priceReply(u, info, "deepseek-chat", at, "")
	if !got.Priced || got.Currency != "USD" || math.Abs(got.Amount-0.0041) > 1e-12 || got.OffPeak {
		t.Fatalf("declared %+v, want $0.0041", got)
	}
	if got := priceReply(u, info, "deepseek-chat", at, "CNY"); got.Priced {
		t.Fatalf("a USD price shown in CNY: %+v", got)
	}
	// No cache price declared: a hit costs an input token. 3000×1 + 500×4 = 5000 → $0.005
	info.CacheHitPerMillion = 0
	if got := priceReply(u, info, "x", at, "USD"); math.Abs(got.Amount-0.005) > 1e-12 {
		t.Fatalf("without a cache price %+v", got)
	}
	// Nothing declared: the table (¥: 1000×0.5 + 2000×2 + 500×8 = 8500 → ¥0.0085).
	if got := priceReply(u, providers.Model{}, "deepseek-chat", at, ""); got.Currency != "CNY" || math.Abs(got.Amount-0.0085) > 1e-12 {
		t.Fatalf("from the table %+v", got)
	}
}

func TestNowFollowsTheEnvironment(t *testing.T) {
	t.Setenv(NowEnv, "2025-08-01T17:00:00+08:00")
	if got := Now(); !got.Equal(time.Date(2025, 8, 1, 9, 0, 0, 0, time.UTC)) || got.Location() != time.UTC {
		t.Fatalf("Now = %v", got)
	}
	t.Setenv(NowEnv, "yesterday")
	if got := Now(); time.Since(got) > time.Minute {
		t.Fatalf("an unreadable %s should be the clock, got %v", NowEnv, got)
	}
}
