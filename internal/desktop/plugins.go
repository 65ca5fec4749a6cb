package desktop

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/host"
	"github.com/reasonix/reasonix-desktop/internal/host/plugin"
	"github.com/reasonix/reasonix-desktop/internal/redact"
)

// pluginManager is the Plugins → Manage window: every installed plugin
// with its state and diagnostics, and Install / Enable / Disable / Remove /
// Restart / Doctor. Store writes and reloads run off the UI goroutine.
type pluginManager struct {
	d        *UI
	win      fyne.Window
	list     *widget.List
	plugins  []host.PluginStatus
	selected int
	details  *widget.RichText
	toggle   *widget.Button
	remove   *widget.Button
	doctor   *widget.Button
}

// showPluginManager opens (or raises) the plugin manager (UI goroutine).
func (d *UI) showPluginManager() {
	if d.pluginsWin != nil {
		d.pluginsWin.win.RequestFocus()
		return
	}
	m := &pluginManager{d: d, selected: -1, details: newRichText()}
	m.win = d.app.NewWindow("Plugins")
	m.list = widget.NewList(func() int { return len(m.plugins) },
		func() fyne.CanvasObject {
			name := widget.NewLabel("")
			name.TextStyle.Bold = true
			return container.NewHBox(name, widget.NewLabel(""))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			p := m.plugins[i]
			row := o.(*fyne.Container)
			row.Objects[0].(*widget.Label).SetText(p.Name)
			st := row.Objects[1].(*widget.Label)
			st.Importance = pluginStateImportance(p.State)
			st.SetText(p.State)
			row.Refresh() // the texts' widths changed: re-lay out the row
		})
	m.list.OnSelected = func(i widget.ListItemID) { m.selected = i; m.showSelected() }
	m.toggle = widget.NewButton("Disable", m.toggleEnabled)
	m.remove = widget.NewButtonWithIcon("Remove", theme.DeleteIcon(), m.confirmRemove)
	m.remove.Importance = widget.DangerImportance
	m.doctor = widget.NewButtonWithIcon("Doctor", theme.InfoIcon(), m.runDoctor)
	install := widget.NewButtonWithIcon("Install…", theme.ContentAddIcon(), d.installPlugin)
	install.Importance = widget.HighImportance
	restart := widget.NewButtonWithIcon("Restart plugins", theme.ViewRefreshIcon(), d.restartPlugins)
	logs := widget.NewButtonWithIcon("Logs", theme.DocumentIcon(), d.showLogs)
	top := container.NewHBox(install, restart, logs, layout.NewSpacer(), m.toggle, m.remove, m.doctor)
	split := container.NewHSplit(m.list, container.NewVScroll(container.NewPadded(m.details)))
	split.Offset = 0.3
	m.win.SetContent(container.NewBorder(container.NewVBox(top, widget.NewSeparator()), nil, nil, nil, split))
	m.win.Resize(fyne.NewSize(900, 600))
	m.win.SetOnClosed(func() { d.pluginsWin = nil })
	d.pluginsWin = m
	m.refresh(d.plugins)
	if len(m.plugins) > 0 {
		m.list.Select(0)
	}
	m.win.Show()
}

// refresh shows new plugin states, keeping the selection by name.
func (m *pluginManager) refresh(ps []host.PluginStatus) {
	name := ""
	if m.selected >= 0 && m.selected < len(m.plugins) {
		name = m.plugins[m.selected].Name
	}
	m.plugins = ps
	m.selected = -1
	for i, p := range ps {
		if p.Name == name {
			m.selected = i
		}
	}
	m.list.Refresh()
	m.showSelected()
}

func (m *pluginManager) current() (host.PluginStatus, bool) {
	if m.selected < 0 || m.selected >= len(m.plugins) {
		return host.PluginStatus{}, false
	}
	return m.plugins[m.selected], true
}

func (m *pluginManager) showSelected() {
	p, ok := m.current()
	for _, b := range []*widget.Button{m.toggle, m.remove, m.doctor} {
		if ok {
			b.Enable()
		} else {
			b.Disable()
		}
	}
	if !ok {
		m.details.Segments = renderMarkdown("Select a plugin, or install one with **Install…**.", nil)
		m.details.Refresh()
		return
	}
	if p.State == host.StateDisabled {
		m.toggle.SetText("Enable")
	} else {
		m.toggle.SetText("Disable")
	}
	m.details.Segments = pluginDetails(p)
	m.details.Refresh()
}

// pluginDetails renders what the manager knows about a plugin. Plugin
// provided strings are redacted again here: they come straight from the
// runtime, not from the surfaces store.
func pluginDetails(p host.PluginStatus) []widget.RichTextSegment {
	r := redact.String
	list := func(xs []string) string {
		if len(xs) == 0 {
			return "—"
		}
		return r(strings.Join(xs, ", "))
	}
	flags := []string{"generation " + fmt.Sprint(p.Generation)}
	if p.Required {
		flags = append(flags, "required")
	}
	if p.Linked {
		flags = append(flags, "linked")
	}
	kv := func(k, v string) []widget.RichTextSegment {
		key := widget.RichTextStyleStrong
		return []widget.RichTextSegment{&widget.TextSegment{Style: key, Text: k + ": "},
			&widget.TextSegment{Style: widget.RichTextStyleParagraph, Text: v}}
	}
	segs := []widget.RichTextSegment{&widget.TextSegment{Style: widget.RichTextStyleSubHeading, Text: p.Name + " " + r(p.Version)}}
	if p.Description != "" {
		segs = append(segs, &widget.TextSegment{Style: widget.RichTextStyleParagraph, Text: r(p.Description)})
	}
	segs = append(segs, kv("State", p.State+" · "+strings.Join(flags, " · "))...)
	segs = append(segs, kv("Root", r(p.Root))...)
	segs = append(segs, kv("Intercepts", list(p.Intercepts))...)
	segs = append(segs, kv("Replaces", list(p.Replaces))...)
	segs = append(segs, kv("Provides", "providers "+list(p.Providers)+"; ui actions "+list(p.Actions))...)
	if p.Failure != "" {
		segs = append(segs, kv("Failure", r(p.Failure))...)
	}
	code := func(title, text string) {
		segs = append(segs, &widget.TextSegment{Style: widget.RichTextStyleSubHeading, Text: title},
			&widget.TextSegment{Style: widget.RichTextStyleCodeBlock, Text: r(strings.TrimRight(text, "\n"))})
	}
	if p.StartError != nil {
		code("Why it did not start", p.StartError.Report())
	}
	if p.StderrTail != "" {
		code("Stderr (last lines)", lastLines(p.StderrTail, 60))
	}
	return segs
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func pluginStateImportance(state string) widget.Importance {
	switch state {
	case host.StateActive:
		return widget.SuccessImportance
	case host.StateFailed:
		return widget.DangerImportance
	}
	return widget.LowImportance
}

// reloadAfter runs a store change, then restarts the plugins under a new
// generation so it takes effect (off the UI goroutine).
func (d *UI) reloadAfter(what string, change func() error) {
	d.withCore(what, func(ctx context.Context, c coreAPI) error {
		if change != nil {
			if err := change(); err != nil {
				return err
			}
		}
		if err := c.Reload(ctx); err != nil {
			return fmt.Errorf("restart plugins: %w", err)
		}
		d.notes.hostNotice(what+": done", noticeInfo)
		return nil
	})
}

func (d *UI) restartPlugins() { d.reloadAfter("restart plugins", nil) }

func (d *UI) openStore() (*plugin.Store, error) { return plugin.OpenStore(d.opts.Layout) }

func (m *pluginManager) toggleEnabled() {
	p, ok := m.current()
	if !ok {
		return
	}
	enable := p.State == host.StateDisabled
	verb := "disable "
	if enable {
		verb = "enable "
	}
	m.d.reloadAfter(verb+p.Name, func() error {
		store, err := m.d.openStore()
		if err != nil {
			return err
		}
		return store.SetEnabled(p.Name, enable)
	})
}

func (m *pluginManager) confirmRemove() {
	p, ok := m.current()
	if !ok {
		return
	}
	msg := fmt.Sprintf("Remove %s? A copied plugin's folder is deleted; a linked folder is kept.", p.Name)
	dialog.ShowConfirm("Remove plugin", msg, func(yes bool) {
		if !yes {
			return
		}
		m.d.reloadAfter("remove "+p.Name, func() error {
			store, err := m.d.openStore()
			if err != nil {
				return err
			}
			return plugin.Remove(store, m.d.opts.Layout, p.Name)
		})
	}, m.win)
}

// runDoctor shows what the runtime knows about the running client: the
// handshake and the declaration (the facts `plugin doctor` prints), or the
// start diagnostics of a plugin that failed.
func (m *pluginManager) runDoctor() {
	p, ok := m.current()
	if !ok {
		return
	}
	d := m.d
	d.withCore("doctor", func(ctx context.Context, c coreAPI) error {
		text := doctorText(c.Runtime(), p)
		d.b.post(func() { d.showText("Doctor: "+p.Name, text, m.win) })
		return nil
	})
}

func doctorText(rt *host.Runtime, p host.PluginStatus) string {
	var b strings.Builder
	fmt.Fprintf(&b, "plugin %s %s (%s)\nstate:       %s\n", p.Name, p.Version, p.Root, p.State)
	if p.StartError != nil {
		b.WriteString(p.StartError.Report())
	}
	gen := rt.Current()
	if gen == nil {
		b.WriteString("no generation is running\n")
		return redact.String(b.String())
	}
	cl, ok := gen.Client(p.Name)
	if !ok {
		fmt.Fprintf(&b, "not running in generation %d\n", gen.Number)
		return redact.String(b.String())
	}
	fmt.Fprintf(&b, "generation:  %d\nprocess:     %s\nhandshake:   ok in %s\n", gen.Number, cl.State(), cl.HandshakeTime().Round(time.Microsecond))
	decl := cl.Declaration()
	list := func(xs []string) string {
		if len(xs) == 0 {
			return "-"
		}
		return strings.Join(xs, ", ")
	}
	var providers, actions []string
	for _, x := range decl.Providers {
		providers = append(providers, x.Ref+"/"+x.Model)
	}
	for _, a := range decl.UIActions {
		actions = append(actions, a.ActionID)
	}
	fmt.Fprintf(&b, "declared:    %s %s (protocol %s)\n", decl.Name, decl.Version, decl.ProtocolVersion)
	fmt.Fprintf(&b, "  subscriptions: %s\n  replaces:      %s\n  providers:     %s\n  ui actions:    %s\n",
		list(decl.Subscriptions), list(decl.Replaces), list(providers), list(actions))
	if f := cl.Failure(); f != nil {
		fmt.Fprintf(&b, "failure:     %v\n", f)
	}
	if tail := cl.StderrTail(); tail != "" {
		b.WriteString("stderr tail:\n" + lastLines(tail, 40) + "\n")
	}
	return redact.String(b.String())
}

// installPlugin: folder picker → FULL TRUST preview → Install → reload.
func (d *UI) installPlugin() {
	parent := d.win
	if d.pluginsWin != nil {
		parent = d.pluginsWin.win
	}
	fd := dialog.NewFolderOpen(func(uri fyne.ListableURI, err error) {
		if err != nil || uri == nil {
			return
		}
		d.previewInstall(uri.Path(), parent)
	}, parent)
	fd.Resize(fyne.NewSize(800, 560))
	fd.Show()
}

// previewInstall validates the folder off the UI goroutine and shows the
// FULL TRUST preview; only its Install button installs.
func (d *UI) previewInstall(dir string, parent fyne.Window) {
	d.async("install", func(ctx context.Context) error {
		store, err := d.openStore()
		if err != nil {
			return err
		}
		plan, err := plugin.Preview(store, dir, plugin.InstallOptions{})
		if err != nil && strings.Contains(err.Error(), "already installed") {
			plan, err = plugin.Preview(store, dir, plugin.InstallOptions{Replace: true})
		}
		if err != nil {
			return err
		}
		d.b.post(func() { d.showTrust(store, plan, parent) })
		return nil
	})
}

// showTrust is the install confirmation: the full preview text.
func (d *UI) showTrust(store *plugin.Store, plan *plugin.InstallPlan, parent fyne.Window) {
	text := widget.NewLabel(redact.String(plan.Text))
	text.TextStyle.Monospace = true
	text.Wrapping = fyne.TextWrapBreak
	warn := widget.NewLabel("Installing is the authorization: the plugin runs outside any sandbox with your full environment.")
	warn.Wrapping = fyne.TextWrapWord
	warn.Importance = widget.WarningImportance
	content := container.NewBorder(warn, nil, nil, nil, container.NewVScroll(text))
	dlg := dialog.NewCustomConfirm("Install "+plan.Name+" — FULL TRUST", "Install", "Cancel", content, func(ok bool) {
		if !ok {
			return
		}
		d.reloadAfter("install "+plan.Name, func() error {
			_, err := plugin.Install(store, d.opts.Layout, plan)
			return err
		})
	}, parent)
	dlg.Resize(fyne.NewSize(720, 520))
	dlg.Show()
}

// logTail bounds what Logs shows of the host log.
const logTail = 128 << 10

// showLogs opens the host log's tail (read off the UI goroutine).
func (d *UI) showLogs() {
	d.async("logs", func(ctx context.Context) error {
		text, err := readTail(d.opts.Layout.HostLog(), logTail)
		if errors.Is(err, os.ErrNotExist) {
			text, err = "(the host log is empty)", nil
		}
		if err != nil {
			return err
		}
		text = redact.String(text)
		d.b.post(func() { d.showText("Host log — "+d.opts.Layout.HostLog(), text, nil) })
		return nil
	})
}

func readTail(path string, n int64) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	if off := st.Size() - n; off > 0 {
		if _, err := f.Seek(off, io.SeekStart); err != nil {
			return "", err
		}
	}
	b, err := io.ReadAll(f)
	return string(b), err
}

// showText opens a window with monospace text (logs, doctor).
func (d *UI) showText(title, text string, _ fyne.Window) {
	w := d.app.NewWindow(title)
	l := widget.NewLabel(text)
	l.TextStyle.Monospace = true
	l.Wrapping = fyne.TextWrapBreak
	copyBtn := widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), func() { d.app.Clipboard().SetContent(text) })
	w.SetContent(container.NewBorder(nil, container.NewHBox(layout.NewSpacer(), copyBtn), nil, nil, container.NewVScroll(l)))
	w.Resize(fyne.NewSize(820, 560))
	w.Show()
}
