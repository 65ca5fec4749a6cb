package agent

import "context"

// AccountBalance is a provider account's balance (DeepSeek's GET
// /user/balance), as plain data.
type AccountBalance struct {
	// Available: the account can still make API calls.
	Available bool
	Balances  []CurrencyBalance
}

// CurrencyBalance is the balance in one currency.
type CurrencyBalance struct {
	Currency string  // "CNY", "USD"
	Total    float64 // Granted + ToppedUp
	Granted  float64
	ToppedUp float64
}

// Balance asks the server the provider plugin is configured for
// (its saved OPENAI_BASE_URL and key) for the account's balance. Errors are
// in words ("the key was refused (401)", "this server has no balance
// endpoint", …). It needs no running core (the CLI).
func Balance(ctx context.Context, layout Layout, plugin string) (AccountBalance, error) {
	return AccountBalance{}, nil
}

// Balance is Balance for the core's data directory and key store.
func (c *Core) Balance(ctx context.Context, plugin string) (AccountBalance, error) {
	return AccountBalance{}, nil
}

// BalancePlugin is the provider plugin of the current chat's model when
// the server it is configured for has a balance (a DeepSeek URL); ok false
// otherwise (the status bar then offers no balance).
func (c *Core) BalancePlugin() (plugin string, ok bool) { return "", false }
