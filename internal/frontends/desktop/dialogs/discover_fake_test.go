package dialogs

import (
	"context"
	"errors"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// The test window's market: the real store's (h.store), at the URL set in
// its data folder; without a store there is no market.

var errNoStore = errors.New("no store")

func (h *pluginsHost) MarketURL() (string, error) {
	if h.store == nil {
		return "", nil
	}
	return h.store.MarketURL()
}

func (h *pluginsHost) SetMarketURL(u string) error {
	if h.store == nil {
		return errNoStore
	}
	return h.store.SetMarketURL(u)
}

func (h *pluginsHost) SearchMarket(ctx context.Context, query, kind string) ([]agent.MarketPackage, error) {
	if h.store == nil {
		return nil, errNoStore
	}
	return h.store.SearchMarket(ctx, "", query, kind)
}

func (h *pluginsHost) MarketInfo(ctx context.Context, id string) (agent.MarketPackage, error) {
	if h.store == nil {
		return agent.MarketPackage{}, errNoStore
	}
	return h.store.MarketInfo(ctx, "", id)
}

func (h *pluginsHost) PreviewMarketInstall(ctx context.Context, req agent.MarketInstallRequest) (agent.InstallPreview, error) {
	if h.store == nil {
		return agent.InstallPreview{}, errNoStore
	}
	return h.store.PreviewMarketInstall(ctx, req)
}

func (h *pluginsHost) MarketUpdates(ctx context.Context) ([]agent.MarketUpdate, error) {
	if h.store == nil {
		return nil, errNoStore
	}
	return h.store.MarketUpdates(ctx, "")
}

func (h *pluginsHost) PreviewMarketUpdate(ctx context.Context, name string) (agent.InstallPreview, error) {
	if h.store == nil {
		return agent.InstallPreview{}, errNoStore
	}
	return h.store.PreviewMarketUpdate(ctx, name)
}
