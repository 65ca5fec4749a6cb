package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
)

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

// balanceTimeout bounds a balance request when ctx has none.
const balanceTimeout = 15 * time.Second

// Balance asks the server the provider plugin is configured for (its
// saved OPENAI_BASE_URL and key, else the app's environment, as the plugin
// gets them) for the account's balance. Errors are in words ("the key was
// refused (401)", "this server has no balance to show", …). It needs no
// running core (the CLI).
func Balance(ctx context.Context, layout Layout, plugin string) (AccountBalance, error) {
	return balanceOf(ctx, OpenProviderKeys(layout, nil, nil), plugin)
}

// Balance is Balance for the core's data directory and key store.
func (c *Core) Balance(ctx context.Context, plugin string) (AccountBalance, error) {
	return balanceOf(ctx, c.keys, plugin)
}

// BalancePlugin is the provider plugin of the current chat's model when
// the server it is configured for has a balance (a DeepSeek address); ok
// false otherwise (the status bar then offers no balance).
func (c *Core) BalancePlugin() (plugin string, ok bool) {
	c.mu.Lock()
	model := c.session.Model
	c.mu.Unlock()
	id, err := providers.ParseModelID(model)
	if err != nil {
		return "", false
	}
	base, _ := c.keys.value(id.Plugin, varBaseURL)
	prefix, _ := c.keys.value(id.Plugin, varPrefix)
	return id.Plugin, hasBalance(base, prefix)
}

// hasBalance: base is DeepSeek's API, or was connected with a preset whose
// server has a balance (Connect names the preset in the display prefix; a
// DeepSeek-compatible server on another address, a test's, counts).
func hasBalance(base, prefix string) bool {
	if u, err := url.Parse(base); err == nil && u.Hostname() == "api.deepseek.com" {
		return true
	}
	for _, p := range presets {
		if p.Balance && prefix == p.Name && base != "" {
			return true
		}
	}
	return false
}

// value is what plugin gets for variable name at its start: the saved
// value, else the app's environment's.
func (k *ProviderKeys) value(plugin, name string) (string, error) {
	v, ok, err := k.store.Get(plugin, name)
	if err != nil {
		return "", fmt.Errorf("read %s of %s: %w", name, plugin, err)
	}
	if !ok {
		v = os.Getenv(name)
	}
	return v, nil
}

func balanceOf(ctx context.Context, keys *ProviderKeys, plugin string) (AccountBalance, error) {
	base, err := keys.value(plugin, varBaseURL)
	if err != nil {
		return AccountBalance{}, err
	}
	if base == "" {
		return AccountBalance{}, fmt.Errorf("%s has no server address saved: connect a model first", plugin)
	}
	key, err := keys.value(plugin, varKey)
	if err != nil {
		return AccountBalance{}, err
	}
	if key == "" {
		return AccountBalance{}, errors.New("no API key is saved for this server")
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, balanceTimeout)
		defer cancel()
	}
	body, err := getJSON(ctx, balanceURL(base), key)
	if err != nil {
		if strings.Contains(err.Error(), "(404)") {
			return AccountBalance{}, errors.New("this server has no balance to show (only DeepSeek's API has one)")
		}
		return AccountBalance{}, err
	}
	return parseBalance(body)
}

// balanceURL is {base}/user/balance, the /v1 a user may have put on
// DeepSeek's address dropped (the balance is not under it).
func balanceURL(base string) string {
	base = strings.TrimRight(base, "/")
	base = strings.TrimSuffix(base, "/v1")
	return base + "/user/balance"
}

// parseBalance reads DeepSeek's answer:
// {"is_available":true,"balance_infos":[{"currency":"CNY","total_balance":"110.00",
// "granted_balance":"10.00","topped_up_balance":"100.00"}]} (amounts are strings).
func parseBalance(body []byte) (AccountBalance, error) {
	var raw struct {
		Available *bool `json:"is_available"`
		Infos     []struct {
			Currency string          `json:"currency"`
			Total    json.RawMessage `json:"total_balance"`
			Granted  json.RawMessage `json:"granted_balance"`
			ToppedUp json.RawMessage `json:"topped_up_balance"`
		} `json:"balance_infos"`
	}
	if err := json.Unmarshal(body, &raw); err != nil || raw.Available == nil {
		return AccountBalance{}, errors.New("the server's balance answer is not one this app can read")
	}
	out := AccountBalance{Available: *raw.Available}
	for _, in := range raw.Infos {
		b := CurrencyBalance{Currency: in.Currency}
		var err error
		if b.Total, err = amount(in.Total); err == nil {
			if b.Granted, err = amount(in.Granted); err == nil {
				b.ToppedUp, err = amount(in.ToppedUp)
			}
		}
		if err != nil {
			return AccountBalance{}, fmt.Errorf("the server's %s balance is not a number: %w", in.Currency, err)
		}
		out.Balances = append(out.Balances, b)
	}
	return out, nil
}

// amount reads "110.00" or 110 (absent: 0).
func amount(raw json.RawMessage) (float64, error) {
	s := strings.Trim(strings.TrimSpace(string(raw)), `"`)
	if s == "" || s == "null" {
		return 0, nil
	}
	return strconv.ParseFloat(s, 64)
}
