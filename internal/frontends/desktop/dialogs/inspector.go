// Package dialogs holds the desktop's secondary windows and modal dialogs
// that stand on their own: they get what they need (the app, the window,
// the bridge, a small host interface declared here) explicitly and never
// reach into the main window: plugin prompts, the command palette,
// Settings, the plugin manager and Install…, the protocol inspector, the
// keyboard shortcuts sheet, the user guide and About.
package dialogs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// Inspector limits.
const (
	inspectorRing    = 2000                   // frames kept
	inspectorRefresh = 100 * time.Millisecond // list refresh: ≤ 10 Hz
	inspectorRawCap  = 64 << 10               // bytes of a frame kept for display
)

// Frame is one recorded frame, already redacted.
type Frame struct {
	At      time.Time
	Plugin  string
	Dir     ndjson.Direction
	Kind    string
	Method  string
	ID      int64
	Bytes   int
	Latency time.Duration
	Raw     string // redacted, capped
}

func (f Frame) row() string {
	arrow := "→" // host to plugin
	if f.Dir == ndjson.In {
		arrow = "←"
	}
	s := fmt.Sprintf("%s  %s %s  %s", f.At.Format("15:04:05.000"), arrow, f.Plugin, f.Kind)
	if f.Method != "" {
		s += " " + f.Method
	}
	if f.ID != 0 {
		s += fmt.Sprintf(" #%d", f.ID)
	}
	s += fmt.Sprintf("  %d B", f.Bytes)
	if f.Latency > 0 {
		s += "  " + f.Latency.Round(10*time.Microsecond).String()
	}
	return s
}

// Inspector records sidecar frames in memory (no socket, no file) and shows
// them in the View → Protocol inspector window. Record and Frames may be
// called from any goroutine; Show runs on the UI goroutine.
type Inspector struct {
	app fyne.App
	th  *uikit.Throttle

	mu     sync.Mutex
	ring   []Frame
	next   int // write position once the ring is full
	paused bool

	// UI goroutine only.
	win      fyne.Window
	list     *widget.List
	filter   *WindowEntry
	detail   *widget.Label
	rows     []Frame // filtered snapshot
	selected int
}

// NewInspector is an empty inspector whose window belongs to app and
// whose list refreshes through b.
func NewInspector(app fyne.App, b *uikit.Bridge) *Inspector {
	in := &Inspector{app: app, selected: -1}
	in.th = uikit.NewThrottle(b, inspectorRefresh, in.sync)
	return in
}

// Record redacts a frame and keeps it (sidecar IO goroutines); the open
// window refreshes at most every inspectorRefresh.
func (in *Inspector) Record(plugin string, f ndjson.FrameInfo) {
	in.mu.Lock()
	paused := in.paused
	in.mu.Unlock()
	if paused {
		return
	}
	raw := redact.String(string(f.Raw)) // redact the whole frame, then cap it
	if len(raw) > inspectorRawCap {
		raw = raw[:inspectorRawCap] + "… (truncated)"
	}
	rec := Frame{At: time.Now(), Plugin: plugin, Dir: f.Dir, Kind: f.Kind, Method: f.Method, ID: f.ID,
		Bytes: f.Bytes, Latency: f.Latency, Raw: raw}
	in.mu.Lock()
	if len(in.ring) < inspectorRing {
		in.ring = append(in.ring, rec)
	} else {
		in.ring[in.next] = rec
		in.next = (in.next + 1) % inspectorRing
	}
	in.mu.Unlock()
	in.th.Kick()
}

// Frames returns the recorded frames, oldest first.
func (in *Inspector) Frames() []Frame {
	in.mu.Lock()
	defer in.mu.Unlock()
	out := make([]Frame, 0, len(in.ring))
	out = append(out, in.ring[in.next:]...)
	return append(out, in.ring[:in.next]...)
}

func (in *Inspector) setPaused(p bool) {
	in.mu.Lock()
	in.paused = p
	in.mu.Unlock()
}

func (in *Inspector) clear() {
	in.mu.Lock()
	in.ring, in.next = nil, 0
	in.mu.Unlock()
	in.th.Kick()
}

// matches filters by plugin or method (case-insensitive substrings, every
// word must match).
func (f Frame) matches(filter string) bool {
	hay := strings.ToLower(f.Plugin + " " + f.Method + " " + f.Kind)
	for _, w := range strings.Fields(strings.ToLower(filter)) {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// sync refreshes the list from the ring (UI goroutine, ≤ 10 Hz).
func (in *Inspector) sync() {
	if in.win == nil {
		return
	}
	all := in.Frames()
	rows := all[:0]
	for _, f := range all {
		if f.matches(in.filter.Text) {
			rows = append(rows, f)
		}
	}
	follow := in.selected < 0 || in.selected == len(in.rows)-1
	in.rows = rows
	in.list.Refresh()
	if follow && len(rows) > 0 {
		in.list.ScrollToBottom()
	}
}

// Show opens (or raises) the protocol inspector window (UI goroutine).
func (in *Inspector) Show() {
	if in.win != nil {
		in.win.RequestFocus()
		return
	}
	w := in.app.NewWindow(i18n.T("Protocol inspector"))
	in.filter = NewWindowEntry(w)
	in.filter.SetPlaceHolder(i18n.T("Filter by plugin or method"))
	in.filter.OnChanged = func(string) { in.sync() }
	pause := widget.NewCheck(i18n.T("Pause"), in.setPaused)
	in.mu.Lock()
	pause.Checked = in.paused
	in.mu.Unlock()
	copyBtn := widget.NewButtonWithIcon(i18n.T("Copy frame"), theme.ContentCopyIcon(), in.copySelected)
	clearBtn := widget.NewButtonWithIcon(i18n.T("Clear"), theme.DeleteIcon(), in.clear)
	in.detail = widget.NewLabel(i18n.T("Select a frame to see it (redacted)."))
	in.detail.TextStyle.Monospace = true
	in.detail.Wrapping = fyne.TextWrapBreak
	in.list = widget.NewList(func() int { return len(in.rows) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.TextStyle.Monospace = true
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(in.rows[i].row()) })
	in.list.OnSelected = func(i widget.ListItemID) {
		in.selected = i
		in.detail.SetText(prettyJSON(in.rows[i].Raw))
	}
	top := container.NewBorder(nil, nil, nil, container.NewHBox(pause, copyBtn, clearBtn), in.filter)
	split := container.NewVSplit(in.list, container.NewVScroll(in.detail))
	split.Offset = 0.6
	note := widget.NewLabel(i18n.T("In-process only; last %d frames; secrets redacted.", inspectorRing))
	note.Importance = widget.LowImportance
	w.SetContent(container.NewBorder(top, container.NewHBox(note, layout.NewSpacer()), nil, nil, split))
	Secondary(w, fyne.NewSize(900, 620), nil)
	w.SetOnClosed(func() { in.win, in.list, in.rows, in.selected = nil, nil, nil, -1 })
	in.win = w
	in.sync()
	w.Show()
}

func (in *Inspector) copySelected() {
	if in.selected < 0 || in.selected >= len(in.rows) {
		return
	}
	in.app.Clipboard().SetContent(in.rows[in.selected].Raw)
}

func prettyJSON(raw string) string {
	var b bytes.Buffer
	if json.Indent(&b, []byte(raw), "", "  ") == nil {
		return b.String()
	}
	return raw
}
