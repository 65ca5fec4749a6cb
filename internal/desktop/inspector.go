package desktop

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

	"github.com/reasonix/reasonix-desktop/internal/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/redact"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// Inspector limits.
const (
	inspectorRing    = 2000                   // frames kept
	inspectorRefresh = 100 * time.Millisecond // list refresh: ≤ 10 Hz
	inspectorRawCap  = 64 << 10               // bytes of a frame kept for display
)

// frameRec is one recorded frame, already redacted.
type frameRec struct {
	at      time.Time
	plugin  string
	dir     ndjson.Direction
	kind    string
	method  string
	id      int64
	bytes   int
	latency time.Duration
	raw     string
}

func (f frameRec) row() string {
	arrow := "→" // host to plugin
	if f.dir == ndjson.In {
		arrow = "←"
	}
	s := fmt.Sprintf("%s  %s %s  %s", f.at.Format("15:04:05.000"), arrow, f.plugin, f.kind)
	if f.method != "" {
		s += " " + f.method
	}
	if f.id != 0 {
		s += fmt.Sprintf(" #%d", f.id)
	}
	s += fmt.Sprintf("  %d B", f.bytes)
	if f.latency > 0 {
		s += "  " + f.latency.Round(10*time.Microsecond).String()
	}
	return s
}

// inspector records sidecar frames in memory (no socket, no file) and shows
// them in the View → Protocol inspector window.
type inspector struct {
	d  *UI
	th *uikit.Throttle

	mu     sync.Mutex
	ring   []frameRec
	next   int // write position once the ring is full
	paused bool

	// UI goroutine only.
	win      fyne.Window
	list     *widget.List
	filter   *widget.Entry
	detail   *widget.Label
	rows     []frameRec // filtered snapshot
	selected int
}

func newInspector(d *UI) *inspector {
	in := &inspector{d: d, selected: -1}
	in.th = uikit.NewThrottle(d.b, inspectorRefresh, in.sync)
	return in
}

// OnFrame is the agent.Config.OnFrame tap. It runs on sidecar IO
// goroutines: redact, append to the ring, ask for a (throttled) refresh.
func (d *UI) OnFrame(plugin string, f ndjson.FrameInfo) {
	d.inspector.record(plugin, f)
}

func (in *inspector) record(plugin string, f ndjson.FrameInfo) {
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
	rec := frameRec{at: time.Now(), plugin: plugin, dir: f.Dir, kind: f.Kind, method: f.Method, id: f.ID,
		bytes: f.Bytes, latency: f.Latency, raw: raw}
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

// frames returns the recorded frames, oldest first.
func (in *inspector) frames() []frameRec {
	in.mu.Lock()
	defer in.mu.Unlock()
	out := make([]frameRec, 0, len(in.ring))
	out = append(out, in.ring[in.next:]...)
	return append(out, in.ring[:in.next]...)
}

func (in *inspector) setPaused(p bool) {
	in.mu.Lock()
	in.paused = p
	in.mu.Unlock()
}

func (in *inspector) clear() {
	in.mu.Lock()
	in.ring, in.next = nil, 0
	in.mu.Unlock()
	in.th.Kick()
}

// matches filters by plugin or method (case-insensitive substrings, every
// word must match).
func (f frameRec) matches(filter string) bool {
	hay := strings.ToLower(f.plugin + " " + f.method + " " + f.kind)
	for _, w := range strings.Fields(strings.ToLower(filter)) {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// sync refreshes the list from the ring (UI goroutine, ≤ 10 Hz).
func (in *inspector) sync() {
	if in.win == nil {
		return
	}
	all := in.frames()
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

// showInspector opens the protocol inspector window (UI goroutine).
func (d *UI) showInspector() {
	in := d.inspector
	if in.win != nil {
		in.win.RequestFocus()
		return
	}
	w := d.opts.App.NewWindow("Protocol inspector")
	in.filter = widget.NewEntry()
	in.filter.SetPlaceHolder("Filter by plugin or method")
	in.filter.OnChanged = func(string) { in.sync() }
	pause := widget.NewCheck("Pause", in.setPaused)
	in.mu.Lock()
	pause.Checked = in.paused
	in.mu.Unlock()
	copyBtn := widget.NewButtonWithIcon("Copy frame", theme.ContentCopyIcon(), in.copySelected)
	clearBtn := widget.NewButtonWithIcon("Clear", theme.DeleteIcon(), in.clear)
	in.detail = widget.NewLabel("Select a frame to see it (redacted).")
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
		in.detail.SetText(prettyJSON(in.rows[i].raw))
	}
	top := container.NewBorder(nil, nil, nil, container.NewHBox(pause, copyBtn, clearBtn), in.filter)
	split := container.NewVSplit(in.list, container.NewVScroll(in.detail))
	split.Offset = 0.6
	note := widget.NewLabel(fmt.Sprintf("In-process only; last %d frames; secrets redacted.", inspectorRing))
	note.Importance = widget.LowImportance
	w.SetContent(container.NewBorder(top, container.NewHBox(note, layout.NewSpacer()), nil, nil, split))
	w.Resize(fyne.NewSize(900, 620))
	w.SetOnClosed(func() { in.win, in.list, in.rows, in.selected = nil, nil, nil, -1 })
	in.win = w
	in.sync()
	w.Show()
}

func (in *inspector) copySelected() {
	if in.selected < 0 || in.selected >= len(in.rows) {
		return
	}
	in.d.opts.App.Clipboard().SetContent(in.rows[in.selected].raw)
}

func prettyJSON(raw string) string {
	var b bytes.Buffer
	if json.Indent(&b, []byte(raw), "", "  ") == nil {
		return b.String()
	}
	return raw
}
