package desktop

import (
	"context"
	"errors"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// The fake core's market and marketplace picks: f.market answers when a
// test sets it; without one the market is not set up, as in a fresh data
// folder.

var errNoMarket = errors.New("no market URL is set")

func (f *fakeCore) MarketURL() (string, error) {
	if f.market == nil {
		return "", nil
	}
	return f.market.MarketURL()
}

func (f *fakeCore) SetMarketURL(u string) error {
	if f.market == nil {
		return errNoMarket
	}
	return f.market.SetMarketURL(u)
}

func (f *fakeCore) SearchMarket(ctx context.Context, query, kind string) ([]agent.MarketPackage, error) {
	if f.market == nil {
		return nil, errNoMarket
	}
	return f.market.SearchMarket(ctx, query, kind)
}

func (f *fakeCore) MarketInfo(ctx context.Context, id string) (agent.MarketPackage, error) {
	if f.market == nil {
		return agent.MarketPackage{}, errNoMarket
	}
	return f.market.MarketInfo(ctx, id)
}

func (f *fakeCore) PreviewMarketInstall(ctx context.Context, req agent.MarketInstallRequest) (agent.InstallPreview, error) {
	if f.market == nil {
		return agent.InstallPreview{}, errNoMarket
	}
	return f.market.PreviewMarketInstall(ctx, req)
}

func (f *fakeCore) MarketUpdates(ctx context.Context) ([]agent.MarketUpdate, error) {
	if f.market == nil {
		return nil, errNoMarket
	}
	return f.market.MarketUpdates(ctx)
}

func (f *fakeCore) PreviewMarketUpdate(ctx context.Context, name string) (agent.InstallPreview, error) {
	if f.market == nil {
		return agent.InstallPreview{}, errNoMarket
	}
	return f.market.PreviewMarketUpdate(ctx, name)
}

func (f *fakeCore) PreviewPluginInstallPicks(context.Context, agent.InstallRequest, []string) ([]agent.InstallPreview, error) {
	return nil, errors.New("the fake core installs nothing")
}
