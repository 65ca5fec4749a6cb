package desktop

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// meterFake is a core whose chat cost 0.0123 CNY over two replies (one
// off-peak), whose next request sends 12,345 of 131,072 tokens and whose
// server reports a balance.
type meterFake struct {
	*fakeCore
	balanceErr error
}

func (meterFake) Session() agent.Session { return agent.Session{ID: fakeSession, Model: echoModel} }
func (meterFake) SessionCost() agent.ChatCost {
	return agent.ChatCost{Amount: 0.0123, Currency: "CNY", Replies: 2, OffPeak: 1}
}
func (meterFake) ContextUse() agent.ContextUse {
	return agent.ContextUse{Tokens: 12_345, Window: 131_072, Measured: true}
}
func (meterFake) BalancePlugin() (string, bool) { return "openai-provider", true }
func (m meterFake) Balance(context.Context, string) (agent.AccountBalance, error) {
	if m.balanceErr != nil {
		return agent.AccountBalance{}, m.balanceErr
	}
	return agent.AccountBalance{Available: true, Balances: []agent.CurrencyBalance{{Currency: "CNY", Total: 110}}}, nil
}

// After a reply's usage the status bar shows the chat's total in its
// currency, with the off-peak reply counted, and what the next request
// sends against the context window; Balance asks the server and shows the
// answer in place, a failure in words.
func TestStatusBarShowsChatCostContextAndBalance(t *testing.T) {
	h := newHarness(t)
	c := meterFake{fakeCore: newDetachedFakeCore(t, h.d)}
	h.d.Attach(c)
	h.waitFor("the chat", func() bool { return !h.d.composer.sendBtn.Disabled() && h.d.chats.viewedID() == fakeSession })
	h.d.Emit(agent.Event{Kind: agent.EventUsage, SessionID: fakeSession, Usage: &protocol.ProviderUsage{PromptTokens: 35, CompletionTokens: 7}})
	var cost, ctx, bal string
	h.waitFor("the meter", func() bool { cost, ctx, bal = h.d.status.MeterText(); return cost != "" })
	if cost != "This chat ¥0.0123 (1 reply off-peak)" || ctx != "Context 12,345 / 131,072 (9%)" || bal != "Balance" {
		t.Errorf("meter %q, %q, %q", cost, ctx, bal)
	}
	h.ui(h.d.showBalance)
	h.waitFor("the balance", func() bool { _, _, bal = h.d.status.MeterText(); return strings.Contains(bal, "¥") })
	if bal != "Balance ¥110.00" {
		t.Errorf("balance %q", bal)
	}
}

// A balance that cannot be read leaves the button as it was and says why.
func TestStatusBarBalanceFailureInWords(t *testing.T) {
	h := newHarness(t)
	c := meterFake{fakeCore: newDetachedFakeCore(t, h.d), balanceErr: errors.New("the key was refused")}
	h.d.Attach(c)
	h.waitFor("the chat", func() bool { return !h.d.composer.sendBtn.Disabled() && h.d.chats.viewedID() == fakeSession })
	h.d.Emit(agent.Event{Kind: agent.EventUsage, SessionID: fakeSession, Usage: &protocol.ProviderUsage{PromptTokens: 1}})
	h.waitFor("the Balance button", func() bool { _, _, b := h.d.status.MeterText(); return b == "Balance" })
	h.ui(h.d.showBalance)
	h.waitFor("the notice", func() bool {
		for _, n := range h.d.notes.Entries() {
			if strings.Contains(n.Title, "The balance could not be read: the key was refused") {
				return true
			}
		}
		return false
	})
	var b string
	h.ui(func() { _, _, b = h.d.status.MeterText() })
	if b != "Balance" {
		t.Errorf("after a failure the button reads %q", b)
	}
}
