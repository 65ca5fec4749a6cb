package dialogs

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/markdown"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// ShortcutRows are the keys the window answers, as the sheet lists them;
// the send keys follow the send-key setting.
func ShortcutRows(enterSends bool) [][2]string {
	send, newline := "Enter", "Shift+Enter"
	if !enterSends {
		send, newline = "Ctrl+Enter", "Enter"
	}
	return [][2]string{
		{send, i18n.T("Send the message")},
		{newline, i18n.T("Add a line")},
		{"Esc", i18n.T("Stop the reply · close a dialog")},
		{i18n.T("Up (empty composer)"), i18n.T("Edit the last message")},
		{"PgUp · PgDn", i18n.T("Scroll the conversation by a page")},
		{"Ctrl+Home · Ctrl+End", i18n.T("First · latest message (empty composer, or nothing focused)")},
		{"Home · End", i18n.T("The same, after a click on the conversation")},
		{"Ctrl+F", i18n.T("Find in the chat (Enter · Shift+Enter: next · previous; Esc closes)")},
		{"Ctrl+K", i18n.T("Command palette: actions, models, commands")},
		{"Ctrl+N", i18n.T("New chat")},
		{"Ctrl+O", i18n.T("Open a workspace")},
		{"Ctrl+B", i18n.T("Show or hide the sessions sidebar")},
		{"Ctrl+Shift+B", i18n.T("Show or hide the plugin panel")},
		{"Ctrl+Tab · Ctrl+Shift+Tab", i18n.T("Next · previous chat")},
		{"Ctrl+= · Ctrl+- · Ctrl+0", i18n.T("Zoom in · out · back to 100 %")},
		{"Ctrl+,", i18n.T("Settings")},
		{"Ctrl+/", i18n.T("This sheet")},
		{"Ctrl+Q", i18n.T("Quit")},
		{i18n.T("Enter · Esc (in a dialog)"), i18n.T("Confirm · cancel")},
		{i18n.T("Esc · Ctrl+W (in a window)"), i18n.T("Close Settings, Plugins, the inspector…")},
	}
}

// ShowShortcuts shows the keyboard shortcuts sheet over win; Esc and
// Enter close it (keys gives them to the sheet while it is open), and the
// widget that had the focus gets it back.
func ShowShortcuts(win fyne.Window, enterSends bool, keys ModalKeys) {
	grid := container.New(layout.NewFormLayout())
	for _, r := range ShortcutRows(enterSends) {
		k := widget.NewLabel(r[0])
		k.TextStyle.Bold = true
		grid.Add(k)
		grid.Add(widget.NewLabel(r[1]))
	}
	// The sheet scrolls: with every key it is taller than a small window.
	dlg := dialog.NewCustom(i18n.T("Keyboard shortcuts"), i18n.T("Close"), container.NewVScroll(grid), win)
	prev := win.Canvas().Focused()
	pop := keys(dlg.Hide, dlg.Hide)
	dlg.SetOnClosed(func() {
		pop()
		if prev != nil {
			win.Canvas().Focus(prev)
		}
	})
	// As tall as the rows, but within the window (the grid scrolls).
	dlg.Resize(fyne.NewSize(600, max(200, min(grid.MinSize().Height+120, win.Canvas().Size().Height-40))))
	dlg.Show()
	win.Canvas().Unfocus() // Esc and Enter reach the window, which closes the sheet
}

// userGuide is the in-app guide: what a new user needs to get going. One
// catalog entry a section, so a translator sees whole paragraphs.
func userGuide() string {
	return strings.Join([]string{
		"# Reasonix Desktop",
		i18n.T("## Chat\nPick a model in the toolbar (models come from provider plugins), type, and send. Replies stream in; **Stop** (or Esc) ends one, **Retry** and **Regenerate** ask again (Regenerate keeps the earlier answer: ‹ 1/2 › under the reply switches between versions). Every message and code block has **Copy** (it shows a check mark once copied). Drag over the conversation to select text across messages (a double click selects a word; Ctrl+A after a click on the conversation selects all of it), then Ctrl+C or **Copy selection** in a message's menu (right-click it, or its menu button beside Copy); **Show Markdown source** there shows a message as it was written. **Edit** in your last message's menu (or Up in an empty message box) puts it in the message box: send it and the model answers it in place of the old one, which stays as a version with its answer (‹ 1/2 ›); Esc cancels and gives back what you were typing. Attach images (for a model that sees them) and text files with **Attach** or by dropping them on the window. A long paste is shown as text in a box above the message box (\"Pasted text, 100,000 characters\": Collapse, Copy, and its close button removes it) and sent in full after what you type. PgUp and PgDn, Home and End (Ctrl+Home and Ctrl+End from the message box) move through the conversation; the wheel moves three lines a notch. Typing anywhere goes into the message box."),
		i18n.T("## Tools and approvals\nThe model can read files in the workspace freely. Writing files and running commands asks first: **once**, **for this session**, or **always**. \"Always\" is remembered for this workspace only, and for commands only for the same program (approving `go test` covers `go vet`, never `rm`). See and revoke approvals in **Settings → Permissions**."),
		i18n.T("## Sessions\nThe sidebar (Ctrl+B) lists this workspace's chats, newest first. Search covers titles and text. Rename, export (Markdown or JSON) and delete are below the list; a deleted chat goes to the trash and **Undo delete** brings it back. The app reopens the last chat on launch."),
		i18n.T("## Plugins\nPlugins run outside any sandbox with your environment: install only what you trust. **Plugins → Manage** shows each plugin's state, what it may do (FULL TRUST), why it failed and its stderr; Restart, Disable and Remove are there too; **Update…** fetches a plugin installed from git again and shows what would change before it installs, and **Migrate to v2** rewrites a legacy plugin's manifest (keeping a .bak). **Install…** takes a folder, a git URL or owner/repo (fetched first, Cancel stops it; you see what it contains before it installs); **Link** runs a folder in place instead of a copy. Cards and forms from plugins appear in the panel on the right; a stopped plugin's are greyed until it runs again."),
		i18n.T("## Settings\nLanguage (System, English, 简体中文), the currency costs are shown in, theme (System, Light, Dark), the send key, the default model, permissions, and which environment variables each plugin reads (names only). **Connect a model…** picks a provider (DeepSeek, OpenAI, Ollama, LM Studio, …), tests its address and key and lists its models. **Providers and API keys…** takes each provider plugin's key, base URL and models; keys are kept in the system keyring (or a file only you can read), never in the settings file."),
	}, "\n\n")
}

// ShowGuide opens the user guide; its links go to onLink (a confirmation).
func ShowGuide(app fyne.App, onLink markdown.LinkHandler) {
	w := app.NewWindow(i18n.T("User guide"))
	text := uikit.NewRichText()
	text.Segments = markdown.Render(userGuide(), onLink)
	w.SetContent(container.NewVScroll(container.NewPadded(text)))
	Secondary(w, fyne.NewSize(720, 620), nil)
	w.Show()
}

// ShowAbout shows the About box over win: the icon (optional) and text.
func ShowAbout(win fyne.Window, icon fyne.Resource, text string) {
	box := container.NewVBox()
	if icon != nil {
		img := canvas.NewImageFromResource(icon)
		img.FillMode = canvas.ImageFillContain
		img.SetMinSize(fyne.NewSize(64, 64))
		box.Add(img)
	}
	box.Add(widget.NewLabelWithStyle("Reasonix Desktop", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})) // i18n:keep
	about := widget.NewLabel(text)
	about.Wrapping = fyne.TextWrapWord
	box.Add(about)
	dlg := dialog.NewCustom(i18n.T("About"), i18n.T("Close"), box, win)
	dlg.Resize(fyne.NewSize(460, 320))
	dlg.Show()
}
