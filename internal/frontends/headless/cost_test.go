package headless

import (
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/protocol"
)

type chatTotal agent.ChatCost

func (c chatTotal) SessionCost() agent.ChatCost { return agent.ChatCost(c) }

// A turn of two model calls (a tool round trip) says what both cost
// together, with the cache split and the off-peak mark, then the chat's
// total from the core; in Chinese too. The reply on standard output is
// left alone.
func TestTurnCostLine(t *testing.T) {
	var out, errb strings.Builder
	f := New(Options{Out: &out, Err: &errb, NonInteractive: true})
	defer f.Close()
	usage := func(hit, miss int64, c agent.Cost) agent.Event {
		return agent.Event{Kind: agent.EventUsage, Usage: &protocol.ProviderUsage{CacheHitTokens: hit, CacheMissTokens: miss}, Cost: &c}
	}
	f.Emit(usage(1000, 2000, agent.Cost{Amount: 1.25, Currency: "CNY", CacheHit: 0.25, CacheMiss: 0.5, Output: 0.5, Priced: true}))
	f.Emit(usage(3000, 0, agent.Cost{Amount: 0.5, Currency: "CNY", CacheHit: 0.25, Output: 0.25, OffPeak: true, Priced: true}))
	f.Emit(agent.Event{Kind: agent.EventText, Text: "done\n"})
	f.sayCost(chatTotal{Amount: 7.5, Currency: "CNY", Replies: 5})
	want := "cost ¥1.75 (cache 4,000 hit ¥0.5000 / 2,000 miss ¥0.5000, output ¥0.7500, off-peak) · chat ¥7.50\n"
	if errb.String() != want {
		t.Errorf("cost line\n got %q\nwant %q", errb.String(), want)
	}
	if out.String() != "done\n" {
		t.Errorf("stdout %q", out.String())
	}

	// The sum starts again with the next turn; a call no list prices is
	// counted, not priced.
	errb.Reset()
	f.Emit(usage(0, 10, agent.Cost{Amount: 0.01, Currency: "USD", Output: 0.01, Priced: true}))
	f.Emit(usage(0, 10, agent.Cost{}))
	i18n.SetLang(i18n.SimplifiedChinese)
	defer i18n.SetLang(i18n.English)
	f.sayCost(nil)
	want = "本次花费 $0.0100（缓存命中 0 个 $0.0000 / 未命中 20 个 $0.0000，输出 $0.0100） + 另有 1 次调用无已知价格\n"
	if errb.String() != want {
		t.Errorf("second turn in Chinese\n got %q\nwant %q", errb.String(), want)
	}

	// A turn of a model no list prices prints nothing.
	errb.Reset()
	f.Emit(usage(0, 10, agent.Cost{}))
	f.sayCost(chatTotal{})
	if errb.Len() != 0 {
		t.Errorf("unpriced turn: %q", errb.String())
	}
}
