package dialogs

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/markdown"
)

// discover is the plugin manager's Discover tab: the package market set in
// Settings (or here), searched by words and kind; the selected entry's
// facts (author, licence, repository, the content hash its reviewer
// pinned, installs); Install… downloads it, the core refusing content that
// is not the reviewed one before anything is written, then shows the same
// FULL TRUST preview as any install; My packages lists the installed market
// packages the index has something newer for, each with Update….
//
// Everything the market says is plugin text: the core redacts it, and it
// is shown as plain text (never Markdown: no link or image of a market's
// making is rendered). Core calls run off the UI goroutine; each search is
// numbered and only the latest one lands.
type discover struct {
	m       *PluginManager
	url     *widget.Entry
	query   *widget.Entry
	kind    *widget.Select
	status  *widget.Label
	list    *widget.List
	details *widget.RichText
	install *widget.Button
	updates *fyne.Container
	results []agent.MarketPackage
	// selected is the highlighted row (-1: none), as the manager's list.
	selected int
	seq      int
	loaded   bool
	// market is the URL the core has set ("" when none).
	market string
}

// kinds are the market's kinds as the filter offers them.
// The first ("All kinds") is shown translated; the others are the
// market's own words.
var kinds = []string{i18n.M("All kinds"), "plugin", "skill", "mcp", "theme"}

func newDiscover(m *PluginManager) (*discover, fyne.CanvasObject) {
	d := &discover{m: m, selected: -1, details: widget.NewRichText(), updates: container.NewVBox()}
	d.details.Wrapping = fyne.TextWrapWord
	d.url = widget.NewEntry()
	d.url.SetPlaceHolder(i18n.T("https://market.example/index.json or file:///path/to/market"))
	d.url.OnSubmitted = func(string) { d.setURL() }
	setURL := widget.NewButton(i18n.T("Use this market"), d.setURL)
	d.query = widget.NewEntry()
	d.query.SetPlaceHolder(i18n.T("Search the market (words of a name, summary or tag)"))
	d.query.OnSubmitted = func(string) { d.search() }
	d.kind = widget.NewSelect(append([]string{i18n.T(kinds[0])}, kinds[1:]...), func(string) {
		if d.loaded {
			d.search()
		}
	})
	d.kind.SetSelectedIndex(0)
	search := widget.NewButtonWithIcon(i18n.T("Search"), theme.SearchIcon(), d.search)
	d.status = widget.NewLabel("")
	d.status.Wrapping = fyne.TextWrapWord
	d.list = widget.NewList(func() int { return len(d.results) },
		func() fyne.CanvasObject {
			name := widget.NewLabel("")
			name.TextStyle.Bold = true
			return container.NewHBox(name, widget.NewLabel(""))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			mp := d.results[i]
			row := o.(*fyne.Container)
			row.Objects[0].(*widget.Label).SetText(mp.ID)
			tag := row.Objects[1].(*widget.Label)
			tag.SetText(resultTag(mp))
			tag.Importance = widget.LowImportance
			if mp.Update != "" {
				tag.Importance = widget.WarningImportance
			} else if mp.Installed != "" {
				tag.Importance = widget.SuccessImportance
			}
			row.Refresh()
		})
	d.list.OnSelected = func(i widget.ListItemID) { d.selected = i; d.showSelected() }
	d.list.OnUnselected = func(i widget.ListItemID) {
		if d.selected == i {
			d.selected = -1
			d.showSelected()
		}
	}
	d.install = widget.NewButtonWithIcon(i18n.T("Install…"), theme.DownloadIcon(), d.installSelected)
	d.install.Importance = widget.HighImportance
	check := widget.NewButtonWithIcon(i18n.T("Check for updates"), theme.ViewRefreshIcon(), d.loadUpdates)
	top := container.NewVBox(
		container.NewBorder(nil, nil, widget.NewLabel(i18n.T("Market")), setURL, d.url),
		container.NewBorder(nil, nil, nil, container.NewHBox(d.kind, search), d.query),
		d.status)
	right := container.NewBorder(container.NewHBox(d.install), nil, nil, nil, container.NewVScroll(container.NewPadded(d.details)))
	split := container.NewHSplit(d.list, right)
	split.Offset = 0.35
	mine := container.NewVBox(widget.NewSeparator(),
		container.NewBorder(nil, nil, heading(i18n.T("My packages from the market")), check), d.updates)
	d.showSelected()
	return d, container.NewBorder(top, mine, nil, nil, split)
}

// resultTag is a result row's second column: its version and whether it
// is installed or has an update.
func resultTag(mp agent.MarketPackage) string {
	tag := mp.Version + " · " + mp.Kind
	switch {
	case mp.Update != "":
		tag += " · " + i18n.T("update: %s", mp.Update)
	case mp.Installed != "":
		tag += " · " + i18n.T("installed %s", mp.Installed)
	}
	return tag
}

// load reads the market set and, when there is one, lists it and the
// updates (the first time the tab is shown: no market is asked before).
func (d *discover) load() {
	d.loaded = true
	d.m.host.WithCore("read the market's URL", func(_ context.Context, c PluginsCore) error {
		u, err := c.MarketURL()
		if err != nil {
			return err
		}
		d.m.b.Post(func() {
			d.market = u
			d.url.SetText(u)
			d.search()
			d.loadUpdates()
		})
		return nil
	})
}

// setURL saves the market URL typed (empty unsets it) and lists it.
func (d *discover) setURL() {
	u := strings.TrimSpace(d.url.Text)
	d.m.host.WithCore("set the market", func(_ context.Context, c PluginsCore) error {
		if err := c.SetMarketURL(u); err != nil {
			return err
		}
		// The environment's REASONIX_DESKTOP_MARKET_URL wins over the
		// saved URL: the field shows the market searched.
		now, err := c.MarketURL()
		if err != nil {
			return err
		}
		d.m.b.Post(func() {
			d.market = now
			d.url.SetText(now)
			d.search()
			d.loadUpdates()
		})
		return nil
	})
}

// search lists the entries matching the query and kind (all of them for
// an empty query), keeping the selected entry selected when it is listed.
func (d *discover) search() {
	d.seq++
	seq := d.seq
	if d.market == "" {
		d.results = nil
		d.list.UnselectAll()
		d.list.Refresh()
		d.selected = -1
		d.showSelected()
		d.status.SetText(i18n.T("No market is set: enter its URL above (an index.json over https, or a folder as file://; a private market works the same)."))
		return
	}
	q, kind := strings.TrimSpace(d.query.Text), d.kind.Selected
	if d.kind.SelectedIndex() <= 0 {
		kind = ""
	}
	d.status.SetText(i18n.T("Searching %s …", redact.String(d.market)))
	d.m.host.WithCore("search the market", func(ctx context.Context, c PluginsCore) error {
		rs, err := c.SearchMarket(ctx, q, kind)
		d.m.b.Post(func() {
			if seq != d.seq {
				return // a newer search lands
			}
			if err != nil {
				d.status.SetText(i18n.T("The market could not be read: %s", redact.String(err.Error())))
				d.status.Importance = widget.DangerImportance
				d.status.Refresh()
				return
			}
			d.status.Importance = widget.MediumImportance
			d.show(rs, q)
			d.m.host.Trace(fmt.Sprintf("discover results %d", len(rs)))
		})
		return nil
	})
}

// show lists rs, the selection following its entry by id.
func (d *discover) show(rs []agent.MarketPackage, q string) {
	id := ""
	if mp, ok := d.current(); ok {
		id = mp.ID
	}
	d.results = rs
	d.list.Refresh()
	switch {
	case len(rs) == 0 && q != "":
		d.status.SetText(i18n.T("Nothing in %s matches %q.", redact.String(d.market), q))
	default:
		d.status.SetText(i18n.N("%d package in %s.", "%d packages in %s.", len(rs), len(rs), redact.String(d.market)))
	}
	for i, mp := range rs {
		if mp.ID == id {
			d.selected = i
			d.list.Select(i)
			d.showSelected()
			return
		}
	}
	// The entry selected is gone: the best match is shown, so its facts
	// are in view without a click.
	d.selected = -1
	d.list.UnselectAll()
	if len(rs) > 0 {
		d.selected = 0
		d.list.Select(0)
	}
	d.showSelected()
}

func (d *discover) current() (agent.MarketPackage, bool) {
	if d.selected < 0 || d.selected >= len(d.results) {
		return agent.MarketPackage{}, false
	}
	return d.results[d.selected], true
}

// showSelected shows the selected entry's facts and what its button does:
// Install… for a plugin not installed, Update… for one with an update.
func (d *discover) showSelected() {
	mp, ok := d.current()
	if !ok {
		d.install.SetText(i18n.T("Install…"))
		d.install.Disable()
		d.details.Segments = markdown.Render(i18n.T("Select a package to see what it is and where it comes from."), nil)
		d.details.Refresh()
		return
	}
	d.install.Enable()
	switch {
	case !mp.Installable:
		d.install.SetText(i18n.T("Install…"))
		d.install.Disable()
	case mp.Update != "" && mp.InstalledAs != "":
		d.install.SetText(i18n.T("Update…"))
	case mp.Installed != "":
		d.install.SetText(i18n.T("Install again…"))
	default:
		d.install.SetText(i18n.T("Install…"))
	}
	d.details.Segments = marketDetails(mp)
	d.details.Refresh()
}

// marketDetails is an entry's facts as plain text segments (the market's
// strings are the core's, redacted; none is rendered as Markdown).
func marketDetails(mp agent.MarketPackage) []widget.RichTextSegment {
	para := func(s string) widget.RichTextSegment {
		return &widget.TextSegment{Style: widget.RichTextStyleParagraph, Text: s}
	}
	kv := func(k, v string) []widget.RichTextSegment {
		if v == "" {
			return nil
		}
		return []widget.RichTextSegment{&widget.TextSegment{Style: widget.RichTextStyleStrong, Text: i18n.T("%s: ", i18n.T(k))}, para(v)}
	}
	segs := []widget.RichTextSegment{&widget.TextSegment{Style: widget.RichTextStyleSubHeading, Text: mp.Name + " " + mp.Version}}
	if mp.Summary != "" {
		segs = append(segs, para(mp.Summary))
	}
	if mp.Description != "" && mp.Description != mp.Summary {
		segs = append(segs, para(mp.Description))
	}
	segs = append(segs, kv(i18n.M("Market id"), mp.ID+" ("+mp.Kind+")")...)
	segs = append(segs, kv(i18n.M("Author"), mp.Author)...)
	segs = append(segs, kv(i18n.M("License"), mp.License)...)
	segs = append(segs, kv(i18n.M("Repository"), mp.Repository)...)
	segs = append(segs, kv(i18n.M("Source"), mp.Source)...)
	segs = append(segs, kv(i18n.M("Tags"), strings.Join(mp.Tags, ", "))...)
	segs = append(segs, kv(i18n.M("Popularity"), i18n.T("%s votes, %s installs", i18n.Int(int64(mp.Votes)), i18n.Int(int64(mp.Installs))))...)
	segs = append(segs, kv(i18n.M("Updated"), mp.UpdatedAt)...)
	if mp.ContentSHA256 != "" {
		segs = append(segs, kv(i18n.M("Reviewed content"), i18n.T("sha256:%s (the download is refused unless it matches)", mp.ContentSHA256))...)
	} else {
		segs = append(segs, kv(i18n.M("Reviewed content"), i18n.T("no hash pinned: what is downloaded is not checked against what was reviewed"))...)
	}
	if mp.Installed != "" {
		segs = append(segs, kv(i18n.M("Installed"), mp.InstalledAs+" "+mp.Installed)...)
	}
	if mp.Update != "" {
		segs = append(segs, kv(i18n.M("Update"), mp.Update)...)
	}
	if !mp.Installable {
		segs = append(segs, para(i18n.T("This host installs plugin packages from the market; a %s is not installed from here.", mp.Kind)))
	}
	return segs
}

// installSelected previews installing (or updating) the selected entry.
func (d *discover) installSelected() {
	mp, ok := d.current()
	if !ok || !mp.Installable {
		return
	}
	if mp.Update != "" && mp.InstalledAs != "" {
		d.update(mp.InstalledAs)
		return
	}
	u := d.m.newUpkeep(i18n.T("Install %s from the market", mp.ID), mp.ID)
	runPhase(u, i18n.T("Downloading %s %s and checking it against the hash the market pinned …", mp.ID, mp.Version),
		i18n.T("The install of %s", mp.ID), d.withCore("install "+mp.ID),
		func(ctx context.Context, c PluginsCore) (agent.InstallPreview, error) {
			return c.PreviewMarketInstall(ctx, agent.MarketInstallRequest{ID: mp.ID, ReplaceInstalled: true})
		},
		func(c PluginsCore, pv agent.InstallPreview) { c.DiscardPluginPreview(pv) },
		func(c PluginsCore, pv agent.InstallPreview) { d.confirm(u, c, pv, i18n.M("Install")) })
}

// update previews updating the installed market package name to the
// entry the index lists now.
func (d *discover) update(name string) {
	u := d.m.newUpkeep(i18n.T("Update %s from the market", name), name)
	runPhase(u, i18n.T("Downloading the market's %s and checking it against the hash the market pinned …", name),
		i18n.T("The update of %s", name), d.withCore("update "+name),
		func(ctx context.Context, c PluginsCore) (agent.InstallPreview, error) {
			return c.PreviewMarketUpdate(ctx, name)
		},
		func(c PluginsCore, pv agent.InstallPreview) { c.DiscardPluginPreview(pv) },
		func(c PluginsCore, pv agent.InstallPreview) { d.confirm(u, c, pv, i18n.M("Update")) })
}

func (d *discover) withCore(what string) func(func(context.Context, PluginsCore) error) {
	return func(fn func(context.Context, PluginsCore) error) { d.m.host.WithCore(what, fn) }
}

// confirm shows a market package's preview: verb (English, a catalog
// key: the button shows it translated) installs exactly it,
// Cancel drops what was downloaded. Once installed the tab lists the
// market again (installed, updates).
func (d *discover) confirm(u *upkeep, c PluginsCore, pv agent.InstallPreview, verb string) {
	_, body := previewBody(pv)
	u.discardOnClose(c, pv)
	run := widget.NewButton(i18n.T(verb), func() {
		u.discard = nil // the install uses the download, then removes it
		u.close()
		d.m.host.PluginCommand(strings.ToLower(verb)+" "+pv.Name, func(ctx context.Context, c PluginsCore) error {
			_, err := c.InstallPlugin(ctx, pv)
			d.m.b.Post(func() {
				d.m.forget(pv.Name)
				d.search()
				d.loadUpdates()
				if err == nil {
					d.m.host.Trace("discover installed " + pv.Name)
				}
			})
			return err
		})
	})
	run.Importance = widget.HighImportance
	u.show(fyne.NewSize(720, 560), body, widget.NewButton(i18n.T("Cancel"), u.close), run)
	d.m.host.Trace("discover preview " + pv.Name)
}

// loadUpdates lists My packages: every installed package that came from
// this market (the index's entries marked installed), each up to date or
// with its update (MarketUpdates) and an Update… for it.
func (d *discover) loadUpdates() {
	if d.market == "" {
		d.setUpdates(nil, nil, nil)
		return
	}
	d.m.host.WithCore("market updates", func(ctx context.Context, c PluginsCore) error {
		ups, err := c.MarketUpdates(ctx)
		var mine []agent.MarketPackage
		if err == nil {
			var all []agent.MarketPackage
			all, err = c.SearchMarket(ctx, "", "")
			for _, mp := range all {
				if mp.Installed != "" {
					mine = append(mine, mp)
				}
			}
		}
		d.m.b.Post(func() { d.setUpdates(mine, ups, err) })
		return nil
	})
}

// setUpdates shows My packages: mine with their updates (ups, by plugin
// name), an update of a package the index no longer lists included.
func (d *discover) setUpdates(mine []agent.MarketPackage, ups []agent.MarketUpdate, err error) {
	var rows []fyne.CanvasObject
	switch {
	case err != nil:
		rows = append(rows, wrapped(i18n.T("Updates could not be checked: %s", redact.String(err.Error())), widget.DangerImportance))
	case d.market == "":
		rows = append(rows, wrapped(i18n.T("No market is set."), widget.LowImportance))
	case len(mine) == 0 && len(ups) == 0:
		rows = append(rows, wrapped(i18n.T("Nothing installed comes from this market yet."), widget.LowImportance))
	}
	pending := map[string]agent.MarketUpdate{}
	for _, up := range ups {
		pending[up.Name] = up
	}
	row := func(name, text string, up agent.MarketUpdate, has bool) {
		if !has {
			rows = append(rows, wrapped(i18n.T("%s: up to date", text), widget.SuccessImportance))
			return
		}
		text += fmt.Sprintf(": %s → %s", up.Installed, up.Available)
		if up.Reason != "" {
			text += " — " + up.Reason
		}
		b := widget.NewButtonWithIcon(i18n.T("Update…"), theme.DownloadIcon(), func() { d.update(name) })
		rows = append(rows, container.NewBorder(nil, nil, nil, b, wrapped(text, widget.WarningImportance)))
	}
	for _, mp := range mine {
		up, has := pending[mp.InstalledAs]
		delete(pending, mp.InstalledAs)
		row(mp.InstalledAs, fmt.Sprintf("%s (%s) %s", mp.InstalledAs, mp.ID, mp.Installed), up, has)
	}
	for _, up := range ups {
		if _, left := pending[up.Name]; left {
			row(up.Name, fmt.Sprintf("%s (%s)", up.Name, up.ID), up, true)
		}
	}
	d.updates.Objects = rows
	d.updates.Refresh()
}
