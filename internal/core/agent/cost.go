package agent

import (
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/pricing"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// What a chat costs. Each reply's cost is computed when its usage arrives,
// at the price of that moment, and saved in the usage note with the time
// and the model (Note.At, Note.Model, Note.Cost); a session written before
// costs were saved is priced when shown, at its chat's model and its last
// message time. The currency is the user's choice (settings.json
// "currency": "" the model's list, "CNY", "USD").
//
// Whose price: a model whose descriptor declares prices (a plugin's own,
// or OPENAI_MODELS' in=/out=/cache= the user wrote) is priced from them:
// that is a statement about this very server, and the same model name
// behind a proxy or a reseller bills otherwise than the vendor's public
// list. Every other model is priced from the table (internal/core/pricing),
// which also knows the dates and the off-peak hours a single figure cannot
// say. Neither converts currencies: a price not published in the wanted
// currency is "not priced".

// Cost is what one reply cost (see pricing.Charge): Amount in Currency,
// its cache-hit, cache-miss and output parts, OffPeak, and Priced (false:
// no published price is known for the model; Amount means nothing).
type Cost = pricing.Charge

// ChatCost is a chat's total.
type ChatCost struct {
	Amount   float64
	Currency string // "" when no reply was priced
	// Replies counts the replies with a usage; Unpriced those of them no
	// price list (in Currency) names, left out of Amount.
	Replies  int
	Unpriced int
	// OffPeak counts the priced replies the off-peak discount applied to.
	OffPeak int
}

// NowEnv pins the clock prices are read at (RFC 3339, e.g.
// REASONIX_NOW=2025-08-01T17:00:00Z): tests of off-peak hours through the
// binary. Unset or unreadable: the real clock.
const NowEnv = "REASONIX_NOW"

// Now is the time a reply is priced at: $REASONIX_NOW when set, else the
// clock (UTC).
func Now() time.Time {
	if v := os.Getenv(NowEnv); v != "" {
		if t, err := time.Parse(time.RFC3339, v); err == nil {
			return t.UTC()
		}
	}
	return time.Now().UTC()
}

// validCurrency: what settings.json's "currency" may hold.
func validCurrency(cur string) bool { return cur == "" || cur == pricing.CNY || cur == pricing.USD }

// Currency is the user's currency preference: "" (each model's own list),
// "CNY" or "USD". A value settings.json should not hold reads as "".
func (c *Core) Currency() string {
	if cur := c.settings.Get().Currency; validCurrency(cur) {
		return cur
	}
	return ""
}

// SetCurrency saves the currency preference ("", "CNY" or "USD"); another
// value is an error.
func (c *Core) SetCurrency(cur string) error {
	if !validCurrency(cur) {
		return fmt.Errorf("currency %q: choose CNY, USD or none (each model's own)", cur)
	}
	if err := c.settings.Update(func(s *Settings) { s.Currency = cur }); err != nil {
		return fmt.Errorf("save the currency: %w", err)
	}
	return nil
}

// Language is settings.json's "language": "" (the system's), "en" or
// "zh-Hans".
func (c *Core) Language() string { return c.settings.Get().Language }

// SetLanguage saves the language preference ("", "en" or "zh-Hans"); the
// front end applies it (i18n.SetLang).
func (c *Core) SetLanguage(tag string) error {
	switch tag {
	case "", "en", "zh-Hans":
	default:
		return fmt.Errorf("language %q: choose en, zh-Hans or none (the system's)", tag)
	}
	if err := c.settings.Update(func(s *Settings) { s.Language = tag }); err != nil {
		return fmt.Errorf("save the language: %w", err)
	}
	return nil
}

// priceReply prices a reply of model (info: its catalog entry, when known)
// at time at in currency (see the top of this file for whose price).
func priceReply(u protocol.ProviderUsage, info providers.Model, model string, at time.Time, currency string) Cost {
	if info.InputPerMillion > 0 || info.OutputPerMillion > 0 {
		return declaredPrice(u, info, currency)
	}
	return pricing.Cost(u, model, at, currency)
}

// declaredPrice prices u from the descriptor's own figures. A descriptor
// that names no currency is taken as USD, the OpenAI-compatible servers'
// (and OPENAI_MODELS') default.
func declaredPrice(u protocol.ProviderUsage, info providers.Model, currency string) Cost {
	cur := info.PricingCurrency
	if cur == "" {
		cur = pricing.USD
	}
	if currency != "" && currency != cur {
		return Cost{Currency: currency}
	}
	hitRate := info.CacheHitPerMillion
	if hitRate == 0 {
		hitRate = info.InputPerMillion // no cache price declared: a hit costs an input token
	}
	hit, miss := u.CacheHitTokens, u.CacheMissTokens
	if hit+miss == 0 {
		miss = u.PromptTokens
	}
	c := Cost{Currency: cur, Priced: true, List: "declared by " + info.Plugin,
		CacheHit:  float64(hit) * hitRate / 1e6,
		CacheMiss: float64(miss) * info.InputPerMillion / 1e6,
		Output:    float64(u.CompletionTokens) * info.OutputPerMillion / 1e6}
	c.Amount = c.CacheHit + c.CacheMiss + c.Output
	return c
}

// usageNote is the note a reply's usage is saved in, priced at its moment.
func (c *Core) usageNote(u protocol.ProviderUsage, ts *turnState, at time.Time) Note {
	cost := priceReply(u, ts.info, ts.model.Model, at, c.Currency())
	return Note{Kind: NoteUsage, Usage: &u, Model: ts.model.Model, At: at, Cost: &cost}
}

// ReplyCost is the cost of a usage note (NoteUsage) of the current chat in
// the preferred currency: the saved cost when it is in that currency, else
// priced again from the note's usage, model and time.
func (c *Core) ReplyCost(n Note) Cost {
	c.mu.Lock()
	s := Session{Model: c.session.Model, Updated: c.session.Updated, LastMessageAt: c.session.LastMessageAt}
	c.mu.Unlock()
	return NoteCost(&s, n, c.Currency())
}

// SessionCost is the current chat's total in the preferred currency.
func (c *Core) SessionCost() ChatCost {
	cur := c.Currency()
	c.mu.Lock()
	// Only the notes: copying a long chat's messages for a status bar
	// figure would make each update cost the chat's length.
	s := Session{Model: c.session.Model, Updated: c.session.Updated, LastMessageAt: c.session.LastMessageAt,
		Notes: slices.Clone(c.session.Notes)}
	c.mu.Unlock()
	return SessionCostOf(&s, cur)
}

// NoteCost prices a usage note of s in currency ("" : the model's list),
// as ReplyCost does; a note of another kind is not priced.
func NoteCost(s *Session, n Note, currency string) Cost {
	if n.Kind != NoteUsage || n.Usage == nil {
		return Cost{Currency: currency}
	}
	if n.Cost != nil && (currency == "" || n.Cost.Currency == currency) && (n.Cost.Priced || currency != "") {
		return *n.Cost
	}
	model, at := n.Model, n.At
	if model == "" {
		model = s.Model // a note of a file written before notes had their model
	}
	if at.IsZero() {
		at = s.LastMessageAt
		if at.IsZero() {
			at = s.Updated
		}
	}
	return pricing.Cost(*n.Usage, model, at, currency)
}

// SessionCostOf totals a saved session in currency ("" : the currency of
// its first priced reply's list), for `session cost ID`.
func SessionCostOf(s *Session, currency string) ChatCost {
	var out ChatCost
	for _, n := range s.Notes {
		if n.Kind != NoteUsage || n.Usage == nil {
			continue
		}
		out.Replies++
		cost := NoteCost(s, n, currency)
		if cost.Priced && currency == "" {
			currency = cost.Currency // the first priced reply sets the chat's currency
		}
		if !cost.Priced || cost.Currency != currency {
			out.Unpriced++
			continue
		}
		out.Amount += cost.Amount
		if cost.OffPeak {
			out.OffPeak++
		}
	}
	if out.Replies > out.Unpriced {
		out.Currency = currency
	}
	return out
}
