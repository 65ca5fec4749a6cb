// Package panels holds the window's always-visible panels that show what
// plugins publish: the status bar (status surfaces, the last turn's token
// use, plugin health) and the notifier (toasts, system notifications, the
// Notifications window). Each gets its dependencies explicitly: the
// bridge, the view-model and a function listing the stored surfaces.
package panels

import (
	"image/color"
	"slices"
	"strings"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/viewmodel"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// StatusBar shows the plugins' status surfaces (label, detail, severity
// colour, progress), the last turn's token usage and the plugin health.
// A flood of status publishes is absorbed by the store; the bar re-reads it
// at frame rate and always ends on the last value.
//
// Concurrency: SetUsage and Kick may be called from any goroutine; the
// rest runs on the UI goroutine.
type StatusBar struct {
	b     *uikit.Bridge
	state *viewmodel.State
	list  func() ([]surfaces.Surface, bool)
	th    *uikit.Throttle
	syncs atomic.Int64

	// UI goroutine only.
	obj    fyne.CanvasObject
	box    *fyne.Container
	views  map[surfaces.Key]*statusView
	order  []surfaces.Key
	usage  *widget.Label
	health *widget.Button
	// The chat's meter (meter.go): its cost, its context use, the
	// account's balance on demand.
	cost, context *widget.Label
	balance       *widget.Button
	meter         ChatMeter
	// OnBalance, set before the bar is shown, asks for the balance (the
	// Balance button's tap); the answer comes back through SetBalance.
	OnBalance func()
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

// NewStatusBar is an empty bar. list returns the stored surfaces, false
// before a core is attached (called on the UI goroutine, it must answer
// from memory); state says which plugins are stopped; a click on the
// health button runs onHealth.
func NewStatusBar(b *uikit.Bridge, state *viewmodel.State, list func() ([]surfaces.Surface, bool), onHealth func()) *StatusBar {
	s := &StatusBar{b: b, state: state, list: list, views: map[surfaces.Key]*statusView{}}
	s.th = uikit.NewThrottle(b, uikit.FrameInterval, s.sync)
	s.box = container.NewHBox()
	s.usage = widget.NewLabel("")
	s.usage.Importance = widget.LowImportance
	s.health = widget.NewButtonWithIcon(i18n.T("Plugins"), theme.ComputerIcon(), onHealth)
	s.health.Importance = widget.LowImportance
	s.newMeter()
	s.obj = container.NewVBox(widget.NewSeparator(),
		container.NewBorder(nil, nil, nil, container.NewHBox(s.usage, s.cost, s.context, s.balance, s.health), s.box))
	return s
}

// Object is the bar's canvas object.
func (s *StatusBar) Object() fyne.CanvasObject { return s.obj }

// Kick asks for a re-read of the status surfaces at the next frame (any
// goroutine).
func (s *StatusBar) Kick() { s.th.Kick() }

// Shown are the keys of the status surfaces shown, in order (UI goroutine).
func (s *StatusBar) Shown() []surfaces.Key { return slices.Clone(s.order) }

// Syncs counts the bar's renders (benchmarks).
func (s *StatusBar) Syncs() int64 { return s.syncs.Load() }

// Health is the plugin health button (it opens the plugin manager).
func (s *StatusBar) Health() *widget.Button { return s.health }

// Usage is the last turn's token use as shown.
func (s *StatusBar) Usage() string { return s.usage.Text }

// ClearUsage empties the token use (another session opened).
func (s *StatusBar) ClearUsage() { s.usage.SetText("") }

// sync shows the current status surfaces (UI goroutine).
func (s *StatusBar) sync() {
	s.syncs.Add(1)
	all, ok := s.list()
	if !ok {
		return
	}
	var order []surfaces.Key
	for _, x := range all {
		if x.Status == nil {
			continue
		}
		order = append(order, x.Key)
		v := s.views[x.Key]
		if v == nil {
			v = newStatusView()
			s.views[x.Key] = v
		}
		if stopped := s.state.PluginStopped(x.Key.Plugin); v.version != x.Version || v.stopped != stopped {
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
		label, detail = i18n.T("%s: plugin stopped", plugin), i18n.T("was: %s", st.Label)
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

// Text is what the bar's status surfaces say, one per line (UI goroutine).
func (s *StatusBar) Text() string {
	var parts []string
	for _, k := range s.order {
		v := s.views[k]
		parts = append(parts, v.label.Text+" | "+v.detail.Text)
	}
	return strings.Join(parts, "\n")
}

// SetUsage shows the last turn's token usage (any goroutine).
func (s *StatusBar) SetUsage(u protocol.ProviderUsage) {
	text := i18n.T("%s tokens in · %s out", i18n.Int(int64(u.PromptTokens)), i18n.Int(int64(u.CompletionTokens)))
	s.b.Post(func() { s.usage.SetText(text) })
}

// stateCounts are the health button's words for a count of plugins in a
// state (English keys, translated where shown).
var stateCounts = map[string]string{
	agent.PluginActive:   i18n.M("%d active"),
	agent.PluginDegraded: i18n.M("%d degraded"),
	agent.PluginFailed:   i18n.M("%d failed"),
	agent.PluginInactive: i18n.M("%d inactive"),
	agent.PluginDisabled: i18n.M("%d disabled"),
}

// Relabel writes the bar's own words again after a language change (UI
// goroutine): the health count; the usage line follows at the next reply.
func (s *StatusBar) Relabel(ps []agent.PluginInfo) {
	s.relabelMeter()
	s.SetHealth(ps)
}

// SetHealth counts plugins by state; a click opens the plugin manager.
func (s *StatusBar) SetHealth(ps []agent.PluginInfo) {
	counts := map[string]int{}
	for _, p := range ps {
		counts[p.State]++
	}
	var parts []string
	for _, st := range []string{agent.PluginActive, agent.PluginDegraded, agent.PluginFailed, agent.PluginInactive, agent.PluginDisabled} {
		if n := counts[st]; n > 0 {
			parts = append(parts, i18n.T(stateCounts[st], n))
		}
	}
	text := i18n.T("No plugins installed")
	if len(parts) > 0 {
		text = i18n.T("Plugins: %s", strings.Join(parts, " · "))
	}
	s.health.Importance = widget.LowImportance
	if counts[agent.PluginFailed] > 0 {
		s.health.Importance = widget.DangerImportance
	} else if counts[agent.PluginDegraded] > 0 {
		s.health.Importance = widget.WarningImportance
	}
	s.SetHealthText(text)
}

// SetHealthText says text on the health button ("Starting plugins…").
func (s *StatusBar) SetHealthText(text string) {
	s.health.SetText(text)
}

// HealthText is what the health button reads (UI goroutine).
func (s *StatusBar) HealthText() string { return s.health.Text }

func clamp01(x float64) float64 {
	return min(max(x, 0), 1)
}
