package desktop

import (
	"context"
	"fmt"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/panels"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// meterCore is what the status bar's meter asks the core: the chat's
// total, what the next request sends, and the account's balance where the
// model's server reports one (DeepSeek). A core without them (the tests'
// fakes) shows no meter.
type meterCore interface {
	SessionCost() agent.ChatCost
	ContextUse() agent.ContextUse
	BalancePlugin() (plugin string, ok bool)
	Balance(ctx context.Context, plugin string) (agent.AccountBalance, error)
}

// refreshMeter reads the chat's cost and context use off the UI goroutine
// (the context use may wait on the model catalog) and shows them: after
// each reply's usage and when another chat becomes the core's.
func (d *UI) refreshMeter() {
	c, ok := d.getCore().(meterCore)
	if !ok {
		return
	}
	d.async(i18n.M("chat cost"), func(context.Context) error {
		m := panels.ChatMeter{Cost: c.SessionCost(), Context: c.ContextUse()}
		_, m.Balance = c.BalancePlugin()
		d.status.SetMeter(m)
		d.trace(fmt.Sprintf("meter cost %.6f %s replies %d context %d/%d balance %v",
			m.Cost.Amount, m.Cost.Currency, m.Cost.Replies, m.Context.Tokens, m.Context.Window, m.Balance))
		return nil
	})
}

// showBalance asks the model's server for the account's balance (the
// status bar's Balance button) and shows it there; a failure is said in
// words and the button is itself again.
func (d *UI) showBalance() {
	c, ok := d.getCore().(meterCore)
	if !ok {
		d.status.SetBalance("")
		return
	}
	d.async(i18n.M("read the balance"), func(ctx context.Context) error {
		plugin, ok := c.BalancePlugin()
		if !ok {
			d.status.SetBalance("")
			d.notes.HostNotice(i18n.T("This model's server does not report a balance."), uikit.NoticeInfo)
			return nil
		}
		b, err := c.Balance(ctx, plugin)
		if err != nil {
			d.status.SetBalance("")
			d.notes.HostNotice(i18n.T("The balance could not be read: %s", redact.String(err.Error())), uikit.NoticeWarn)
			d.trace("balance failed")
			return nil
		}
		text := panels.BalanceText(b)
		d.status.SetBalance(text)
		d.trace("balance " + text)
		return nil
	})
}

var _ meterCore = (*agent.Core)(nil) // the real core has the meter
