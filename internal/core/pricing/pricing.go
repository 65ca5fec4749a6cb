// Package pricing prices a model reply's token use from published price
// lists kept as data (prices.json, embedded): which model, which currency,
// which dates a list applied and its off-peak hours. A model no list names
// is not priced: the package never guesses a price.
package pricing

import (
	"time"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// Currencies the lists are published in.
const (
	CNY = "CNY"
	USD = "USD"
)

// Rates are one list's prices per million tokens in one currency.
type Rates struct {
	CacheHit  float64 `json:"cacheHit"`  // input tokens served from the provider's prompt cache
	CacheMiss float64 `json:"cacheMiss"` // other input tokens
	Output    float64 `json:"output"`    // output tokens (reasoning included)
}

// Charge is what one reply cost.
type Charge struct {
	// Amount is the whole cost in Currency (CacheHit+CacheMiss+Output).
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency,omitempty"`
	// Parts of Amount.
	CacheHit  float64 `json:"cacheHit,omitempty"`
	CacheMiss float64 `json:"cacheMiss,omitempty"`
	Output    float64 `json:"output,omitempty"`
	// OffPeak: the list's off-peak discount applied at the reply's time.
	OffPeak bool `json:"offPeak,omitempty"`
	// Priced: a list names the model at that time in that currency; false,
	// Amount is 0 and means "unknown", not "free".
	Priced bool `json:"priced"`
	// List names the price list used (prices.json's id), for the record.
	List string `json:"list,omitempty"`
}

// Cost prices usage of model at time at in currency ("" : the list's own
// currency, the first it publishes). model is the name the provider was
// sent (e.g. "deepseek-chat"); a menu id "plugin/<p>/<provider>/<model>"
// is accepted too. Unknown model, time or currency: Priced is false.
func Cost(u protocol.ProviderUsage, model string, at time.Time, currency string) Charge {
	return Charge{}
}

// Lookup returns the rates that apply to model at time at in currency (""
// : the list's own), whether the off-peak discount applied, and whether a
// list names the model.
func Lookup(model string, at time.Time, currency string) (r Rates, offPeak bool, ok bool) {
	return Rates{}, false, false
}

// Currencies lists the currencies model's list at time at is published in,
// its own first; nil when no list names it.
func Currencies(model string, at time.Time) []string { return nil }
