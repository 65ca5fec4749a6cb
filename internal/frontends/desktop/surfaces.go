package desktop

import (
	"context"
	"errors"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/forms"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/markdown"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// surfacePanel shows the plugins' cards and forms grouped by plugin. It
// re-reads the store at frame rate when kicked; a surface's widgets are
// rebuilt only when its version changes, so what the user typed into a
// form survives unrelated publishes.
type surfacePanel struct {
	deps  panelDeps
	th    *uikit.Throttle
	syncs atomic.Int64

	// UI goroutine only.
	obj     fyne.CanvasObject
	box     *fyne.Container
	scroll  *container.Scroll
	empty   fyne.CanvasObject
	title   *widget.Label // "Plugin panel"
	hint    *widget.Label // what the empty panel says
	views   map[surfaces.Key]*surfaceView
	headers map[string]*widget.Label
	shown   []fyne.CanvasObject
	// rendered are xdev renderers' outputs by extension and renderer
	// (renderers.go).
	rendered map[string]fyne.CanvasObject
}

// surfaceView is one card or form.
type surfaceView struct {
	surf surfaces.Surface
	obj  fyne.CanvasObject

	// card
	values  map[string]*widget.Label // field key → value label
	actions map[string]*widget.Button

	// form
	form   *forms.View
	submit *forms.Button
	state  *widget.Label

	// stopped: the plugin is not running, so its actions are disabled
	// until a restart republishes the surface (stopped.go).
	stopped bool
}

func newSurfacePanel(d panelDeps) *surfacePanel {
	p := &surfacePanel{deps: d, views: map[surfaces.Key]*surfaceView{}, headers: map[string]*widget.Label{}}
	p.th = uikit.NewThrottle(d.b, uikit.FrameInterval, p.sync)
	hint := widget.NewLabel(i18n.T("Cards and forms from your plugins appear here."))
	hint.Wrapping = fyne.TextWrapWord
	hint.Importance = widget.LowImportance
	p.empty, p.hint = hint, hint
	p.box = container.NewVBox(p.empty)
	title := widget.NewLabelWithStyle(i18n.T("Plugin panel"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.title = title
	p.scroll = container.NewVScroll(container.NewPadded(p.box))
	p.obj = container.NewBorder(container.NewVBox(title, widget.NewSeparator()), nil, nil, nil, p.scroll)
	return p
}

func (p *surfacePanel) object() fyne.CanvasObject { return p.obj }

// sync rebuilds what changed since the last sync (UI goroutine).
func (p *surfacePanel) sync() {
	p.syncs.Add(1)
	core := p.deps.getCore()
	if core == nil {
		return
	}
	all := core.SurfaceList() // sorted by plugin, then kind, then id
	keep := map[surfaces.Key]bool{}
	var objs []fyne.CanvasObject
	plugin := ""
	for _, s := range all {
		if s.Kind != protocol.PublishCard && s.Kind != protocol.PublishForm {
			continue
		}
		keep[s.Key] = true
		v := p.views[s.Key]
		switch {
		case v == nil || v.surf.Version != s.Version || v.surf.Kind != s.Kind:
			v = p.build(s)
			p.views[s.Key] = v
		case v.form != nil && v.surf.Submit != s.Submit:
			v.surf = s
			v.showSubmit()
		}
		stopped := p.deps.pluginStopped(s.Key.Plugin)
		if v.stopped != stopped {
			v.setStopped(stopped)
		}
		if s.Key.Plugin != plugin {
			plugin = s.Key.Plugin
			objs = append(objs, p.header(plugin, stopped))
		}
		objs = append(objs, v.obj)
	}
	for k := range p.views {
		if !keep[k] && !p.deps.otherLiveChat(k.SessionID) {
			delete(p.views, k) // a live chat in the background keeps its forms as they were left
		}
	}
	objs = append(objs, p.renderedObjects()...)
	if len(objs) == 0 {
		objs = []fyne.CanvasObject{p.empty}
	}
	if !sameObjects(objs, p.shown) {
		p.shown = objs
		p.box.Objects = objs
		p.box.Refresh()
	}
	fitScroll(p.scroll) // a rebuilt card may have a new height
	p.box.Layout.Layout(p.box.Objects, p.box.Size())
}

func sameObjects(a, b []fyne.CanvasObject) bool {
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

// relabel writes the panel's own words again after a language change
// (UI goroutine); what plugins wrote stays theirs.
func (p *surfacePanel) relabel() {
	p.title.SetText(i18n.T("Plugin panel"))
	p.hint.SetText(i18n.T("Cards and forms from your plugins appear here."))
}

func (p *surfacePanel) header(plugin string, stopped bool) fyne.CanvasObject {
	h := p.headers[plugin]
	if h == nil {
		h = widget.NewLabelWithStyle(plugin, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		p.headers[plugin] = h
	}
	text, imp := plugin, widget.HighImportance
	if stopped {
		text, imp = i18n.T("%s — plugin stopped", plugin), widget.LowImportance
	}
	if h.Text != text || h.Importance != imp {
		h.Importance = imp
		h.SetText(text)
	}
	return h
}

func (p *surfacePanel) build(s surfaces.Surface) *surfaceView {
	if s.Card != nil {
		return p.buildCard(s)
	}
	return p.buildForm(s)
}

func (p *surfacePanel) buildCard(s surfaces.Surface) *surfaceView {
	c := s.Card
	v := &surfaceView{surf: s, values: map[string]*widget.Label{}, actions: map[string]*widget.Button{}}
	box := container.NewVBox()
	if c.Title != "" {
		box.Add(widget.NewLabelWithStyle(c.Title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	}
	if c.Markdown != "" {
		md := uikit.NewRichText()
		md.Segments = markdown.Render(c.Markdown, p.deps.confirmLink)
		box.Add(md)
	}
	if c.Text != "" {
		t := widget.NewLabel(c.Text)
		t.Wrapping = fyne.TextWrapWord
		box.Add(t)
	}
	if len(c.Fields) > 0 {
		grid := container.New(layout.NewFormLayout())
		for _, kv := range c.Fields {
			k := widget.NewLabel(kv.Key)
			k.Importance = widget.LowImportance
			val := widget.NewLabel(kv.Value)
			val.Wrapping = fyne.TextWrapWord
			v.values[kv.Key] = val
			grid.Add(k)
			grid.Add(val)
		}
		box.Add(grid)
	}
	if c.Progress != nil {
		bar := widget.NewProgressBar()
		bar.SetValue(clamp01(*c.Progress))
		box.Add(bar)
	}
	if len(c.Actions) > 0 {
		row := container.NewHBox()
		for _, a := range c.Actions {
			btn := widget.NewButton(a.Label, nil)
			btn.OnTapped = p.actionTap(s.Key.Plugin, a.ActionID, btn)
			v.actions[a.ActionID] = btn
			row.Add(btn)
		}
		box.Add(row)
	}
	v.obj = uikit.PanelBox(theme.ColorNameInputBackground, 0, box)
	return v
}

// actionTap invokes /<plugin>:<action> off the UI goroutine; the button is
// disabled until the plugin answered.
func (p *surfacePanel) actionTap(plugin, id string, btn *widget.Button) func() {
	d := p.deps
	name := surfaces.ActionName(plugin, id)
	return func() {
		btn.Disable()
		d.withCore(name, func(ctx context.Context, c coreAPI) error {
			defer d.b.Post(func() {
				if !d.pluginStopped(plugin) { // a plugin that stopped meanwhile keeps it grey
					btn.Enable()
				}
			})
			done := d.notes.BeginAction(plugin) // one action, one toast
			res, err := c.InvokeAction(ctx, name, nil)
			done(res.Message)
			return err
		})
	}
}

func (p *surfacePanel) buildForm(s surfaces.Surface) *surfaceView {
	f := s.Form
	v := &surfaceView{surf: s, state: widget.NewLabel("")}
	v.state.Importance = widget.LowImportance
	v.submit = forms.NewButton(i18n.T("Submit"), theme.ConfirmIcon(), nil) // a focus ring, and Enter presses it
	v.submit.Importance = widget.HighImportance
	v.form = forms.New(f.Fields, false, v.showSubmit)
	v.form.PassWheel(p.scroll) // the wheel over a field scrolls the panel
	v.submit.OnTapped = func() { p.submit(v) }
	// Enter in a field submits the form, as in a dialog's form.
	v.form.OnKeys(nil, func() {
		if !v.submit.Disabled() {
			p.submit(v)
		}
	})
	box := container.NewVBox()
	if f.Title != "" {
		box.Add(widget.NewLabelWithStyle(f.Title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	}
	if f.Message != "" {
		m := widget.NewLabel(f.Message)
		m.Wrapping = fyne.TextWrapWord
		box.Add(m)
	}
	box.Add(v.form.Object())
	box.Add(container.NewHBox(v.submit, v.state))
	v.obj = uikit.PanelBox(theme.ColorNameInputBackground, 0, box)
	v.showSubmit()
	return v
}

// showSubmit reflects the submit state: Submit is enabled only for an idle
// form whose required fields are filled.
func (v *surfaceView) showSubmit() {
	st := v.surf.Submit
	switch st {
	case surfaces.SubmitPending:
		v.state.SetText(i18n.T("Sending…"))
	case surfaces.SubmitSent:
		v.state.SetText(i18n.T("Sent"))
	default:
		v.state.SetText("")
	}
	if v.stopped {
		v.state.SetText(i18n.T("plugin stopped"))
	}
	v.form.SetEnabled(st == surfaces.SubmitIdle && !v.stopped)
	if st == surfaces.SubmitIdle && !v.stopped && v.form.Complete() {
		v.submit.Enable()
	} else {
		v.submit.Disable()
	}
}

// submit sends the typed values with extension/ui/submit off the UI
// goroutine; the store reports pending and sent back to the panel.
func (p *surfacePanel) submit(v *surfaceView) {
	if !v.form.Complete() {
		return
	}
	values := v.form.Values()
	key := v.surf.Key
	v.submit.Disable()
	p.deps.withCore(i18n.M("submit"), func(ctx context.Context, c coreAPI) error {
		err := c.SubmitForm(ctx, key, values)
		if errors.Is(err, surfaces.ErrIllegalTransition) {
			return nil // a double click: the first submission is in flight
		}
		p.th.Kick()
		return err
	})
}

func clamp01(x float64) float64 {
	return min(max(x, 0), 1)
}

// fitScroll sizes a vertical scroller's content to its new minimum (a
// container's own Refresh or Add lays out only itself, not its parents).
func fitScroll(s *container.Scroll) {
	min, view := s.Content.MinSize(), s.Size()
	s.Content.Resize(fyne.NewSize(max(min.Width, view.Width), max(min.Height, view.Height)))
}
