package agent

import (
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/pricing"
)

// What a chat costs. Each reply's cost is computed when its usage arrives,
// at the price of that moment, and saved in the usage note with the time
// and the model (Note.At, Note.Model, Note.Cost); a session written before
// costs were saved is priced when shown, at its notes' model (the chat's)
// and its last message time. The currency is the user's choice
// (settings.json "currency": "" the model's list, "CNY", "USD").

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
func Now() time.Time { return time.Now().UTC() }

// Currency is the user's currency preference: "" (each model's own list),
// "CNY" or "USD".
func (c *Core) Currency() string { return "" }

// SetCurrency saves the currency preference ("", "CNY" or "USD"); another
// value is an error.
func (c *Core) SetCurrency(cur string) error { return nil }

// Language is settings.json's "language": "" (the system's), "en" or
// "zh-Hans".
func (c *Core) Language() string { return "" }

// SetLanguage saves the language preference ("", "en" or "zh-Hans"); the
// front end applies it (i18n.SetLang).
func (c *Core) SetLanguage(tag string) error { return nil }

// ReplyCost is the cost of a usage note (NoteUsage) of the current chat in
// the preferred currency: the saved cost when it is in that currency, else
// priced again from the note's usage, model and time.
func (c *Core) ReplyCost(n Note) Cost { return Cost{} }

// SessionCost is the current chat's total in the preferred currency.
func (c *Core) SessionCost() ChatCost { return ChatCost{} }

// NoteCost prices a usage note of s in currency ("" : the model's list),
// as ReplyCost does; a note of another kind is not priced.
func NoteCost(s *Session, n Note, currency string) Cost { return Cost{} }

// SessionCostOf totals a saved session in currency ("" : the currency of
// its first priced reply's list), for `session cost ID`.
func SessionCostOf(s *Session, currency string) ChatCost { return ChatCost{} }
