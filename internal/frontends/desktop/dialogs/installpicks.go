package dialogs

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// A marketplace root: a source holding .claude-plugin/marketplace.json
// (as anthropics/claude-code publishes every plugin of it) is no package
// itself; its preview is an *agent.MarketplaceError listing the plugins.
// Install… then lets the user tick the plugins wanted, previews each of
// them (one clone for a git source) and installs those previews in order.

// marketplaceOf is the marketplace a preview's error lists, or nil.
func marketplaceOf(err error) *agent.MarketplaceError {
	var me *agent.MarketplaceError
	if errors.As(err, &me) && me.Marketplace != nil {
		return me
	}
	return nil
}

// picker is the marketplace's plugins as checkboxes: an installable one is
// a check ("name version — description"), one this host cannot install is
// shown disabled with why. onChange runs when a tick changes.
type picker struct {
	checks []*widget.Check
	names  []string
	// remote is the source of a plugin the listing places in another
	// repository (by name): it is previewed as that git source.
	remote map[string]string
}

func newPicker(me *agent.MarketplaceError, onChange func()) (*picker, fyne.CanvasObject) {
	p := &picker{remote: map[string]string{}}
	rows := []fyne.CanvasObject{}
	for _, mp := range me.Marketplace.Plugins {
		label := redact.String(mp.Name)
		if mp.Version != "" {
			label += " " + redact.String(mp.Version)
		}
		if mp.Description != "" {
			label += " — " + redact.String(mp.Description)
		}
		if mp.Remote.IsGit() {
			label += " " + i18n.T("(from %s)", redact.String(mp.Where))
			p.remote[mp.Name] = mp.Remote.Spec
		}
		c := widget.NewCheck(label, func(bool) { onChange() })
		if mp.Unsupported != "" {
			c.Text += " — " + i18n.T("cannot be installed here: %s", redact.String(mp.Unsupported))
			c.Disable()
		}
		p.checks = append(p.checks, c)
		p.names = append(p.names, mp.Name)
		rows = append(rows, c)
	}
	return p, container.NewVScroll(container.NewVBox(rows...))
}

// picked are the ticked plugins' names, in the listing's order.
func (p *picker) picked() []string {
	var out []string
	for i, c := range p.checks {
		if c.Checked && !c.Disabled() {
			out = append(out, p.names[i])
		}
	}
	return out
}

// pickPlugins shows me's plugins in u (a phased dialog): Preview… (or
// Enter) previews the ticked ones from req's source, Cancel closes.
func (f *Install) pickPlugins(u *upkeep, req agent.InstallRequest, me *agent.MarketplaceError) {
	m := me.Marketplace
	name := m.Name
	if name == "" {
		name = req.Source
	}
	head := i18n.N("%s is a marketplace: %s lists %d plugin. Tick the ones to install; each is previewed before anything is installed.",
		"%s is a marketplace: %s lists %d plugins. Tick the ones to install; each is previewed before anything is installed.",
		len(m.Plugins), redact.String(req.Source), redact.String(name), len(m.Plugins))
	if m.Description != "" {
		head += "\n" + redact.String(m.Description)
	}
	var p *picker
	preview := widget.NewButton(i18n.T("Preview…"), func() {
		if names := p.picked(); len(names) > 0 {
			f.previewPicks(u, req, names, p.remote)
		}
	})
	preview.Importance = widget.HighImportance
	sync := func() {
		if len(p.picked()) == 0 {
			preview.Disable()
		} else {
			preview.Enable()
		}
	}
	p, list := newPicker(me, sync)
	sync()
	u.show(fyne.NewSize(720, 520), container.NewBorder(wrapped(head, widget.MediumImportance), nil, nil, nil, list),
		widget.NewButton(i18n.T("Cancel"), u.close), preview)
	f.host.Trace(fmt.Sprintf("marketplace %d", len(m.Plugins)))
}

// previewPicks asks the core for one preview per picked plugin (a git
// source is cloned once for all the marketplace's own plugins; one living
// in another repository is previewed as that source) behind a busy phase
// whose Cancel stops the clones, then shows them.
func (f *Install) previewPicks(u *upkeep, req agent.InstallRequest, names []string, remote map[string]string) {
	what := i18n.T("The preview of %s", redact.String(strings.Join(names, ", ")))
	runPhase(u, i18n.T("Previewing %s from %s …", redact.String(strings.Join(names, ", ")), redact.String(req.Source)), what,
		func(fn func(context.Context, InstallCore) error) {
			f.host.WithCore("preview "+strings.Join(names, ", "), fn)
		},
		func(ctx context.Context, c InstallCore) ([]agent.InstallPreview, error) {
			return previewAll(ctx, c, req, names, remote)
		},
		discardPicks,
		func(c InstallCore, pvs []agent.InstallPreview) { f.showPicks(u, c, req, pvs) })
}

// previewAll previews the marketplace's own picks from one clone, then
// each remote pick from its own repository; a failure drops what was
// staged and names the pick.
func previewAll(ctx context.Context, c InstallCore, req agent.InstallRequest, names []string, remote map[string]string) ([]agent.InstallPreview, error) {
	var local []string
	for _, n := range names {
		if remote[n] == "" {
			local = append(local, n)
		}
	}
	var out []agent.InstallPreview
	if len(local) > 0 {
		pvs, err := c.PreviewPluginInstallPicks(ctx, req, local)
		if err != nil {
			return nil, err
		}
		out = pvs
	}
	for _, n := range names {
		if remote[n] == "" {
			continue
		}
		r := agent.InstallRequest{Source: remote[n], ReplaceInstalled: req.ReplaceInstalled}
		pv, err := c.PreviewPluginInstall(ctx, r)
		if err != nil {
			discardPicks(c, out)
			return nil, fmt.Errorf("plugin %s (from %s): %w", n, redact.String(remote[n]), err)
		}
		out = append(out, pv)
	}
	return out, nil
}

// discardPicks drops what the previews staged: the clone the marketplace's
// own picks share (the last of them owns it; the others are marked
// SharesStage) and each remote pick's clone. A folder stages nothing.
func discardPicks(c InstallCore, pvs []agent.InstallPreview) {
	for _, pv := range pvs {
		if !pv.SharesStage {
			c.DiscardPluginPreview(pv)
		}
	}
}

// showPicks shows the previews of the picks, one tab each (its own FULL
// TRUST warning and compatibility report), under one Install that
// installs them in order; Cancel (or closing) drops the clone.
func (f *Install) showPicks(u *upkeep, c InstallCore, req agent.InstallRequest, pvs []agent.InstallPreview) {
	names := make([]string, len(pvs))
	for i, pv := range pvs {
		names[i] = pv.Name
	}
	var body fyne.CanvasObject
	if len(pvs) == 1 {
		_, body = previewBody(pvs[0])
	} else {
		tabs := container.NewAppTabs()
		for _, pv := range pvs {
			_, b := previewBody(pv)
			title := pv.Name
			if g := previewCompat(pv); g.known() && g.grade != "full" {
				title += " (" + g.grade + ")"
			}
			tabs.Append(container.NewTabItem(title, b))
		}
		body = tabs
	}
	head := wrapped(i18n.T("From %s: %s. Installing is the authorization for each.",
		redact.String(req.Source), redact.String(strings.Join(names, ", "))), widget.MediumImportance)
	u.discard = func() {
		u.async("discard the marketplace's clone", func(context.Context) error { discardPicks(c, pvs); return nil })
	}
	label := i18n.T("Install")
	if len(pvs) > 1 {
		label = i18n.T("Install %d plugins", len(pvs))
	}
	install := widget.NewButton(label, func() {
		u.discard = nil // the installs use the clone; the last one removes it
		u.close()
		f.host.PluginCommand("install "+strings.Join(names, ", "), func(ctx context.Context, c InstallCore) error {
			if err := installPicks(ctx, c, pvs); err != nil {
				return err
			}
			f.b.Post(func() { f.host.Trace("marketplace installed " + strings.Join(names, " ")) })
			return nil
		})
	})
	install.Importance = widget.HighImportance
	u.show(fyne.NewSize(760, 600), container.NewBorder(head, nil, nil, nil, body), widget.NewButton(i18n.T("Cancel"), u.close), install)
	f.host.Trace(fmt.Sprintf("marketplace previews %d", len(pvs)))
}

// installPicks installs the previews in order; the first that fails stops
// the rest (the clone they share is dropped) and is named.
func installPicks(ctx context.Context, c InstallCore, pvs []agent.InstallPreview) error {
	for i, pv := range pvs {
		if _, err := c.InstallPlugin(ctx, pv); err != nil {
			discardPicks(c, pvs[i:])
			return fmt.Errorf("install %s: %w", pv.Name, err)
		}
	}
	return nil
}
