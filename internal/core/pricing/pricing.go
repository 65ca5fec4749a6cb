// Package pricing prices a model reply's token use from published price
// lists kept as data (prices.json, embedded): which models, which
// currencies, the dates each list applied and its off-peak hours. A model
// no list names is not priced: the package never guesses a price.
package pricing

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
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

//go:embed prices.json
var pricesJSON []byte

// table is prices.json, read once at init: a broken file is a build
// mistake the package's tests catch, so it panics rather than pricing
// nothing in silence.
var table = mustParse(pricesJSON)

type file struct {
	Lists []list `json:"lists"`
}

// models maps a model name to its rates by currency; the first currency
// of a model in the file is its list's own (JSON order is kept by
// decoding it into ordered pairs, see ratesByCurrency).
type list struct {
	ID      string                     `json:"id"`
	From    time.Time                  `json:"from"`
	Until   time.Time                  `json:"until,omitzero"`
	Source  string                     `json:"source"`
	Prices  map[string]ratesByCurrency `json:"prices"`
	Periods []period                   `json:"periods"`
}

type period struct {
	Kind    string                     `json:"kind"` // "off-peak"
	From    time.Time                  `json:"from,omitzero"`
	Note    string                     `json:"note"`
	Windows []window                   `json:"windows"`
	Prices  map[string]ratesByCurrency `json:"prices"`
}

type window struct {
	Days     []string `json:"days"` // "Mon" … "Sun"; none: every day
	From     string   `json:"from"` // "16:30"
	To       string   `json:"to"`   // "24:00"
	from, to int      // minutes of the day
}

// ratesByCurrency keeps the currencies in the order the file lists them:
// the first is the list's own.
type ratesByCurrency struct {
	order []string
	rates map[string]Rates
}

func (r *ratesByCurrency) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if _, err := dec.Token(); err != nil {
		return err
	}
	r.rates = map[string]Rates{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		cur, _ := tok.(string)
		var rt Rates
		if err := dec.Decode(&rt); err != nil {
			return fmt.Errorf("%s: %w", cur, err)
		}
		r.order = append(r.order, cur)
		r.rates[cur] = rt
	}
	return nil
}

func mustParse(data []byte) []list {
	lists, err := parse(data)
	if err != nil {
		panic(fmt.Sprintf("pricing: prices.json: %v", err))
	}
	return lists
}

func parse(data []byte) ([]list, error) {
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	for i := range f.Lists {
		l := &f.Lists[i]
		if l.ID == "" || l.From.IsZero() || l.Source == "" {
			return nil, fmt.Errorf("list %d needs an id, a start and a source", i+1)
		}
		for pi := range l.Periods {
			p := &l.Periods[pi]
			for m := range p.Prices {
				if _, ok := l.Prices[m]; !ok {
					return nil, fmt.Errorf("%s: period prices %s, which the list does not", l.ID, m)
				}
			}
			for wi := range p.Windows {
				w := &p.Windows[wi]
				var err error
				if w.from, err = minutes(w.From); err != nil {
					return nil, fmt.Errorf("%s: %w", l.ID, err)
				}
				if w.to, err = minutes(w.To); err != nil {
					return nil, fmt.Errorf("%s: %w", l.ID, err)
				}
				if w.from >= w.to {
					return nil, fmt.Errorf("%s: window %s-%s is empty or crosses midnight (split it)", l.ID, w.From, w.To)
				}
				for _, d := range w.Days {
					if _, ok := weekdays[d]; !ok {
						return nil, fmt.Errorf("%s: unknown day %q", l.ID, d)
					}
				}
			}
		}
	}
	return f.Lists, nil
}

var weekdays = map[string]time.Weekday{"Sun": time.Sunday, "Mon": time.Monday, "Tue": time.Tuesday,
	"Wed": time.Wednesday, "Thu": time.Thursday, "Fri": time.Friday, "Sat": time.Saturday}

func minutes(hhmm string) (int, error) {
	var h, m int
	if _, err := fmt.Sscanf(hhmm, "%d:%d", &h, &m); err != nil || h < 0 || h > 24 || m < 0 || m > 59 || (h == 24 && m != 0) {
		return 0, fmt.Errorf("time of day %q is not HH:MM", hhmm)
	}
	return h*60 + m, nil
}

func (w window) covers(t time.Time) bool {
	if len(w.Days) > 0 {
		found := false
		for _, d := range w.Days {
			if weekdays[d] == t.Weekday() {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	m := t.Hour()*60 + t.Minute()
	return m >= w.from && m < w.to
}

// modelName is the name a list knows: a menu id
// "plugin/<plugin>/<provider>/<model>" ends with it. A model name with a
// slash of its own (OpenRouter's "deepseek/deepseek-chat") is another
// vendor's offer and stays as it is: it matches no DeepSeek list.
func modelName(model string) string {
	if rest, ok := strings.CutPrefix(model, "plugin/"); ok {
		if parts := strings.SplitN(rest, "/", 3); len(parts) == 3 {
			return parts[2]
		}
	}
	return model
}

// find is the list that names model at time at.
func find(model string, at time.Time) (*list, ratesByCurrency, bool) {
	name := modelName(model)
	for i := range table {
		l := &table[i]
		if at.Before(l.From) || (!l.Until.IsZero() && !at.Before(l.Until)) {
			continue
		}
		if r, ok := l.Prices[name]; ok {
			return l, r, true
		}
	}
	return nil, ratesByCurrency{}, false
}

// Lookup returns the rates that apply to model at time at in currency (""
// : the list's own), whether the off-peak discount applied, and whether a
// list names the model.
func Lookup(model string, at time.Time, currency string) (r Rates, offPeak bool, ok bool) {
	_, rates, _, offPeak, ok := lookup(model, at, currency)
	return rates, offPeak, ok
}

func lookup(model string, at time.Time, currency string) (listID string, r Rates, cur string, offPeak bool, ok bool) {
	at = at.UTC()
	l, base, found := find(model, at)
	if !found {
		return "", Rates{}, "", false, false
	}
	cur = currency
	if cur == "" {
		cur = base.order[0]
	}
	r, ok = base.rates[cur]
	if !ok {
		return "", Rates{}, "", false, false
	}
	name := modelName(model)
	for _, p := range l.Periods {
		if !p.From.IsZero() && at.Before(p.From) {
			continue
		}
		pr, has := p.Prices[name].rates[cur]
		if !has {
			continue
		}
		for _, w := range p.Windows {
			if w.covers(at) {
				return l.ID, pr, cur, p.Kind == "off-peak", true
			}
		}
	}
	return l.ID, r, cur, false, true
}

// Currencies lists the currencies model's list at time at is published in,
// its own first; nil when no list names it.
func Currencies(model string, at time.Time) []string {
	_, r, ok := find(model, at.UTC())
	if !ok {
		return nil
	}
	return append([]string(nil), r.order...)
}

// Cost prices usage of model at time at in currency ("" : the list's own
// currency, the first it publishes). model is the name the provider was
// sent (e.g. "deepseek-chat"); a menu id "plugin/<p>/<provider>/<model>"
// is accepted too. Unknown model, time or currency: Priced is false.
//
// Input tokens are split as the provider reported them; a usage with no
// split (CacheHit+CacheMiss == 0) counts every prompt token as a miss, the
// price the provider charges for an uncached prompt.
func Cost(u protocol.ProviderUsage, model string, at time.Time, currency string) Charge {
	id, r, cur, off, ok := lookup(model, at, currency)
	if !ok {
		return Charge{Currency: currency}
	}
	hit, miss := u.CacheHitTokens, u.CacheMissTokens
	if hit+miss == 0 {
		miss = u.PromptTokens
	}
	c := Charge{Currency: cur, OffPeak: off, Priced: true, List: id,
		CacheHit:  float64(hit) * r.CacheHit / 1e6,
		CacheMiss: float64(miss) * r.CacheMiss / 1e6,
		Output:    float64(u.CompletionTokens) * r.Output / 1e6,
	}
	c.Amount = c.CacheHit + c.CacheMiss + c.Output
	return c
}
