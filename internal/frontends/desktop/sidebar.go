package desktop

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// sidebarShortcut shows or hides the session sidebar.
var sidebarShortcut = &desktop.CustomShortcut{KeyName: fyne.KeyB, Modifier: fyne.KeyModifierShortcutDefault}

// sidebar lists the sessions of the current workspace, newest first, with
// search, rename, delete (to the trash, undoable) and export. The list is
// read off the UI goroutine; like the plugin manager, the highlighted row is
// the session the buttons act on.
type sidebar struct {
	deps     sidebarDeps
	obj      fyne.CanvasObject
	search   *widget.Entry
	list     *widget.List
	items    []agent.Summary
	selected int
	rename   *widget.Button
	remove   *widget.Button
	export   *widget.Button
	undo     *widget.Button
	trashed  string // the last deleted session's id (Undo restores it)
	syncing  bool   // refresh is moving the highlight: not a user pick
	reads    listReads
}

// listReads is the state of the sidebar's list reads (UI goroutine).
type listReads struct {
	// reloads numbers the list reads (a slower, older one is dropped);
	// listedFor is the search the items answer; openPending is an Enter
	// pressed before the list for the search typed arrived.
	reloads     uint64
	reading     bool // a list read runs; again: another was asked meanwhile
	again       bool
	listedFor   string
	listedWS    string // the workspace the items are of
	openPending bool
}

func newSidebar(d sidebarDeps) *sidebar {
	s := &sidebar{deps: d, selected: -1}
	s.search = widget.NewEntry()
	s.search.SetPlaceHolder("Search sessions")
	s.search.OnChanged = func(string) { s.reload() }
	s.search.OnSubmitted = func(string) { s.openFirst() }
	s.list = widget.NewList(func() int { return len(s.items) },
		func() fyne.CanvasObject {
			title := widget.NewLabel("")
			title.Truncation = fyne.TextTruncateEllipsis
			when := widget.NewLabel("")
			when.Importance = widget.LowImportance
			when.SizeName = theme.SizeNameCaptionText
			return container.NewVBox(title, when)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			it := s.items[i]
			box := o.(*fyne.Container)
			box.Objects[0].(*widget.Label).SetText(sessionTitle(it))
			when := box.Objects[1].(*widget.Label)
			if it.ID == d.state.Running() {
				// The chat whose reply still streams, wherever the user is.
				when.SetText(replyingMark)
				when.Importance = widget.WarningImportance
			} else {
				when.SetText(it.Updated.Local().Format("Jan 2 15:04"))
				when.Importance = widget.LowImportance
			}
			when.Refresh()
		})
	s.list.OnSelected = func(i widget.ListItemID) {
		s.selected = i
		s.syncButtons()
		if s.syncing {
			return
		}
		d.openChat(s.items[i].ID) // the highlight follows once it is on screen
	}
	s.list.OnUnselected = func(i widget.ListItemID) {
		if s.selected == i {
			s.selected = -1
			s.syncButtons()
		}
	}
	s.rename = widget.NewButtonWithIcon("", theme.DocumentCreateIcon(), s.askRename)
	s.remove = widget.NewButtonWithIcon("", theme.DeleteIcon(), s.trash)
	s.export = widget.NewButtonWithIcon("", theme.DownloadIcon(), s.askExport)
	s.undo = widget.NewButtonWithIcon("Undo delete", theme.ContentUndoIcon(), s.restore)
	s.undo.Hide()
	head := widget.NewLabel("Sessions")
	head.TextStyle.Bold = true
	buttons := container.NewHBox(s.rename, s.export, layout.NewSpacer(), s.remove)
	top := container.NewVBox(head, s.search)
	bottom := container.NewVBox(s.undo, buttons)
	s.obj = container.New(uikit.FixedWidth{W: sidebarWidth}, container.NewBorder(top, bottom, nil, nil, s.list))
	s.syncButtons()
	return s
}

// replyingMark is the caption of the chat whose reply still streams.
const replyingMark = "• replying…"

func (s *sidebar) object() fyne.CanvasObject { return s.obj }

// toggle shows or hides the sidebar (View menu, Ctrl+B).
func (s *sidebar) toggle() {
	if s.obj.Visible() {
		s.obj.Hide()
	} else {
		s.obj.Show()
		s.reload()
		s.deps.win.Canvas().Focus(s.search) // Ctrl+B, type, Enter: the keyboard way back to a chat
	}
	s.deps.win.Content().Refresh()
}

// openFirst opens the first session the search found (Enter in search).
func (s *sidebar) openFirst() {
	if s.reads.listedFor != s.search.Text {
		s.reads.openPending = true // Enter typed right after the search: open from its list
		return
	}
	if len(s.items) == 0 {
		return
	}
	s.deps.openChat(s.items[0].ID)
	// Searched, Enter, type: the chat opened is the one you write in next.
	s.deps.focusComposer()
}

func (s *sidebar) current() (agent.Summary, bool) {
	if s.selected < 0 || s.selected >= len(s.items) {
		return agent.Summary{}, false
	}
	return s.items[s.selected], true
}

func (s *sidebar) syncButtons() {
	_, ok := s.current()
	for _, b := range []*widget.Button{s.rename, s.remove, s.export} {
		if ok {
			b.Enable()
		} else {
			b.Disable()
		}
	}
}

// reload re-reads the list (search over titles and text) off the UI
// goroutine; only this workspace's sessions are shown.
func (s *sidebar) reload() {
	d := s.deps
	q := s.search.Text
	ws := d.state.Open().Workspace
	c := d.getCore()
	if c == nil {
		return
	}
	if s.reads.reading {
		// One read at a time (each decodes every saved chat): typing a
		// search reads once per pause, not once per key.
		s.reads.again = true
		return
	}
	s.reads.reading = true
	running := d.state.Running()
	s.reads.reloads++
	seq := s.reads.reloads
	d.async("sessions", func(context.Context) error {
		all := withRunning(c, c.SearchSessions(q), running, q)
		mine := make([]agent.Summary, 0, len(all))
		for _, it := range all {
			if ws == "" || filepath.Clean(it.Workspace) == filepath.Clean(ws) {
				mine = append(mine, it)
			}
		}
		d.b.Post(func() {
			s.reads.reading = false
			if s.reads.again {
				s.reads.again = false
				s.reload() // what was asked meanwhile (another search, a change)
				return
			}
			if seq != s.reads.reloads {
				return // a later read is on its way
			}
			s.show(mine)
			s.reads.listedFor, s.reads.listedWS = q, ws
			d.trace("sessions listed for " + q) // the e2e script waits for its search's list
			if s.reads.openPending && q == s.search.Text {
				s.reads.openPending = false
				s.openFirst()
			}
		})
		return nil
	})
}

// withRunning adds the chat whose reply streams when it is not saved yet
// (its first turn saves it at the end): it must stay reachable, with its
// marker, while another chat is on screen. Off the UI goroutine.
func withRunning(c coreAPI, list []agent.Summary, running, q string) []agent.Summary {
	if running == "" || slices.ContainsFunc(list, func(s agent.Summary) bool { return s.ID == running }) {
		return list
	}
	s, err := c.SavedSession(running) // the core's current session, from memory
	if err != nil || s.ID != running {
		return list
	}
	title := s.Title()
	if q != "" && !strings.Contains(strings.ToLower(title), strings.ToLower(q)) {
		return list
	}
	it := agent.Summary{ID: s.ID, Title: title, Model: s.Model, Workspace: s.WorkspaceRoot, Updated: time.Now()}
	return append([]agent.Summary{it}, list...)
}

// sessionShown follows another chat on screen (UI goroutine): the list
// is read again only for another workspace's chats; otherwise only the
// highlight moves (reading it decodes every saved chat, which would
// compete with the switch for the CPU).
func (s *sidebar) sessionShown() {
	if s.deps.state.Open().Workspace != s.reads.listedWS || s.reads.reloads == 0 {
		s.reload()
		return
	}
	s.show(s.items)
}

// show lists items and highlights the open session (UI goroutine).
func (s *sidebar) show(items []agent.Summary) {
	s.items = items
	s.list.Refresh()
	cur := s.deps.state.Open().ID
	s.syncing = true
	defer func() { s.syncing = false }()
	for i, it := range items {
		if it.ID == cur {
			s.selected = i
			s.list.Select(i)
			s.syncButtons()
			return
		}
	}
	s.selected = -1
	s.list.UnselectAll()
	s.syncButtons()
}

func (s *sidebar) askRename() {
	it, ok := s.current()
	if !ok {
		return
	}
	dialogs.ShowRename(s.deps.win, sessionTitle(it), s.deps.modalKeys, func(name string) { s.renameTo(it.ID, name) })
}

func (s *sidebar) renameTo(id, name string) {
	s.deps.withCore("rename session", func(ctx context.Context, c coreAPI) error {
		defer s.deps.b.Post(s.reload)
		return c.RenameSession(ctx, id, name)
	})
}

// trash deletes the highlighted session to the trash; Undo brings it back.
func (s *sidebar) trash() {
	it, ok := s.current()
	if !ok {
		return
	}
	s.deps.withCore("delete session", func(ctx context.Context, c coreAPI) error {
		err := s.deps.chats.trashWhenLoaded(ctx, c, it.ID)
		s.deps.b.Post(func() {
			if err == nil {
				s.trashed = it.ID
				s.undo.Show() // measured shown
				fitButton(s.undo, sidebarWidth, "Undo delete of “%s”", sessionTitle(it))
				s.reload()
				if cur := s.deps.chats.currentID(); it.ID == s.deps.state.Open().ID && cur != it.ID {
					// The chat on screen was not the core's yet (the core moves
					// on to a new chat when its current one is deleted): show
					// the core's.
					s.deps.openChat(cur)
				}
			}
			s.deps.kickLoad() // a load the delete's busy token refused waits for this
		})
		return err
	})
}

func (s *sidebar) restore() {
	id := s.trashed
	if id == "" {
		return
	}
	s.trashed = ""
	s.undo.Hide()
	s.deps.withCore("restore session", func(ctx context.Context, c coreAPI) error {
		defer s.deps.b.Post(s.reload)
		return c.RestoreSession(id)
	})
}

// askExport offers Markdown or JSON, then a file to save to.
func (s *sidebar) askExport() {
	it, ok := s.current()
	if !ok {
		return
	}
	d := s.deps
	var pick dialog.Dialog
	choose := func(format string) {
		pick.Hide()
		fd := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
			if err != nil || w == nil {
				return
			}
			path := w.URI().Path()
			w.Close()
			s.exportTo(it.ID, format, path)
		}, d.win)
		fd.SetFileName(exportName(it, format))
		fd.Resize(fyne.NewSize(800, 560))
		fd.Show()
	}
	md := widget.NewButton("Markdown (.md)", func() { choose(agent.ExportFormatMarkdown) })
	md.Importance = widget.HighImportance
	js := widget.NewButton("JSON (.json)", func() { choose(agent.ExportFormatJSON) })
	pick = dialog.NewCustom("Export “"+sessionTitle(it)+"”", "Cancel", container.NewHBox(md, js), d.win)
	pick.Show()
}

func exportName(it agent.Summary, format string) string {
	return "session-" + it.ID[:8] + "." + format
}

// exportTo writes the session off the UI goroutine.
func (s *sidebar) exportTo(id, format, path string) {
	s.deps.withCore("export session", func(ctx context.Context, c coreAPI) error {
		data, err := c.ExportSession(id, format)
		if err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return err
		}
		s.deps.notes.HostNotice("Exported to "+path, uikit.NoticeInfo)
		return nil
	})
}

// sessionID is the open session's id ("" before the core is attached).
func (d *UI) sessionID() string { return d.state.Open().ID }

// ReopenLast opens the session that was open when the app last ran in this
// data directory; a session since deleted (or never saved) is skipped.
func (d *UI) ReopenLast(ctx context.Context) error {
	id := d.prefs.LastSession()
	c := d.getCore()
	if id == "" || c == nil || id == c.Session().ID {
		return nil
	}
	err := d.OpenSession(ctx, id)
	if errors.Is(err, agent.ErrNoSession) {
		return nil
	}
	return err
}

// sidebarWidth is the sidebar's fixed width.
const sidebarWidth = 250

// fitButton labels button b with format and title, the title cut (…) so
// that b fits width: a button does not truncate its text, and the sidebar
// clipped a long title off the Undo button (UI goroutine).
func fitButton(b *widget.Button, width float32, format, title string) {
	r := []rune(title)
	for n := len(r); ; n-- {
		t := string(r[:n])
		if n < len(r) {
			t += "…"
		}
		b.SetText(fmt.Sprintf(format, t))
		if b.MinSize().Width <= width || n == 0 {
			return
		}
	}
}
