package desktop

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/host/agent"
	"github.com/reasonix/reasonix-desktop/internal/redact"
)

// installPlugin asks for a folder: a path field (typed or pasted, the
// way a developer points at a checkout) with Browse… for the folder picker,
// and Link to run the plugin from that folder instead of a copy. Next is
// the FULL TRUST preview; only its Install button installs.
func (d *UI) installPlugin() {
	parent := d.win
	if d.wins.plugins != nil {
		parent = d.wins.plugins.win
	}
	f := newInstallForm(d, parent)
	f.dlg.Show()
	parent.Canvas().Focus(f.path)
}

// installForm is the Install… dialog's state (tests drive it).
type installForm struct {
	path *widget.Entry
	link *widget.Check
	dlg  *dialog.ConfirmDialog
}

func newInstallForm(d *UI, parent fyne.Window) *installForm {
	f := &installForm{path: widget.NewEntry()}
	f.path.SetPlaceHolder("/path/to/plugin-folder (with reasonix-plugin.json)")
	f.link = widget.NewCheck("Link: run it from this folder (edits take effect on restart; Remove keeps the folder)", nil)
	browse := widget.NewButtonWithIcon("Browse…", theme.FolderOpenIcon(), func() {
		fd := dialog.NewFolderOpen(func(uri fyne.ListableURI, err error) {
			if err == nil && uri != nil {
				f.path.SetText(uri.Path())
			}
		}, parent)
		fd.Resize(fyne.NewSize(800, 560))
		fd.Show()
	})
	content := container.NewVBox(widget.NewLabel("Plugin folder"),
		container.NewBorder(nil, nil, nil, browse, f.path), f.link)
	f.dlg = dialog.NewCustomConfirm("Install a plugin", "Preview…", "Cancel", content, func(ok bool) {
		dir := strings.TrimSpace(f.path.Text)
		if ok && dir != "" {
			d.previewInstall(dir, f.link.Checked, parent)
		}
	}, parent)
	f.path.OnSubmitted = func(string) { f.dlg.Confirm() }
	f.dlg.Resize(fyne.NewSize(640, 220))
	return f
}

// previewInstall asks the core for the FULL TRUST preview off the UI
// goroutine and shows it; only its Install button installs. An installed
// plugin of the same name is replaced (the preview says so).
func (d *UI) previewInstall(dir string, link bool, parent fyne.Window) {
	d.withCore("install", func(ctx context.Context, c coreAPI) error {
		pv, err := c.PreviewPluginInstall(ctx, agent.InstallRequest{Source: dir, Link: link, ReplaceInstalled: true})
		if err != nil {
			return err
		}
		d.b.Post(func() { d.showTrust(pv, parent) })
		return nil
	})
}

// showTrust is the install confirmation: the full preview text.
func (d *UI) showTrust(pv agent.InstallPreview, parent fyne.Window) {
	text := widget.NewLabel(redact.String(pv.Text))
	text.TextStyle.Monospace = true
	text.Wrapping = fyne.TextWrapBreak
	warn := widget.NewLabel("Installing is the authorization: the plugin runs outside any sandbox with your full environment.")
	warn.Wrapping = fyne.TextWrapWord
	warn.Importance = widget.WarningImportance
	content := container.NewBorder(warn, nil, nil, nil, container.NewVScroll(text))
	dlg := dialog.NewCustomConfirm("Install "+pv.Name+" — FULL TRUST", "Install", "Cancel", content, func(ok bool) {
		if !ok {
			return
		}
		d.pluginCommand("install "+pv.Name, func(ctx context.Context, c coreAPI) error {
			_, err := c.InstallPlugin(ctx, pv)
			return err
		})
	}, parent)
	dlg.Resize(fyne.NewSize(720, 520))
	dlg.Show()
}

// logTail bounds what Logs shows of the host log.
const logTail = 128 << 10

// showLogs opens the host log's tail (read off the UI goroutine).
func (d *UI) showLogs() {
	d.async("logs", func(ctx context.Context) error {
		text, err := readTail(d.opts.Layout.HostLog(), logTail)
		if errors.Is(err, os.ErrNotExist) {
			text, err = "(the host log is empty)", nil
		}
		if err != nil {
			return err
		}
		text = redact.String(text)
		d.b.Post(func() { d.showText("Host log — "+d.opts.Layout.HostLog(), text, nil) })
		return nil
	})
}

func readTail(path string, n int64) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	if off := st.Size() - n; off > 0 {
		if _, err := f.Seek(off, io.SeekStart); err != nil {
			return "", err
		}
	}
	b, err := io.ReadAll(f)
	return string(b), err
}

// showText opens a window with monospace text (logs, doctor).
func (d *UI) showText(title, text string, _ fyne.Window) {
	w := d.opts.App.NewWindow(title)
	l := widget.NewLabel(text)
	l.TextStyle.Monospace = true
	l.Wrapping = fyne.TextWrapBreak
	copyBtn := widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), func() { d.opts.App.Clipboard().SetContent(text) })
	w.SetContent(container.NewBorder(nil, container.NewHBox(layout.NewSpacer(), copyBtn), nil, nil, container.NewVScroll(l)))
	w.Resize(fyne.NewSize(820, 560))
	w.Show()
}
