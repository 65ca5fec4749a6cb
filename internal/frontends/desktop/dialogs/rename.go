package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// ModalKeys gives the window's Esc (cancel) and Enter (confirm) to an open
// dialog until pop is called; the window's own key handler calls them when
// no widget has the focus. UI goroutine only.
type ModalKeys func(cancel, confirm func()) (pop func())

// ShowRename asks for a session's new title over win, starting from title;
// rename gets it when the user confirms (Rename or Enter); Cancel or Esc
// closes the dialog.
func ShowRename(win fyne.Window, title string, keys ModalKeys, rename func(string)) {
	e := uikit.NewDialogEntry()
	e.SetText(title)
	e.CursorColumn = len([]rune(title)) // typing adds to the title
	var dlg *dialog.FormDialog
	pop := keys(func() { dlg.Hide() }, func() { dlg.Submit() })
	dlg = dialog.NewForm(i18n.T("Rename session"), i18n.T("Rename"), i18n.T("Cancel"), []*widget.FormItem{widget.NewFormItem(i18n.T("Title"), e)}, func(ok bool) {
		pop()
		if ok {
			rename(e.Text)
		}
	}, win)
	e.OnSubmitted = func(string) { dlg.Submit() }
	e.OnEscape = dlg.Hide
	dlg.Resize(fyne.NewSize(460, 160))
	dlg.Show()
	win.Canvas().Focus(e)
}
