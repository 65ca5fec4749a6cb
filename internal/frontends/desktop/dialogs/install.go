package dialogs

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// InstallCore is the core's plugin install operations. They are called
// off the UI goroutine (through InstallHost) and may wait on disk until
// their context ends; safe on any goroutine.
type InstallCore interface {
	// PreviewPluginInstall clones a git source into staging first; a
	// cancelled one stops git and stages nothing.
	PreviewPluginInstall(ctx context.Context, req agent.InstallRequest) (agent.InstallPreview, error)
	// DiscardPluginPreview removes what a preview staged (its clone).
	DiscardPluginPreview(pv agent.InstallPreview)
	InstallPlugin(ctx context.Context, pv agent.InstallPreview) (agent.PluginRecord, error)
	// PreviewPluginInstallPicks previews the named plugins of a
	// marketplace root (one clone of a git source for all of them).
	PreviewPluginInstallPicks(ctx context.Context, req agent.InstallRequest, names []string) ([]agent.InstallPreview, error)
}

// InstallHost runs the install dialog's core work.
//
// Concurrency: all are called on the UI goroutine and return at once; fn
// runs on another goroutine with a bounded context and its error is shown
// to the user. Before a core is attached fn does not run (the user is
// told). PluginCommand also tells the user "<what>: done" on success.
type InstallHost interface {
	WithCore(what string, fn func(ctx context.Context, c InstallCore) error)
	PluginCommand(what string, fn func(ctx context.Context, c InstallCore) error)
	// Async runs fn off the UI goroutine (dropping a clone nobody
	// installs); its error is shown to the user.
	Async(what string, fn func(ctx context.Context) error)
	// Trace records what the dialog did for --trace (the real-window
	// scripts wait on it).
	Trace(event string)
}

// Install is the Install… dialog: a path field (typed or pasted, the way
// a developer points at a checkout; or a git URL or owner/repo, which the
// core clones into a staging folder first) with Browse… for the folder
// picker, and
// Link to run the plugin from that folder instead of a copy. Preview… shows
// the FULL TRUST preview; only its Install button installs, replacing an
// installed plugin of the same name (the preview says so). UI goroutine.
type Install struct {
	path   *uikit.DialogEntry
	link   *widget.Check
	dlg    *dialog.ConfirmDialog
	parent fyne.Window
	// keys gives parent's Esc and Enter to the dialog on top (the path,
	// the fetch, the preview) while nothing in it has the focus.
	keys ModalKeys
	b    *uikit.Bridge
	host InstallHost
}

// NewInstall builds the dialog over parent, whose Esc and Enter keys
// routes; Show opens it.
func NewInstall(parent fyne.Window, keys ModalKeys, b *uikit.Bridge, host InstallHost) *Install {
	f := &Install{path: uikit.NewDialogEntry(), parent: parent, keys: keys, b: b, host: host}
	f.path.SetPlaceHolder(i18n.T("/path/to/plugin-folder, https://host/repo.git or owner/repo"))
	f.link = widget.NewCheck(i18n.T("Link: run it from this folder (edits take effect on restart; Remove keeps the folder)"), nil)
	browse := widget.NewButtonWithIcon(i18n.T("Browse…"), theme.FolderOpenIcon(), func() {
		fd := dialog.NewFolderOpen(func(uri fyne.ListableURI, err error) {
			if err == nil && uri != nil {
				f.path.SetText(uri.Path())
			}
		}, parent)
		fd.Resize(fyne.NewSize(800, 560))
		ShowFileDialog(parent, fd, keys) // Esc closes the picker, not Install… under it
	})
	content := container.NewVBox(widget.NewLabel(i18n.T("Plugin folder or git repository")),
		container.NewBorder(nil, nil, nil, browse, f.path), f.link)
	f.dlg = dialog.NewCustomConfirm(i18n.T("Install a plugin"), i18n.T("Preview…"), i18n.T("Cancel"), content, func(ok bool) {
		dir := strings.TrimSpace(f.path.Text)
		if ok && dir != "" {
			f.preview(dir, f.link.Checked)
		}
	}, parent)
	f.path.OnSubmitted = func(string) { f.dlg.Confirm() }
	f.path.OnEscape = f.dlg.Hide
	f.dlg.Resize(fyne.NewSize(640, 220))
	return f
}

// Show opens the dialog with the path field focused (Enter previews, Esc
// cancels, there or anywhere in the dialog).
func (f *Install) Show() {
	f.dlg.SetOnClosed(f.keys(f.dlg.Hide, f.dlg.Confirm))
	f.dlg.Show()
	f.parent.Canvas().Focus(f.path)
}

// preview asks the core for the FULL TRUST preview off the UI goroutine
// and shows it. A git source is fetched behind a busy dialog with Cancel,
// as the plugin manager's Update… fetches (fetchPreview), and its preview
// is shown in that dialog so that Cancel drops the clone.
func (f *Install) preview(dir string, link bool) {
	req := agent.InstallRequest{Source: dir, Link: link, ReplaceInstalled: true}
	if url, git := agent.GitSource(dir); git {
		u := newPhased(f.parent, f.keys, f.b, f.host.Async, i18n.T("Install a plugin"))
		u.onMarketplace = func(me *agent.MarketplaceError) { f.pickPlugins(u, req, me) }
		fetchPreview(u, url, i18n.T("The install of %s", url),
			func(fn func(context.Context, InstallCore) error) { f.host.WithCore("install", fn) },
			func(ctx context.Context, c InstallCore) (agent.InstallPreview, error) {
				return c.PreviewPluginInstall(ctx, req)
			},
			func(c InstallCore, pv agent.InstallPreview) { f.showFetched(u, c, url, pv) })
		return
	}
	f.host.WithCore("install", func(ctx context.Context, c InstallCore) error {
		pv, err := c.PreviewPluginInstall(ctx, req)
		if me := marketplaceOf(err); me != nil {
			// A folder listing plugins: the user picks which.
			f.b.Post(func() {
				f.pickPlugins(newPhased(f.parent, f.keys, f.b, f.host.Async, i18n.T("Install from a marketplace")), req, me)
			})
			return nil
		}
		if err != nil {
			return err
		}
		f.b.Post(func() { f.showTrust(pv) })
		return nil
	})
}

// showFetched is a git source's preview in the fetch dialog u: Install
// installs exactly that clone; Cancel (or closing u) drops it.
func (f *Install) showFetched(u *upkeep, c InstallCore, url string, pv agent.InstallPreview) {
	_, body := previewBody(pv) // its warning says whether it runs code
	head := wrapped(i18n.T("Fetched: %s\nFrom: %s", pv.Name+" "+redact.String(pv.Version)+at(pv.Commit), redact.String(url)),
		widget.MediumImportance)
	u.discardOnClose(c, pv)
	install := widget.NewButton(i18n.T("Install"), func() {
		u.discard = nil // the install uses the clone, then removes it
		u.close()
		f.host.PluginCommand("install "+pv.Name, func(ctx context.Context, c InstallCore) error {
			_, err := c.InstallPlugin(ctx, pv)
			return err
		})
	})
	install.Importance = widget.HighImportance
	u.show(fyne.NewSize(720, 560), container.NewBorder(head, nil, nil, nil, body), widget.NewButton(i18n.T("Cancel"), u.close), install)
}

// showTrust is the install confirmation: the full preview text (the FULL
// TRUST block with hooks and MCP servers and their commands, then the
// skills, commands, prompts, agents and themes by name).
func (f *Install) showTrust(pv agent.InstallPreview) {
	title := i18n.T("Install %s", pv.Name)
	fullTrust, content := previewBody(pv)
	if fullTrust {
		title = i18n.T("Install %s — FULL TRUST", pv.Name)
	}
	dlg := dialog.NewCustomConfirm(title, i18n.T("Install"), i18n.T("Cancel"), content, func(ok bool) {
		if !ok {
			return
		}
		f.host.PluginCommand("install "+pv.Name, func(ctx context.Context, c InstallCore) error {
			_, err := c.InstallPlugin(ctx, pv)
			return err
		})
	}, f.parent)
	dlg.SetOnClosed(f.keys(dlg.Hide, dlg.Confirm))
	dlg.Resize(fyne.NewSize(720, 520))
	dlg.Show()
	f.parent.Canvas().Unfocus() // Esc and Enter reach the window, which gives them to dlg
}

// previewBody is the preview a user authorizes, as Install… and the plugin
// manager's Update show it: the warning, then the preview text. fullTrust is
// false only for a package that runs no code.
//
// The compatibility report leads: its grade line under the warning, always
// in view, and its lines first in the scrolled text, so a package that
// only half-works here is never installed without the user seeing why.
func previewBody(pv agent.InstallPreview) (fullTrust bool, body fyne.CanvasObject) {
	text := widget.NewLabel(redact.String(withoutCompatText(pv.Text, pv)))
	text.TextStyle.Monospace = true
	// Between words: breaking anywhere split names and commands
	// ("openai-provid" / "er"); a word wider than the line still breaks.
	text.Wrapping = fyne.TextWrapWord
	warn := widget.NewLabel(i18n.T("Installing is the authorization: the plugin runs outside any sandbox with your full environment."))
	warn.Importance = widget.WarningImportance
	fullTrust = true
	if !pv.RunsCode && strings.Contains(pv.Text, "runs no code") {
		// Skills, commands and prompts are text the model reads: no
		// process of the package ever starts.
		fullTrust = false
		warn.SetText(i18n.T("This package runs no code (no runtime, hooks or MCP servers): its skills, commands and prompts are text the model reads."))
		warn.Importance = widget.MediumImportance
	}
	warn.Wrapping = fyne.TextWrapWord
	cv := previewCompat(pv)
	if !cv.known() {
		return fullTrust, container.NewBorder(warn, nil, nil, nil, container.NewVScroll(text))
	}
	return fullTrust, container.NewBorder(container.NewVBox(warn, cv.headLabel()), nil, nil, nil,
		container.NewVScroll(container.NewVBox(cv.bullets(), text)))
}
