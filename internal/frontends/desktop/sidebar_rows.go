package desktop

import (
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

// sidebarRow is one line of the sidebar's list: a date group's heading or
// a chat (item indexes sidebar.items).
type sidebarRow struct {
	header string
	item   int
}

// The date groups, as the chat apps name them: English keys, translated
// where a heading shows them (setHeader).
var (
	groupPinned    = i18n.M("Pinned")
	groupToday     = i18n.M("Today")
	groupYesterday = i18n.M("Yesterday")
	groupWeek      = i18n.M("Previous 7 days")
	groupOlder     = i18n.M("Older")
)

// lastActive is the time a chat is ordered by: its last message, so a
// rename or a model pick (which save the file) does not move it. A file
// older than that time gives its save time.
func lastActive(it agent.Summary) time.Time {
	if it.LastMessageAt.IsZero() {
		return it.Updated
	}
	return it.LastMessageAt
}

// pinned reports whether the user pinned the chat on top.
func pinned(it agent.Summary) bool { return it.Pinned }

// dateGroup names the group of a chat last active at t, seen at now (both
// in the user's zone: "Yesterday" is the calendar's, not 24 hours).
func dateGroup(t, now time.Time) string {
	t, now = t.Local(), now.Local()
	day := func(x time.Time) time.Time { y, m, d := x.Date(); return time.Date(y, m, d, 0, 0, 0, 0, time.Local) }
	today := day(now)
	switch d := day(t); {
	case !d.Before(today):
		return groupToday
	case !d.Before(today.AddDate(0, 0, -1)):
		return groupYesterday
	case !d.Before(today.AddDate(0, 0, -7)):
		return groupWeek
	}
	return groupOlder
}

// orderSessions sorts items pinned first, then by last activity, newest
// first (stable: equal times keep the core's order).
func orderSessions(items []agent.Summary) {
	slices.SortStableFunc(items, func(a, b agent.Summary) int {
		if pa, pb := pinned(a), pinned(b); pa != pb {
			if pa {
				return -1
			}
			return 1
		}
		return lastActive(b).Compare(lastActive(a))
	})
}

// groupRows lays ordered items out under their group headings.
func groupRows(items []agent.Summary, now time.Time) []sidebarRow {
	rows := make([]sidebarRow, 0, len(items)+5)
	last := ""
	for i, it := range items {
		g := groupPinned
		if !pinned(it) {
			g = dateGroup(lastActive(it), now)
		}
		if g != last {
			rows = append(rows, sidebarRow{header: g, item: -1})
			last = g
		}
		rows = append(rows, sidebarRow{item: i})
	}
	return rows
}

// sessionRow is a chat's line in the sidebar: its title, when it was last
// active, and ⋯, which opens the chat's menu as a right-click on the line
// does. A heading row shows only its heading. UI goroutine only.
type sessionRow struct {
	widget.BaseWidget
	head        *widget.Label
	title, when *widget.Label
	more        *widget.Button
	chat        *fyne.Container
	// menu opens the chat's menu at a position on the canvas (nil on a
	// heading).
	menu func(at fyne.Position)
}

func newSessionRow() *sessionRow {
	r := &sessionRow{head: widget.NewLabel(""), title: widget.NewLabel(""), when: widget.NewLabel("")}
	r.head.TextStyle.Bold = true
	r.head.SizeName = theme.SizeNameCaptionText
	r.title.Truncation = fyne.TextTruncateEllipsis
	r.when.Importance = widget.LowImportance
	r.when.SizeName = theme.SizeNameCaptionText
	r.more = widget.NewButtonWithIcon("", theme.MoreHorizontalIcon(), func() {
		if r.menu != nil {
			c := fyne.CurrentApp().Driver().AbsolutePositionForObject(r.more)
			r.menu(c.AddXY(0, r.more.Size().Height))
		}
	})
	r.more.Importance = widget.LowImportance
	r.chat = container.NewBorder(nil, nil, nil, container.NewCenter(r.more), container.NewVBox(r.title, r.when))
	r.ExtendBaseWidget(r)
	return r
}

// setHeader shows a group heading.
func (r *sessionRow) setHeader(h string) {
	r.menu = nil
	r.head.SetText(i18n.T(h))
	r.head.Show()
	r.chat.Hide()
}

// setChat shows a chat's line.
func (r *sessionRow) setChat(title, when string, imp widget.Importance, menu func(fyne.Position)) {
	r.menu = menu
	r.head.Hide()
	r.chat.Show()
	// The list sets every row it shows on each refresh (moving the
	// highlight refreshes it): a label set to the text it has is not laid
	// out again.
	if r.title.Text != title {
		r.title.SetText(title)
	}
	if r.when.Text != when || r.when.Importance != imp {
		r.when.Text, r.when.Importance = when, imp
		r.when.Refresh()
	}
}

// TappedSecondary is a right-click: the chat's menu where the pointer is.
func (r *sessionRow) TappedSecondary(ev *fyne.PointEvent) {
	if r.menu != nil {
		r.menu(ev.AbsolutePosition)
	}
}

func (r *sessionRow) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewStack(r.head, r.chat))
}
