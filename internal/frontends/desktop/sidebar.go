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
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// sidebarShortcut shows or hides the session sidebar.
var sidebarShortcut = &desktop.CustomShortcut{KeyName: fyne.KeyB, Modifier: fyne.KeyModifierShortcutDefault}

// sidebar lists the sessions of the current workspace under date groups,
// pinned first, with search over titles and text; each chat's menu (⋯ or
// a right-click) renames, pins, exports and deletes it (to the trash,
// undoable). The list is read off the UI goroutine.
type sidebar struct {
	deps     sidebarDeps
	obj      fyne.CanvasObject
	search   *uikit.DialogEntry // its Enter opens the first hit, never an input method's
	head     *widget.Label      // "Sessions"
	list     *widget.List
	items    []agent.Summary
	snippets map[string]string // a chat's matching line, by id, while searching
	rows     []sidebarRow      // items under their date groups, as listed
	selected int               // the highlighted item (an index of items)
	rowH     [2]float32        // a heading's and a chat's row height
	width    float32           // sidebarWidth at the zoom
	undo     *widget.Button
	trashed  string // the last deleted session's id (Undo restores it)
	reopen   bool   // the deleted chat was on screen: Undo opens it again
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
	s.search = uikit.NewDialogEntry()
	s.search.SetPlaceHolder(i18n.T("Search sessions"))
	s.search.OnChanged = func(string) { s.reload() }
	s.search.OnSubmitted = func(string) { s.openFirst() }
	s.list = widget.NewList(func() int { return len(s.rows) },
		func() fyne.CanvasObject { return newSessionRow() },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			row := o.(*sessionRow)
			if i >= len(s.rows) {
				return
			}
			if h := s.rows[i].header; h != "" {
				row.setHeader(h)
				return
			}
			it := s.items[s.rows[i].item]
			when, imp := i18n.Date(lastActive(it), time.Now()), widget.LowImportance
			if snip, ok := s.snippets[it.ID]; ok {
				when = snip // where the search found it
			}
			if mark, ok := s.mark(it.ID); ok {
				// A chat replying, waiting for the user, or with news, wherever the user is.
				when, imp = mark, widget.WarningImportance
			}
			row.setChat(sessionTitle(it), when, imp, func(at fyne.Position) { s.showMenu(it, at) })
		})
	s.list.OnSelected = func(i widget.ListItemID) {
		if i >= len(s.rows) {
			return
		}
		if s.rows[i].header != "" {
			// A heading is no chat: the highlight stays where it was.
			s.list.Unselect(i)
			return
		}
		s.selected = s.rows[i].item
		if s.syncing {
			return
		}
		s.openHit(s.items[s.selected].ID) // the highlight follows once it is on screen
	}
	s.list.OnUnselected = func(i widget.ListItemID) {
		if i < len(s.rows) && s.rows[i].header == "" && s.selected == s.rows[i].item {
			s.selected = -1
		}
	}
	s.undo = widget.NewButtonWithIcon(i18n.T("Undo delete"), theme.ContentUndoIcon(), s.restore)
	s.undo.Hide()
	s.head = widget.NewLabel(i18n.T("Sessions"))
	s.head.TextStyle.Bold = true
	top := container.NewVBox(s.head, s.search)
	s.obj = container.New(uikit.FixedWidth{W: sidebarWidth}, container.NewBorder(top, s.undo, nil, nil, s.list))
	s.width = sidebarWidth
	return s
}

// The captions of a chat with something to say: its reply streams, an
// approval or a plugin's question waits for the user in it, its reply
// finished while another chat was on screen, a notification came from it.
var (
	replyingMark = i18n.M("• replying…")
	waitingMark  = i18n.M("• waiting for you")
	unseenMark   = i18n.M("• new reply")
	notedMark    = i18n.M("• new notification")
)

// mark is the caption of a chat that has something to say (UI goroutine).
func (s *sidebar) mark(id string) (string, bool) {
	st := s.deps.state
	m := st.MarkOf(id)
	switch {
	case m.Waiting > 0:
		return i18n.T(waitingMark), true
	case st.IsRunning(id):
		return i18n.T(replyingMark), true
	case m.Unseen:
		return i18n.T(unseenMark), true
	case m.Noted:
		return i18n.T(notedMark), true
	}
	return "", false
}

func (s *sidebar) object() fyne.CanvasObject { return s.obj }

// relabel writes the sidebar's words again after a language change (UI
// goroutine): headings, dates and captions are written as rows are shown.
func (s *sidebar) relabel() {
	s.head.SetText(i18n.T("Sessions"))
	s.search.SetPlaceHolder(i18n.T("Search sessions"))
	if s.trashed == "" {
		s.undo.SetText(i18n.T("Undo delete"))
	}
	s.list.Refresh()
}

// toggle shows or hides the sidebar (View menu, Ctrl+B).
func (s *sidebar) toggle() {
	if s.obj.Visible() {
		s.obj.Hide()
		s.deps.trace("sidebar hidden")
	} else {
		s.obj.Show()
		s.reload()
		s.deps.win.Canvas().Focus(s.search) // Ctrl+B, type, Enter: the keyboard way back to a chat
		s.deps.trace("sidebar shown")
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
	s.openHit(s.items[0].ID)
	// Searched, Enter, type: the chat opened is the one you write in next.
	s.deps.focusComposer()
}

// openHit opens a listed chat; one a search found in its messages opens
// with the find bar on the search's words, at the line that matched (as
// Claude and ChatGPT open a search hit).
func (s *sidebar) openHit(id string) {
	s.deps.openChat(id)
	if q := strings.TrimSpace(s.reads.listedFor); q != "" && s.snippets[id] != "" && s.deps.findInChat != nil {
		s.deps.findInChat(q)
	}
}

func (s *sidebar) current() (agent.Summary, bool) {
	if s.selected < 0 || s.selected >= len(s.items) {
		return agent.Summary{}, false
	}
	return s.items[s.selected], true
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
	running := d.state.RunningChats()
	s.reads.reloads++
	seq := s.reads.reloads
	d.async(i18n.M("sessions"), func(ctx context.Context) error {
		all, snippets := c.Sessions(), map[string]string(nil)
		if strings.TrimSpace(q) != "" {
			// Titles and message text, each hit with its matching line.
			hits := c.SearchSessionText(ctx, q, searchLimit)
			all, snippets = make([]agent.Summary, len(hits)), make(map[string]string, len(hits))
			for i, h := range hits {
				all[i] = h.Summary
				if h.MessageIndex >= 0 {
					snippets[h.ID] = h.Snippet
				}
			}
		}
		all = withRunning(d.ownCore, all, running, q)
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
			s.snippets = snippets
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

// withRunning adds the chats whose reply streams when they are not saved
// yet (a first turn saves its chat at the end): they must stay reachable,
// with their marker, while another chat is on screen; own is a chat's own
// core. Off the UI goroutine.
func withRunning(own func(id string) (coreAPI, bool), list []agent.Summary, running []string, q string) []agent.Summary {
	for _, id := range running {
		if slices.ContainsFunc(list, func(s agent.Summary) bool { return s.ID == id }) {
			continue
		}
		c, ok := own(id)
		if !ok {
			continue
		}
		s, err := c.SavedSession(id) // the core's current session, from memory
		if err != nil || s.ID != id {
			continue
		}
		title := s.Title()
		if q != "" && !strings.Contains(strings.ToLower(title), strings.ToLower(q)) {
			continue
		}
		it := agent.Summary{ID: s.ID, Title: title, Model: s.Model, Workspace: s.WorkspaceRoot, Updated: time.Now()}
		list = append([]agent.Summary{it}, list...)
	}
	return list
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
	s.highlight() // the rows are as they were: redrawing them all cost a switch 45 % of its time
}

// show lists items under their date groups, pinned first, and
// highlights the open session (UI goroutine).
func (s *sidebar) show(items []agent.Summary) {
	orderSessions(items)
	s.deps.chats.setTitles(items)
	tmpl := newSessionRow() // measured in the theme of now (zoom changes it)
	s.rowH = [2]float32{tmpl.head.MinSize().Height, tmpl.MinSize().Height}
	s.items = items
	s.rows = groupRows(items, time.Now())
	for i, r := range s.rows {
		h := s.rowH[1]
		if r.header != "" {
			h = s.rowH[0]
		}
		s.list.SetItemHeight(i, h) // a no-op when the row's kind did not change
	}
	s.list.Refresh()
	s.highlight()
}

// highlight selects the open session's row, none when it is not listed
// (UI goroutine).
func (s *sidebar) highlight() {
	cur := s.deps.state.Open().ID
	s.syncing = true
	defer func() { s.syncing = false }()
	for i, r := range s.rows {
		if r.header == "" && s.items[r.item].ID == cur {
			s.selected = r.item
			s.list.Select(i)
			s.traceMore(i)
			return
		}
	}
	s.selected = -1
	s.list.UnselectAll()
}

// traceMore traces where row i's middle is, in window pixels: the e2e
// script right-clicks there for the chat's menu (UI goroutine). The list lays out rows of
// the heights show gave, a padding apart.
func (s *sidebar) traceMore(i int) {
	c := s.deps.win.Canvas()
	pad := s.list.Theme().Size(theme.SizeNamePadding)
	y := -s.list.GetScrollOffset() + s.rowH[1]/2
	for _, r := range s.rows[:i] {
		h := s.rowH[1]
		if r.header != "" {
			h = s.rowH[0]
		}
		y += h + pad
	}
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(s.list)
	x, py := c.PixelCoordinateForPosition(pos.AddXY(s.list.Size().Width/2, y))
	s.deps.trace(fmt.Sprintf("session row %s %d %d", s.items[s.rows[i].item].ID, x, py))
}

// chatMenu is what can be done to a chat: its ⋯ button and a right-click
// on its line open it.
func (s *sidebar) chatMenu(it agent.Summary) *fyne.Menu {
	pin := i18n.T("Pin")
	if it.Pinned {
		pin = i18n.T("Unpin")
	}
	return fyne.NewMenu("",
		fyne.NewMenuItem(i18n.T("Rename…"), func() { s.askRename(it) }),
		fyne.NewMenuItem(pin, func() { s.pin(it.ID, !it.Pinned) }),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem(i18n.T("Export as Markdown…"), func() { s.askExport(it, agent.ExportFormatMarkdown) }),
		fyne.NewMenuItem(i18n.T("Export as JSON…"), func() { s.askExport(it, agent.ExportFormatJSON) }),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem(i18n.T("Delete"), func() { s.trash(it) }),
	)
}

// showMenu opens the chat's menu at a position on the window's canvas.
func (s *sidebar) showMenu(it agent.Summary, at fyne.Position) {
	widget.ShowPopUpMenuAtPosition(s.chatMenu(it), s.deps.win.Canvas(), at)
	s.deps.trace("session menu " + it.ID)
}

func (s *sidebar) askRename(it agent.Summary) {
	dialogs.ShowRename(s.deps.win, sessionTitle(it), s.deps.modalKeys, func(name string) { s.renameTo(it.ID, name) })
}

func (s *sidebar) renameTo(id, name string) {
	s.deps.withCore(i18n.M("rename session"), func(ctx context.Context, c coreAPI) error {
		defer s.deps.b.Post(s.reload)
		return c.RenameSession(ctx, id, name)
	})
}

// pin pins a chat on top of the list, or lets it go back to its place.
func (s *sidebar) pin(id string, on bool) {
	s.deps.withCore(i18n.M("pin session"), func(_ context.Context, c coreAPI) error {
		defer s.deps.b.Post(s.reload)
		return c.PinSession(id, on)
	})
}

// trash deletes a session to the trash; Undo brings it back.
func (s *sidebar) trash(it agent.Summary) {
	wasOpen := it.ID == s.deps.state.Open().ID
	s.deps.withCore(i18n.M("delete session"), func(ctx context.Context, c coreAPI) error {
		if !wasOpen {
			s.deps.dropChat(ctx, it.ID) // a live chat's core would save it again
		}
		err := s.deps.chats.trashWhenLoaded(ctx, c, it.ID)
		s.deps.b.Post(func() {
			if err == nil {
				s.trashed, s.reopen = it.ID, wasOpen
				s.undo.Show() // measured shown
				fitButton(s.undo, s.width, i18n.T("Undo delete of “%s”"), sessionTitle(it))
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
	reopen := s.reopen
	s.trashed, s.reopen = "", false
	s.undo.Hide()
	s.deps.withCore(i18n.M("restore session"), func(ctx context.Context, c coreAPI) error {
		err := c.RestoreSession(id)
		s.deps.b.Post(func() {
			s.reload()
			if err == nil && reopen {
				// Undo puts back what the delete took: the chat on screen too.
				s.deps.openChat(id)
			}
		})
		return err
	})
}

// step opens the chat delta places after the open one in the sidebar's
// order, wrapping round (Ctrl+Tab, Ctrl+Shift+Tab); the first listed when
// the open chat is not listed (a new one).
func (s *sidebar) step(delta int) {
	n := len(s.items)
	if n == 0 {
		return
	}
	cur := s.deps.state.Open().ID
	i := slices.IndexFunc(s.items, func(it agent.Summary) bool { return it.ID == cur })
	switch {
	case i < 0 && delta > 0:
		i = 0
	case i < 0:
		i = n - 1
	default:
		i = ((i+delta)%n + n) % n
	}
	s.deps.openChat(s.items[i].ID)
}

// askExport asks for a file to save the chat to in format.
func (s *sidebar) askExport(it agent.Summary, format string) {
	fd := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil || w == nil {
			return
		}
		path := w.URI().Path()
		w.Close()
		s.exportTo(it.ID, format, path)
	}, s.deps.win)
	fd.SetFileName(exportName(it, format))
	fd.Resize(fyne.NewSize(800, 560))
	dialogs.ShowFileDialog(s.deps.win, fd, s.deps.modalKeys) // Esc closes it
	s.deps.trace("session export dialog " + format)
}

func exportName(it agent.Summary, format string) string {
	return "session-" + it.ID[:8] + "." + format
}

// exportTo writes the session off the UI goroutine.
func (s *sidebar) exportTo(id, format, path string) {
	s.deps.withCore(i18n.M("export session"), func(ctx context.Context, c coreAPI) error {
		data, err := c.ExportSession(id, format)
		if err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return err
		}
		s.deps.notes.HostNotice(i18n.T("Exported to %s", path), uikit.NoticeInfo)
		s.deps.trace("session exported " + path)
		return nil
	})
}

// sessionID is the open session's id ("" before the core is attached).
func (d *UI) sessionID() string { return d.state.Open().ID }

// LastSession is the chat ReopenLast would open ("" for none; any
// goroutine): the binary opens its first core in it, so the launch starts
// the plugins once, for that chat.
func (d *UI) LastSession() string { return d.prefs.LastSession() }

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

// setZoom widens the sidebar with the zoom: at 125 % its titles were cut
// at two thirds of the width they had (UI goroutine).
func (s *sidebar) setZoom(z float32) {
	s.width = sidebarWidth * z
	c := s.obj.(*fyne.Container)
	c.Layout = uikit.FixedWidth{W: s.width}
	c.Refresh()
	s.show(s.items) // the rows' heights are the zoom's
}

// searchLimit is the most chats a search lists: a few screenfuls. Each
// hit's line is read from its chat's file, so a common word over every
// chat would read them all.
const searchLimit = 50

// sidebarWidth is the sidebar's fixed width at 100 %.
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
