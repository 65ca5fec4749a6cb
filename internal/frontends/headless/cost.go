package headless

import (
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

// What a reply costs, on the terminal: after each turn one line on the
// error stream (the reply on standard output stays the model's text alone,
// for scripts), "cost ¥0.0032 (cache 400,000 hit ¥0.0001 / 600,000 miss
// ¥0.0012, output ¥0.0019, off-peak) · chat ¥0.0110". A turn that made
// several model calls (a tool round trip) adds them up; calls of a model
// no price list names are counted, never given a made-up figure, and a
// turn with no priced call prints nothing.

// ChatCoster is the part of the core that totals the chat (*agent.Core
// satisfies it): the chat total printed after the turn's cost.
type ChatCoster interface {
	SessionCost() agent.ChatCost
}

var _ ChatCoster = (*agent.Core)(nil)

// turnCost sums a turn's usage events. The caller holds f.mu.
type turnCost struct {
	calls                  int   // usage events this turn
	unpriced               int   // of them, with no known price
	hitTokens, missTokens  int64 // input tokens read from / not in the cache
	amount, hit, miss, out float64
	currency               string
	offPeak                bool
}

// addUsage records one usage event of the turn. The caller holds f.mu.
func (f *Frontend) addUsage(ev agent.Event) {
	c := &f.cost
	c.calls++
	if u := ev.Usage; u != nil {
		c.hitTokens += u.CacheHitTokens
		c.missTokens += u.CacheMissTokens
	}
	cost := ev.Cost
	if cost == nil || !cost.Priced || (c.currency != "" && cost.Currency != c.currency) {
		c.unpriced++
		return
	}
	c.currency = cost.Currency
	c.amount += cost.Amount
	c.hit += cost.CacheHit
	c.miss += cost.CacheMiss
	c.out += cost.Output
	c.offPeak = c.offPeak || cost.OffPeak
}

// costLine says what the turn cost and, when core totals chats, what the
// chat has cost so far; "" when the turn reported no usage. It resets the
// turn's sum.
func (f *Frontend) costLine(core any) string {
	f.mu.Lock()
	c := f.cost
	f.cost = turnCost{}
	f.mu.Unlock()
	if c.currency == "" {
		// No usage, or no price known for the model (the echo model, a
		// local server): nothing to add up, and no figure made up.
		return ""
	}
	detail := []string{
		i18n.T("cache %s hit %s / %s miss %s", i18n.Int(c.hitTokens), i18n.Money(c.hit, c.currency),
			i18n.Int(c.missTokens), i18n.Money(c.miss, c.currency)),
		i18n.T("output %s", i18n.Money(c.out, c.currency)),
	}
	if c.offPeak {
		detail = append(detail, i18n.T("off-peak"))
	}
	line := i18n.T("cost %s (%s)", i18n.Money(c.amount, c.currency), strings.Join(detail, i18n.T(", ")))
	if c.unpriced > 0 {
		line += " " + i18n.N("+ %d call without a known price", "+ %d calls without a known price", c.unpriced, c.unpriced)
	}
	parts := []string{line}
	if cc, ok := core.(ChatCoster); ok {
		if total := cc.SessionCost(); total.Currency != "" {
			t := i18n.T("chat %s", i18n.Money(total.Amount, total.Currency))
			if total.Unpriced > 0 {
				t += " " + i18n.N("(%d reply without a known price left out)", "(%d replies without a known price left out)", total.Unpriced, total.Unpriced)
			}
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " · ")
}

// sayCost prints the turn's cost line (nothing in JSON mode: the usage
// events carry the figures).
func (f *Frontend) sayCost(core any) {
	if f.opts.JSON {
		f.mu.Lock()
		f.cost = turnCost{}
		f.mu.Unlock()
		return
	}
	if line := f.costLine(core); line != "" {
		f.say("%s\n", line)
	}
}
