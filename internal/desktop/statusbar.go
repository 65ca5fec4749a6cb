package desktop

import (
	"fmt"
	"image/color"
	"strings"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/host/agent"
	"github.com/reasonix/reasonix-desktop/internal/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// statusBar shows the plugins' status surfaces (label, detail, severity
// colour, progress), the last turn's token usage and the plugin health.
// A flood of status publishes is absorbed by the store; the bar re-reads it
// at frame rate and always ends on the last value.
type statusBar struct {
	d     *UI
	th    *uikit.Throttle
	syncs atomic.Int64

	// UI goroutine only.
	obj    fyne.CanvasObject
	box    *fyne.Container
	views  map[surfaces.Key]*statusView
	order  []surfaces.Key
	usage  *widget.Label
	health *widget.Button
}

type statusView struct {
	obj     *fyne.Container
	dot     *canvas.Circle
	label   *widget.Label
	detail  *widget.Label
	bar     *widget.ProgressBar
	barWrap *fyne.Container
	version uint64
	stopped bool
}

func newStatusBar(d *UI) *statusBar {
	s := &statusBar{d: d, views: map[surfaces.Key]*statusView{}}
	s.th = uikit.NewThrottle(d.b, uikit.FrameInterval, s.sync)
	s.box = container.NewHBox()
	s.usage = widget.NewLabel("")
	s.usage.Importance = widget.LowImportance
	s.health = widget.NewButtonWithIcon("Plugins", theme.ComputerIcon(), d.showPluginManager)
	s.health.Importance = widget.LowImportance
	s.obj = container.NewVBox(widget.NewSeparator(),
		container.NewBorder(nil, nil, nil, container.NewHBox(s.usage, s.health), s.box))
	return s
}

func (s *statusBar) object() fyne.CanvasObject { return s.obj }

// sync shows the current status surfaces (UI goroutine).
func (s *statusBar) sync() {
	s.syncs.Add(1)
	core := s.d.getCore()
	if core == nil {
		return
	}
	var order []surfaces.Key
	for _, x := range core.SurfaceList() {
		if x.Status == nil {
			continue
		}
		order = append(order, x.Key)
		v := s.views[x.Key]
		if v == nil {
			v = newStatusView()
			s.views[x.Key] = v
		}
		if stopped := s.d.pluginStopped(x.Key.Plugin); v.version != x.Version || v.stopped != stopped {
			v.stopped = stopped
			v.show(x.Key.Plugin, x.Status)
			v.version = x.Version
		}
	}
	if !sameKeys(order, s.order) {
		s.order = order
		objs := make([]fyne.CanvasObject, 0, len(order))
		keep := map[surfaces.Key]bool{}
		for _, k := range order {
			objs = append(objs, s.views[k].obj)
			keep[k] = true
		}
		for k := range s.views {
			if !keep[k] {
				delete(s.views, k)
			}
		}
		s.box.Objects = objs
		s.box.Refresh()
	}
}

func sameKeys(a, b []surfaces.Key) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func newStatusView() *statusView {
	v := &statusView{dot: canvas.NewCircle(color.Transparent), label: widget.NewLabel(""), detail: widget.NewLabel(""),
		bar: widget.NewProgressBar()}
	v.label.TextStyle.Bold = true
	v.detail.Importance = widget.LowImportance
	v.detail.SizeName = theme.SizeNameCaptionText
	v.bar.TextFormatter = func() string { return "" }
	dot := container.NewCenter(container.NewGridWrap(fyne.NewSize(10, 10), v.dot))
	v.barWrap = container.NewCenter(container.NewGridWrap(fyne.NewSize(90, 8), v.bar))
	v.obj = container.NewHBox(dot, v.label, v.detail, v.barWrap, widget.NewSeparator())
	return v
}

func (v *statusView) show(plugin string, st *protocol.StatusPayload) {
	v.dot.FillColor = severityColor(st.Severity)
	v.label.Importance = widget.MediumImportance
	label, detail := st.Label, st.Detail
	if detail == "" {
		detail = plugin
	}
	if v.stopped {
		// What a dead plugin last said is history, not its state.
		v.dot.FillColor = theme.Color(theme.ColorNameDisabled)
		v.label.Importance = widget.LowImportance
		label, detail = plugin+": plugin stopped", "was: "+st.Label
	}
	v.dot.Refresh()
	v.label.SetText(label)
	v.detail.SetText(detail)
	if st.Progress != nil {
		v.bar.SetValue(clamp01(*st.Progress))
	}
	if shown := st.Progress != nil; shown != v.barWrap.Visible() {
		if shown {
			v.barWrap.Show()
		} else {
			v.barWrap.Hide()
		}
		v.obj.Refresh()
	}
}

func severityColor(s protocol.Severity) color.Color {
	switch s {
	case protocol.SeverityWarn:
		return theme.Color(theme.ColorNameWarning)
	case protocol.SeverityError:
		return theme.Color(theme.ColorNameError)
	}
	return theme.Color(theme.ColorNameSuccess)
}

// text is what the bar says, for tests and benchmarks (UI goroutine).
func (s *statusBar) text() string {
	var parts []string
	for _, k := range s.order {
		v := s.views[k]
		parts = append(parts, v.label.Text+" | "+v.detail.Text)
	}
	return strings.Join(parts, "\n")
}

// setUsage shows the last turn's token usage (any goroutine).
func (s *statusBar) setUsage(u protocol.ProviderUsage) {
	text := fmt.Sprintf("%d tokens in · %d out", u.PromptTokens, u.CompletionTokens)
	s.d.b.Post(func() { s.usage.SetText(text) })
}

// setHealth counts plugins by state; a click opens the plugin manager.
func (s *statusBar) setHealth(ps []agent.PluginInfo) {
	counts := map[string]int{}
	for _, p := range ps {
		counts[p.State]++
	}
	var parts []string
	for _, st := range []string{agent.PluginActive, agent.PluginDegraded, agent.PluginFailed, agent.PluginInactive, agent.PluginDisabled} {
		if n := counts[st]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, strings.ToLower(st)))
		}
	}
	text := "No plugins installed"
	if len(parts) > 0 {
		text = "Plugins: " + strings.Join(parts, " · ")
	}
	s.health.Importance = widget.LowImportance
	if counts[agent.PluginFailed] > 0 {
		s.health.Importance = widget.DangerImportance
	} else if counts[agent.PluginDegraded] > 0 {
		s.health.Importance = widget.WarningImportance
	}
	s.setHealthText(text)
}

func (s *statusBar) setHealthText(text string) {
	s.health.SetText(text)
}
