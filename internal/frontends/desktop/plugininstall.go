package desktop

import (
	"context"
	"errors"
	"io"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
)

// installPlugin opens the Install… dialog over the plugin manager when it
// is open, else over the main window (UI goroutine).
func (d *UI) installPlugin() {
	if m := d.wins.plugins; m != nil {
		d.installOver(m.Window(), m.Keys())
		return
	}
	d.installOver(d.win, d.modalKeys)
}

// installOver opens the Install… dialog over parent, whose Esc and Enter
// keys gives to the dialog on top (UI goroutine).
func (d *UI) installOver(parent fyne.Window, keys dialogs.ModalKeys) {
	dialogs.NewInstall(parent, keys, d.b, d.installHost()).Show()
}

// installHost is the window as dialogs.InstallHost (UI goroutine); built
// by UI.installHost (deps.go).
type installHost struct {
	async         func(what string, fn func(ctx context.Context) error)
	withCore      func(what string, fn func(ctx context.Context, c coreAPI) error)
	pluginCommand func(what string, run func(ctx context.Context, c coreAPI) error)
	trace         func(string)
}

func (h installHost) WithCore(what string, fn func(context.Context, dialogs.InstallCore) error) {
	h.withCore(what, func(ctx context.Context, c coreAPI) error { return fn(ctx, c) })
}

func (h installHost) PluginCommand(what string, fn func(context.Context, dialogs.InstallCore) error) {
	h.pluginCommand(what, func(ctx context.Context, c coreAPI) error { return fn(ctx, c) })
}

func (h installHost) Async(what string, fn func(context.Context) error) { h.async(what, fn) }
func (h installHost) Trace(event string)                                { h.trace(event) }

// logTail bounds what Logs shows of the host log.
const logTail = 128 << 10

// showLogs opens the host log's tail (read off the UI goroutine).
func (d *UI) showLogs() {
	d.async(i18n.M("logs"), func(ctx context.Context) error {
		text, err := readTail(d.opts.Layout.HostLog(), logTail)
		if errors.Is(err, os.ErrNotExist) {
			text, err = i18n.T("(the host log is empty)"), nil
		}
		if err != nil {
			return err
		}
		text = redact.String(text)
		d.b.Post(func() { d.showText(i18n.T("Host log — %s", d.opts.Layout.HostLog()), text, nil) })
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
	copyBtn := widget.NewButtonWithIcon(i18n.T("Copy"), theme.ContentCopyIcon(), func() { d.opts.App.Clipboard().SetContent(text) })
	w.SetContent(container.NewBorder(nil, container.NewHBox(layout.NewSpacer(), copyBtn), nil, nil, container.NewVScroll(l)))
	dialogs.Secondary(w, fyne.NewSize(820, 560), nil) // fits the screen, centred, Esc and Ctrl+W close it
	w.Show()
}
