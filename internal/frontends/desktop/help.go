package desktop

import (
	"runtime"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/reasonix/reasonix-desktop/internal/extensions/xdev"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// shortcutsShortcut opens the keyboard shortcuts sheet (Ctrl+/).
var shortcutsShortcut = &desktop.CustomShortcut{KeyName: fyne.KeySlash, Modifier: fyne.KeyModifierShortcutDefault}

// shortcutRows are the keys the window answers (the sheet's rows).
func (d *UI) shortcutRows() [][2]string { return dialogs.ShortcutRows(d.composer.enterSends()) }

func (d *UI) showShortcuts() { dialogs.ShowShortcuts(d.win, d.composer.enterSends(), d.modalKeys) }

func (d *UI) showGuide() { dialogs.ShowGuide(d.opts.App, d.confirmLink) }

func (d *UI) showAbout() { dialogs.ShowAbout(d.win, d.opts.Icon, d.aboutText()) }

// aboutText names the app's version and the protocols it speaks.
func (d *UI) aboutText() string {
	return i18n.T("Version %s", d.opts.Version) + "\n" +
		i18n.T("Reasonix Extension Protocol v%s (plugins)", protocol.ProtocolVersion) + "\n" +
		i18n.T("xdev protocol v%s (extensions)", strconv.Itoa(xdev.ProtocolVersion)) + "\n" +
		i18n.T("Built with %s and Fyne v2", runtime.Version()) + "\n\n" +
		i18n.T("Plugins run outside any sandbox with your environment: install only what you trust.")
}
