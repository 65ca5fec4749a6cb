package desktop

import (
	"context"
	"net/url"
	"path/filepath"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/extensions/settings"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// settingsBanner is the strip over the chat that says settings.json is not
// used as written (broken: the app runs on the defaults; or a warning),
// with buttons to open the file, reset it (keeping a backup) and check it
// again; after a reset it says where the old file went. Its fields are
// touched on the UI goroutine only.
type settingsBanner struct {
	deps  bannerDeps
	box   *fyne.Container
	icon  *widget.Icon
	text  *widget.Label
	open  *widget.Button
	reset *widget.Button
	check *widget.Button
	close *widget.Button
	// status is what Settings shows about the file; problem, the last
	// check's (nil: fine).
	status  dialogs.SettingsFileStatus
	problem *settings.Problem
}

func newSettingsBanner(d bannerDeps) *settingsBanner {
	sb := &settingsBanner{deps: d, icon: widget.NewIcon(theme.WarningIcon()), text: widget.NewLabel(""),
		status: dialogs.SettingsFileStatus{Path: d.settingsFile}}
	sb.text.Wrapping = fyne.TextWrapWord
	sb.text.TextStyle.Bold = true
	sb.open = widget.NewButtonWithIcon(i18n.T("Open the file"), theme.FileTextIcon(), sb.openFile)
	sb.reset = widget.NewButtonWithIcon(i18n.T("Reset to defaults"), theme.HistoryIcon(), sb.resetFile)
	sb.reset.Importance = widget.DangerImportance
	sb.check = widget.NewButtonWithIcon(i18n.T("Check again"), theme.ViewRefreshIcon(), d.checkAgain)
	sb.close = widget.NewButtonWithIcon("", theme.CancelIcon(), func() { sb.box.Hide() })
	sb.close.Importance = widget.LowImportance
	buttons := container.NewHBox(sb.open, sb.reset, sb.check, sb.close)
	sb.box = uikit.PanelBox(theme.ColorNameOverlayBackground, 0,
		container.NewBorder(nil, buttons, sb.icon, nil, sb.text))
	sb.box.Hide()
	return sb
}

func (sb *settingsBanner) object() fyne.CanvasObject { return sb.box }

// path is the settings file of the data directory.
func (sb *settingsBanner) path() string { return sb.deps.settingsFile }

// CheckSettings reads settings.json off the UI goroutine and shows what is
// wrong with it, if anything, over the chat and in Settings (any
// goroutine).
func (d *UI) CheckSettings() {
	path := d.opts.Layout.SettingsFile()
	d.async(i18n.M("check settings"), func(context.Context) error {
		p := settings.Check(path)
		d.b.Post(func() { d.banner.show(p) })
		return nil
	})
}

// show shows the last check's outcome (UI goroutine).
func (sb *settingsBanner) show(p *settings.Problem) {
	sb.problem = p
	sb.status = dialogs.SettingsFileStatus{Path: sb.path()}
	if p == nil {
		sb.box.Hide()
		sb.deps.trace("settings ok")
		sb.syncSettingsWindow()
		return
	}
	sb.status.Problem, sb.status.Broken = redact.String(p.What()), p.Broken
	sb.icon.SetResource(theme.WarningIcon())
	msg := i18n.T("settings.json is not used as written: %s.", redact.String(p.What())) + " "
	if p.Broken {
		msg = i18n.T("settings.json is broken: %s. The app runs on the default settings (no standing approvals, no hooks) and leaves the file as it is until you fix it or reset it.", redact.String(p.What()))
		sb.text.Importance = widget.DangerImportance
	} else {
		msg += capitalize(p.Consequence()) + "."
		sb.text.Importance = widget.WarningImportance
	}
	sb.text.SetText(msg)
	sb.open.Show()
	sb.reset.Show()
	sb.check.Show()
	sb.box.Show()
	kind := "warning"
	if p.Broken {
		kind = "broken"
	}
	where := p.Where()
	if where == "" {
		where = p.Reason
	}
	sb.deps.trace("settings " + kind + " " + where)
	sb.syncSettingsWindow()
}

// openFile opens settings.json with the system's opener (xdg-open, open,
// start: fyne's OpenURL with a file URL); a directory in its place opens
// in the file manager.
func (sb *settingsBanner) openFile() {
	u := &url.URL{Scheme: "file", Path: filepath.ToSlash(sb.path())}
	if err := sb.deps.openURL(u); err != nil {
		sb.deps.notes.HostNotice(i18n.T("Could not open %s: %s", sb.path(), redact.String(err.Error())), uikit.NoticeError)
		return
	}
	sb.deps.trace("settings opened")
}

// resetFile replaces settings.json with the defaults, keeping the old one
// next to it; the core, which runs on the defaults while the file is
// broken, uses the new file at its next read.
func (sb *settingsBanner) resetFile() {
	path := sb.path()
	sb.deps.async(i18n.M("reset settings"), func(context.Context) error {
		backup, err := settings.Reset(path, time.Now())
		if err != nil {
			return err
		}
		sb.deps.b.Post(func() { sb.resetDone(backup) })
		return nil
	})
}

func (sb *settingsBanner) resetDone(backup string) {
	sb.problem = nil
	sb.status = dialogs.SettingsFileStatus{Path: sb.path(), Backup: backup}
	msg := i18n.T("settings.json was reset to the defaults.")
	if backup != "" {
		msg += " " + i18n.T("The old file is kept as %s.", backup)
	}
	sb.icon.SetResource(theme.InfoIcon())
	sb.text.Importance = widget.MediumImportance
	sb.text.SetText(msg)
	sb.open.Hide()
	sb.reset.Hide()
	sb.check.Hide()
	sb.box.Show()
	sb.deps.trace("settings reset " + filepath.Base(backup))
	sb.syncSettingsWindow()
}

// syncSettingsWindow shows the file's status in Settings if it is open.
func (sb *settingsBanner) syncSettingsWindow() {
	if s := sb.deps.settingsWindow(); s != nil {
		s.SyncSettingsFile(sb.status)
	}
}

func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
