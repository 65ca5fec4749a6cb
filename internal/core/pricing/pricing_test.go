package pricing

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/protocol"
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// Each want is computed by hand from prices.json: tokens × price / 1e6.
func TestCost(t *testing.T) {
	u := protocol.ProviderUsage{PromptTokens: 35000, CacheHitTokens: 17000, CacheMissTokens: 18000, CompletionTokens: 7000}
	cases := []struct {
		name, model, at, cur string
		want                 float64
		wantCur              string
		offPeak, priced      bool
	}{
		// 17000×0.5 + 18000×2 + 7000×8 = 8500+36000+56000 = 100500 → ¥0.1005
		{"chat standard CNY (own list)", "deepseek-chat", "2025-08-01T10:00:00Z", "", 0.1005, CNY, false, true},
		// off-peak 16:30-00:30 UTC: 17000×0.25 + 18000×1 + 7000×4 = 4250+18000+28000 → ¥0.05025
		{"chat off-peak CNY", "deepseek-chat", "2025-08-01T17:00:00Z", CNY, 0.05025, CNY, true, true},
		{"off-peak after midnight", "deepseek-chat", "2025-08-02T00:29:59Z", CNY, 0.05025, CNY, true, true},
		{"off-peak ends 00:30", "deepseek-chat", "2025-08-02T00:30:00Z", CNY, 0.1005, CNY, false, true},
		{"off-peak begins 16:30", "deepseek-chat", "2025-08-01T16:30:00Z", CNY, 0.05025, CNY, true, true},
		// 17000×0.07 + 18000×0.27 + 7000×1.10 = 1190+4860+7700 = 13750 → $0.01375
		{"chat standard USD", "deepseek-chat", "2025-08-01T10:00:00Z", USD, 0.01375, USD, false, true},
		// reasoner 75% off: 17000×0.035 + 18000×0.135 + 7000×0.55 = 595+2430+3850 = 6875 → $0.006875
		{"reasoner off-peak USD", "deepseek-reasoner", "2025-08-01T20:00:00Z", USD, 0.006875, USD, true, true},
		// 17000×1 + 18000×4 + 7000×16 = 17000+72000+112000 → ¥0.201
		{"reasoner standard CNY", "plugin/openai-provider/openai/deepseek-reasoner", "2025-08-01T10:00:00Z", CNY, 0.201, CNY, false, true},
		{"no off-peak before it began", "deepseek-chat", "2025-02-20T17:00:00Z", CNY, 0.1005, CNY, false, true},
		// 2025-09-05 16:00 UTC: 17000×0.5 + 18000×4 + 7000×12 = 8500+72000+84000 → ¥0.1645, no off-peak
		{"V3.1 list, off-peak gone", "deepseek-chat", "2025-09-05T17:00:00Z", CNY, 0.1645, CNY, false, true},
		{"old list until 16:00", "deepseek-chat", "2025-09-05T15:59:59Z", CNY, 0.1005, CNY, false, true},
		// V3.2: 17000×0.028 + 18000×0.28 + 7000×0.42 = 476+5040+2940 = 8456 → $0.008456
		{"V3.2 list", "deepseek-chat", "2026-01-10T12:00:00Z", USD, 0.008456, USD, false, true},
		// 2026-12-07 is a Monday. Peak 06:00-10:00: 17000×0.006 + 18000×0.3 + 7000×1.2 = 102+5400+8400 → $0.013902
		{"flash peak", "deepseek-flash", "2026-12-07T07:00:00Z", "", 0.013902, USD, false, true},
		{"flash off-peak weekday", "deepseek-flash", "2026-12-07T12:00:00Z", "", 0.006951, USD, true, true},
		{"flash off-peak weekend", "deepseek-flash", "2026-12-12T07:00:00Z", USD, 0.006951, USD, true, true},
		{"flash has no CNY list", "deepseek-flash", "2026-12-07T07:00:00Z", CNY, 0, CNY, false, false},
		{"retired alias not priced", "deepseek-chat", "2026-05-01T12:00:00Z", "", 0, "", false, false},
		{"before the first list", "deepseek-chat", "2025-01-01T12:00:00Z", "", 0, "", false, false},
		{"another vendor's name", "deepseek/deepseek-chat", "2025-08-01T10:00:00Z", "", 0, "", false, false},
		{"unknown model", "gpt-4o", "2025-08-01T10:00:00Z", USD, 0, USD, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := Cost(u, tc.model, at(tc.at), tc.cur)
			if c.Priced != tc.priced || c.OffPeak != tc.offPeak || c.Currency != tc.wantCur || math.Abs(c.Amount-tc.want) > 1e-12 {
				t.Fatalf("Cost = %+v, want amount %v %s off-peak %v priced %v", c, tc.want, tc.wantCur, tc.offPeak, tc.priced)
			}
			if math.Abs(c.CacheHit+c.CacheMiss+c.Output-c.Amount) > 1e-12 {
				t.Fatalf("parts %+v do not add up", c)
			}
		})
	}
}

func TestCostWithoutCacheSplit(t *testing.T) {
	// A server that reports no split: every prompt token is a miss.
	// 1000×2 + 500×8 = 6000 → ¥0.006
	c := Cost(protocol.ProviderUsage{PromptTokens: 1000, CompletionTokens: 500}, "deepseek-chat", at("2025-08-01T10:00:00Z"), CNY)
	if math.Abs(c.Amount-0.006) > 1e-12 || c.CacheHit != 0 {
		t.Fatalf("Cost = %+v, want ¥0.006 all miss", c)
	}
}

func TestCurrencies(t *testing.T) {
	if got := Currencies("deepseek-chat", at("2025-08-01T10:00:00Z")); strings.Join(got, ",") != "CNY,USD" {
		t.Fatalf("Currencies = %v, want CNY first (the list's own), then USD", got)
	}
	if got := Currencies("llama3", at("2025-08-01T10:00:00Z")); got != nil {
		t.Fatalf("Currencies of an unknown model = %v", got)
	}
}

func TestTableRefusesMistakes(t *testing.T) {
	for name, data := range map[string]string{
		"crossing midnight": `{"lists":[{"id":"x","from":"2025-01-01T00:00:00Z","source":"s","prices":{"m":{"USD":{}}},"periods":[{"kind":"off-peak","windows":[{"from":"16:30","to":"00:30"}],"prices":{"m":{"USD":{}}}}]}]}`,
		"no source":         `{"lists":[{"id":"x","from":"2025-01-01T00:00:00Z","prices":{}}]}`,
		"unknown day":       `{"lists":[{"id":"x","from":"2025-01-01T00:00:00Z","source":"s","prices":{"m":{"USD":{}}},"periods":[{"windows":[{"days":["Mo"],"from":"01:00","to":"02:00"}],"prices":{}}]}]}`,
		"period model":      `{"lists":[{"id":"x","from":"2025-01-01T00:00:00Z","source":"s","prices":{},"periods":[{"windows":[],"prices":{"m":{"USD":{}}}}]}]}`,
	} {
		if _, err := parse([]byte(data)); err == nil {
			t.Errorf("%s: parsed without an error", name)
		}
	}
}
