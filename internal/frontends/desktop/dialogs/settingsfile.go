package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

// settingsFileRow is Settings' first row: where settings.json is, what is
// wrong with it, and the buttons to open, reset and check it (UI
// goroutine).
type settingsFileRow struct {
	host   SettingsHost
	box    *fyne.Container
	path   *widget.Label
	status *widget.Label
	open   *widget.Button
	reset  *widget.Button
	check  *widget.Button
	st     SettingsFileStatus
}

func newSettingsFileRow(host SettingsHost) *settingsFileRow {
	r := &settingsFileRow{host: host, path: widget.NewLabel(""), status: widget.NewLabel("")}
	r.path.Wrapping = fyne.TextWrapBreak
	r.status.Wrapping = fyne.TextWrapWord
	r.open = widget.NewButtonWithIcon(i18n.T("Open"), theme.FileTextIcon(), host.OpenSettingsFile)
	r.reset = widget.NewButtonWithIcon(i18n.T("Reset to defaults"), theme.HistoryIcon(), host.ResetSettingsFile)
	r.reset.Importance = widget.DangerImportance
	r.check = widget.NewButtonWithIcon(i18n.T("Check again"), theme.ViewRefreshIcon(), host.CheckSettingsFile)
	r.box = container.NewVBox(r.path, r.status, container.NewHBox(r.open, r.reset, r.check))
	return r
}

// broken reports whether the app runs on the defaults because of the file.
func (r *settingsFileRow) broken() bool { return r.st.Broken }

func (r *settingsFileRow) sync(st SettingsFileStatus) {
	r.st = st
	r.path.SetText(st.Path)
	switch {
	case st.Problem != "" && st.Broken:
		r.status.SetText(i18n.T("Broken: %s. The app runs on the default settings and leaves the file as it is; fix it, or reset it (the old file is kept next to it).", st.Problem))
		r.status.Importance = widget.DangerImportance
	case st.Problem != "":
		r.status.SetText(i18n.T("Warning: %s (ignored, kept in the file).", st.Problem))
		r.status.Importance = widget.WarningImportance
	case st.Backup != "":
		r.status.SetText(i18n.T("Reset to the defaults; the old file is kept as %s.", st.Backup))
		r.status.Importance = widget.MediumImportance
	default:
		r.status.SetText(i18n.T("In use."))
		r.status.Importance = widget.LowImportance
	}
	r.status.Refresh()
	if st.Problem != "" {
		r.reset.Enable()
	} else {
		r.reset.Disable()
	}
}

// SyncSettingsFile shows what the last check or reset found about
// settings.json (UI goroutine); a broken file takes the focus to Reset.
func (s *Settings) SyncSettingsFile(st SettingsFileStatus) {
	was := s.file.broken()
	s.file.sync(st)
	if st.Broken && !was {
		s.win.Canvas().Focus(s.file.reset)
	}
	s.host.Trace("settings file " + settingsFileState(st))
	s.win.Content().Refresh()
}

func settingsFileState(st SettingsFileStatus) string {
	switch {
	case st.Broken:
		return "broken"
	case st.Problem != "":
		return "warning"
	case st.Backup != "":
		return "reset"
	}
	return "ok"
}
