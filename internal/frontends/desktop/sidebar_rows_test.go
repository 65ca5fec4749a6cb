package desktop

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

func TestSidebarGroupsChatsByDay(t *testing.T) {
	now := time.Date(2026, 12, 7, 10, 0, 0, 0, time.Local)
	at := func(days int, hour int) time.Time {
		return time.Date(2026, 12, 7-days, hour, 0, 0, 0, time.Local)
	}
	items := []agent.Summary{
		{ID: "older", Updated: at(30, 12)},
		{ID: "today-early", Updated: at(0, 0)},
		{ID: "week", Updated: at(7, 0)},
		{ID: "yesterday-late", Updated: at(1, 23)},
		{ID: "today", Updated: at(0, 9)},
		{ID: "eighth-day", Updated: at(8, 23)},
	}
	// Ordered by the last message, not the last save (a rename saves).
	items[0].LastMessageAt, items[0].Updated = items[0].Updated, now
	items = append(items, agent.Summary{ID: "pinned", Pinned: true, Updated: at(40, 0)})
	orderSessions(items)
	var got []string
	for _, r := range groupRows(items, now) {
		if r.header != "" {
			got = append(got, "["+r.header+"]")
		} else {
			got = append(got, items[r.item].ID)
		}
	}
	want := "[Pinned] pinned [Today] today today-early [Yesterday] yesterday-late [Previous 7 days] week [Older] eighth-day older"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("rows:\n got %s\nwant %s", s, want)
	}
}

// The chat's menu (rename, export, delete) opens on ⋯ and on a right-click
// of its line; a heading has none.
func TestSidebarChatMenuOnMoreAndRightClick(t *testing.T) {
	h := newHarness(t)
	c := h.openCore()
	saved := h.saveSessions(c.Session().WorkspaceRoot, "first question", "second question")
	sb := h.d.sidebar
	h.ui(sb.reload)
	h.waitFor("the list", func() bool { return len(sb.items) == 2 })
	overlay := func() fyne.CanvasObject { return h.d.win.Canvas().Overlays().Top() }
	h.ui(func() {
		if sb.rows[0].header != groupToday {
			t.Errorf("first row %+v, want the Today heading", sb.rows[0])
		}
		head := sb.list.CreateItem().(*sessionRow)
		sb.list.UpdateItem(0, head)
		head.TappedSecondary(&fyne.PointEvent{})
		if overlay() != nil {
			t.Error("a heading opened a menu")
		}

		row := sb.list.CreateItem().(*sessionRow)
		sb.list.UpdateItem(indexOf(sb, saved[0].ID), row)
		if row.title.Text != "first question" || !row.more.Visible() {
			t.Errorf("row title %q, ⋯ shown %v", row.title.Text, row.more.Visible())
		}
		row.TappedSecondary(&fyne.PointEvent{AbsolutePosition: fyne.NewPos(20, 40)})
		m := overlay()
		if m == nil {
			t.Fatal("no menu on right-click")
		}
		var labels []string
		for _, it := range sb.chatMenu(sb.items[sb.rows[indexOf(sb, saved[0].ID)].item]).Items {
			if !it.IsSeparator {
				labels = append(labels, it.Label)
			}
		}
		if got := strings.Join(labels, ", "); got != "Rename…, Pin, Export as Markdown…, Export as JSON…, Delete" {
			t.Errorf("menu: %s", got)
		}
		h.d.win.Canvas().Overlays().Remove(m)
		test.Tap(row.more)
		if overlay() == nil {
			t.Error("no menu on ⋯")
		}
	})
}

// Pin (the chat's menu) puts the chat under Pinned on top; Unpin puts it
// back in its place among the others.
func TestSidebarPinAndUnpin(t *testing.T) {
	h := newHarness(t)
	c := h.openCore()
	saved := h.saveSessions(c.Session().WorkspaceRoot, "older question", "newer question")
	sb := h.d.sidebar
	h.ui(sb.reload)
	h.waitFor("the list", func() bool { return len(sb.items) == 2 })
	h.ui(func() { runMenu(t, sb, saved[0].ID, "Pin") })
	h.waitFor("the older chat pinned on top", func() bool {
		return len(sb.rows) > 1 && sb.rows[0].header == groupPinned && sb.items[sb.rows[1].item].ID == saved[0].ID
	})
	h.ui(func() { runMenu(t, sb, saved[0].ID, "Unpin") })
	h.waitFor("the order by last message again", func() bool {
		return len(sb.rows) > 2 && sb.rows[0].header == groupToday &&
			sb.items[sb.rows[1].item].ID == saved[1].ID && sb.items[sb.rows[2].item].ID == saved[0].ID
	})
}

// A title keeps its underscores ("__init__" read "init").
func TestSidebarTitlesKeepUnderscores(t *testing.T) {
	h := newHarness(t)
	c := h.openCore()
	saved := h.saveSessions(c.Session().WorkspaceRoot, "why does __init__.py run twice?")
	sb := h.d.sidebar
	h.ui(sb.reload)
	h.waitFor("the list", func() bool { return len(sb.items) == 1 })
	h.ui(func() {
		row := sb.list.CreateItem().(*sessionRow)
		sb.list.UpdateItem(indexOf(sb, saved[0].ID), row)
		if row.title.Text != "why does __init__.py run twice?" {
			t.Errorf("the row reads %q", row.title.Text)
		}
	})
}
