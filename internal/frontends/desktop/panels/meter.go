package panels

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

// ChatMeter is what the status bar says about the chat on screen: what it
// cost so far, what the next request will send against the model's
// context window, and whether the model's server reports a balance.
type ChatMeter struct {
	Cost    agent.ChatCost
	Context agent.ContextUse
	Balance bool
}

// newMeter builds the bar's cost and context labels and its Balance
// button (hidden until a model with a balance is picked).
func (s *StatusBar) newMeter() {
	s.cost = widget.NewLabel("")
	s.cost.Importance = widget.LowImportance
	s.context = widget.NewLabel("")
	s.context.Importance = widget.LowImportance
	s.balance = widget.NewButtonWithIcon(i18n.T("Balance"), theme.InfoIcon(), func() {
		if s.OnBalance != nil {
			s.balance.SetText(i18n.T("Balance…"))
			s.OnBalance()
		}
	})
	s.balance.Importance = widget.LowImportance
	s.balance.Hide()
}

// SetMeter shows m (any goroutine).
func (s *StatusBar) SetMeter(m ChatMeter) {
	cost, ctx := CostText(m.Cost), ContextText(m.Context)
	s.b.Post(func() {
		s.meter = m
		s.cost.SetText(cost)
		s.context.SetText(ctx)
		if m.Balance != s.balance.Visible() {
			if m.Balance {
				s.balance.SetText(i18n.T("Balance"))
				s.balance.Show()
			} else {
				s.balance.Hide()
			}
		}
	})
}

// SetBalance shows what the balance button found, "" for its own label
// again (any goroutine).
func (s *StatusBar) SetBalance(text string) {
	s.b.Post(func() {
		if text == "" {
			text = i18n.T("Balance")
		}
		s.balance.SetText(text)
	})
}

// MeterText is what the bar's cost and context labels read (UI
// goroutine; the tests' and traces' view of them).
func (s *StatusBar) MeterText() (cost, context, balance string) {
	b := ""
	if s.balance.Visible() {
		b = s.balance.Text
	}
	return s.cost.Text, s.context.Text, b
}

// relabelMeter writes the meter again in the language now in use.
func (s *StatusBar) relabelMeter() {
	s.cost.SetText(CostText(s.meter.Cost))
	s.context.SetText(ContextText(s.meter.Context))
	s.balance.SetText(i18n.T("Balance"))
}

// CostText is the chat's total in its currency ("" when no reply was
// priced: an unknown price is not free), saying how many replies no price
// list covers and how many had the off-peak discount.
func CostText(c agent.ChatCost) string {
	if c.Currency == "" || c.Replies-c.Unpriced <= 0 {
		return ""
	}
	text := i18n.T("This chat %s", i18n.Money(c.Amount, c.Currency))
	var notes []string
	if c.OffPeak > 0 {
		notes = append(notes, i18n.N("%d reply off-peak", "%d replies off-peak", c.OffPeak, c.OffPeak))
	}
	if c.Unpriced > 0 {
		notes = append(notes, i18n.N("%d reply not priced", "%d replies not priced", c.Unpriced, c.Unpriced))
	}
	if len(notes) > 0 {
		text = i18n.T("%s (%s)", text, strings.Join(notes, i18n.T(", ")))
	}
	return text
}

// ContextText is what the next request sends against the context window:
// "Context 12,345 / 131,072 (9%)"; "~" when it is an estimate.
func ContextText(u agent.ContextUse) string {
	if u.Tokens <= 0 {
		return ""
	}
	n := i18n.Int(u.Tokens)
	if !u.Measured {
		n = "~" + n
	}
	if u.Window <= 0 {
		return i18n.T("Context %s tokens", n)
	}
	pct := fmt.Sprintf("%d%%", u.Tokens*100/u.Window)
	return i18n.T("Context %s / %s (%s)", n, i18n.Int(u.Window), pct)
}

// BalanceText is an account balance: each currency's total, and a word
// when the server says it is too low to use.
func BalanceText(b agent.AccountBalance) string {
	var parts []string
	for _, c := range b.Balances {
		parts = append(parts, i18n.Money(c.Total, c.Currency))
	}
	if len(parts) == 0 {
		parts = append(parts, i18n.T("none"))
	}
	text := i18n.T("Balance %s", strings.Join(parts, " · "))
	if !b.Available {
		text = i18n.T("%s (too low to use)", text)
	}
	return text
}
