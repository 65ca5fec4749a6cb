package desktop

import (
	"context"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
)

// connectHost is the window as dialogs.ConnectHost.
type connectHost struct {
	async func(what string, fn func(ctx context.Context) error)
	trace func(string)
}

func (h connectHost) Async(what string, fn func(ctx context.Context) error) { h.async(what, fn) }
func (h connectHost) Trace(event string)                                    { h.trace(event) }

// showConnect opens "Connect a model", or raises it when it is open (UI
// goroutine). firstStart words its close button "Later". A connection
// saved refreshes the model menu and picks the server's first model; the
// window closed with nothing saved (Later) or a connection saved is
// remembered: it does not open by itself again.
func (d *UI) showConnect(firstStart bool) {
	if c := d.wins.connect; c != nil {
		c.Window().RequestFocus()
		return
	}
	core, _ := d.getCore().(*agent.Core) // nil while starting: Save says so
	c := dialogs.ShowConnect(d.opts.App, d.b, dialogs.CoreConnector{Core: core}, connectHost{async: d.async, trace: d.trace}, firstStart)
	d.wins.connect = c
	c.OnLater = func() {
		d.prefs.SetConnectLater()
		if d.wins.connect == c {
			d.wins.connect = nil
		}
	}
	c.OnConnected = func(x agent.Connected) {
		d.prefs.SetConnectLater()
		d.wins.connect = nil // the window stays for the user to close; the next opens anew
		d.refreshModels()
		if len(x.Models) > 0 && x.Provider != "" {
			d.pickModel(x.Provider+"/"+x.Models[0], "")
		}
	}
}

// offerConnect opens "Connect a model" by itself once, at a first start:
// when the app asks for it, the catalog is in and holds no model at all
// (a fresh install: the bundled OpenAI-compatible provider has none until
// connected; whoever installed the offline echo model chose it, as the
// demo and the window scripts do), and the user never answered it (UI
// goroutine).
func (d *UI) offerConnect() {
	if !d.opts.ConnectAtStart || d.wins.offered || !d.state.CatalogLoaded() || d.prefs.ConnectLater() {
		return
	}
	if len(d.state.Models()) > 0 {
		return
	}
	d.wins.offered = true
	d.trace("connect offered")
	d.showConnect(true)
}
