package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/termsafe"
	"github.com/reasonix/reasonix-desktop/internal/frontends/headless"
)

// sessionCost is `session cost ID`: each reply's cost (the price saved
// when its usage arrived, or for a chat saved before costs were, its
// model's price at its time) and the chat's total, in currency ("" : the
// model's own list).
func sessionCost(layout agent.Layout, id, currency string, w io.Writer) error {
	st, err := agent.NewSessionStore(layout.SessionsDir())
	if err != nil {
		return err
	}
	s, err := st.Load(id)
	if err != nil {
		return err
	}
	total := agent.SessionCostOf(s, currency)
	rows := [][]string{{i18n.T("#"), i18n.T("TIME"), i18n.T("MODEL"), i18n.T("CACHE HIT"), i18n.T("CACHE MISS"), i18n.T("OUTPUT"), i18n.T("COST")}}
	n := 0
	for _, note := range s.Notes {
		if note.Kind != agent.NoteUsage || note.Usage == nil {
			continue
		}
		n++
		c := agent.NoteCost(s, note, total.Currency)
		cost := i18n.T("no known price")
		if c.Priced {
			cost = i18n.Money(c.Amount, c.Currency)
			if c.OffPeak {
				cost = i18n.T("%s off-peak", cost)
			}
		}
		when := ""
		if !note.At.IsZero() {
			when = i18n.DateTime(note.At.Local())
		}
		u := note.Usage
		rows = append(rows, []string{fmt.Sprint(n), when, termsafe.String(note.Model), i18n.Int(u.CacheHitTokens),
			i18n.Int(u.CacheMissTokens), i18n.Int(u.CompletionTokens), cost})
	}
	fmt.Fprintln(w, termsafe.String(s.Title()))
	if n == 0 {
		fmt.Fprintln(w, i18n.T("No reply of this chat reported its token use."))
		return nil
	}
	fmt.Fprint(w, headless.Columns(rows))
	var sum []string
	if total.Currency != "" {
		sum = append(sum, i18n.T("Total: %s", i18n.Money(total.Amount, total.Currency)))
	} else {
		sum = append(sum, i18n.T("Total: no known price"))
	}
	if total.OffPeak > 0 {
		sum = append(sum, i18n.N("%d reply at off-peak prices", "%d replies at off-peak prices", total.OffPeak, total.OffPeak))
	}
	if total.Unpriced > 0 && total.Currency != "" {
		sum = append(sum, i18n.N("%d reply without a known price left out", "%d replies without a known price left out", total.Unpriced, total.Unpriced))
	}
	fmt.Fprintln(w, strings.Join(sum, i18n.T("; ")))
	return nil
}
