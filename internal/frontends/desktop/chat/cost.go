package chat

import (
	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/core/pricing"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// sessionNotes are s's notes with each usage note's model, time and cost
// filled in where a session written before replies were priced lacks
// them: the session's model and its last message's time, as the core
// prices a saved chat (agent.NoteCost). s's own notes are not changed.
func sessionNotes(s *agent.Session) []agent.Note {
	var out []agent.Note
	for i, n := range s.Notes {
		if n.Kind != agent.NoteUsage || n.Usage == nil || n.Cost != nil && n.Model != "" && !n.At.IsZero() {
			continue
		}
		if out == nil {
			out = append([]agent.Note(nil), s.Notes...)
		}
		if n.Cost == nil {
			c := agent.NoteCost(s, n, "")
			n.Cost = &c
		}
		if n.Model == "" {
			n.Model = s.Model
		}
		if n.At.IsZero() {
			n.At = s.LastMessageAt
			if n.At.IsZero() {
				n.At = s.Updated
			}
		}
		out[i] = n
	}
	if out == nil {
		return s.Notes
	}
	return out
}

// replyCost is what a reply cost in currency ("": as the core priced it):
// the core's figure when it is in that currency, else the price table's
// at the reply's time for its model (current: the model now chosen, for a
// live reply). Not priced: no list names the model then in that currency.
func replyCost(st msgStatus, currency, current string) agent.Cost {
	if st.usage == nil {
		return agent.Cost{}
	}
	if c := st.cost; c != nil && (currency == "" || c.Currency == currency) {
		return *c
	}
	model := st.model
	if model == "" {
		model = current
	}
	if model == "" || st.at.IsZero() {
		return agent.Cost{}
	}
	return pricing.Cost(*st.usage, model, st.at, currency)
}

// usageLine is a model call's token use, its cost when a price is known
// (never "free" when none is), whether DeepSeek's off-peak discount
// applied, and the share of the context window it used.
func usageLine(u protocol.ProviderUsage, c agent.Cost, window int64) string {
	line := i18n.T("%s in · %s out", i18n.Int(u.PromptTokens), i18n.Int(u.CompletionTokens))
	if u.CacheHitTokens > 0 || u.CacheMissTokens > 0 {
		line += " · " + i18n.T("cache %s hit / %s miss", i18n.Int(u.CacheHitTokens), i18n.Int(u.CacheMissTokens))
	}
	if c.Priced {
		amount := i18n.Money(c.Amount, c.Currency)
		if c.OffPeak {
			amount = i18n.T("%s (off-peak)", amount)
		}
		line += " · " + amount
	}
	if window > 0 && u.PromptTokens > 0 {
		line += " · " + i18n.T("context %d%%", u.PromptTokens*100/window)
	}
	return line
}
