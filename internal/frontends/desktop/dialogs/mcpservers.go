package dialogs

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/termsafe"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// MCPServer is one MCP server as the servers window shows it. Every text
// came from the server or its configuration and is redacted by the source.
type MCPServer struct {
	Name, Transport, Source string
	State                   string // stopped, starting, ready, failed
	Err                     string
	Stderr                  []string // the last lines it wrote to stderr
	Tools                   []MCPTool
	// Enabled: it starts with the chat.
	Enabled bool
	// Entry is the user's own entry (mcp.json), which the window edits;
	// nil for a plugin package's server.
	Entry *MCPEntry
}

// MCPTool is one tool of a server and whether the model is offered it.
type MCPTool struct {
	Name, Description     string
	ReadOnly, Destructive bool // the server's own claims (annotations)
	// HintsTrusted: the user chose to trust the server's claims, so a
	// read-only tool runs without asking; otherwise the claim is only
	// the server's word and the call is asked about.
	HintsTrusted bool
	Enabled      bool
}

// MCPSource is the host's MCP servers.
//
// Concurrency: every method may be called from any goroutine. Servers
// returns at once (what is known now: a server still starting is listed as
// such). SetToolEnabled writes a small file; Restart returns at once, the
// server starting again in the background. Watch calls fn, on a goroutine
// of the source's, after any state or tool list changed, until stop.
type MCPSource interface {
	Servers() []MCPServer
	SetToolEnabled(tool string, enabled bool) error
	Restart(server string) error
	Watch(fn func()) (stop func())
}

// MCPServers is the MCP servers window: every server with its state, its
// error and stderr tail, its tools (each can be turned off for the model)
// and Restart. It never waits on a server: changes come back through the
// source's Watch.
type MCPServers struct {
	win      fyne.Window
	b        *uikit.Bridge
	src      MCPSource
	servers  []MCPServer // UI goroutine
	selected int
	list     *widget.List
	details  *fyne.Container
	restart  *widget.Button
	errs     func(error)
	editing  *entryForm // the add/edit form last opened (mcpservers_edit.go)
}

// ShowMCPServers opens the window over src; onError shows a failure to the
// user (a tool setting that could not be saved); onClosed is called once.
func ShowMCPServers(app fyne.App, b *uikit.Bridge, src MCPSource, onError func(error), onClosed func()) *MCPServers {
	w := &MCPServers{win: app.NewWindow(i18n.T("MCP servers")), b: b, src: src, selected: -1, errs: onError, details: container.NewVBox()}
	w.list = widget.NewList(func() int { return len(w.servers) },
		func() fyne.CanvasObject {
			name := widget.NewLabel("")
			name.TextStyle.Bold = true
			return container.NewHBox(name, widget.NewLabel(""))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			s := w.servers[i]
			row := o.(*fyne.Container)
			row.Objects[0].(*widget.Label).SetText(termsafe.Visible(s.Name))
			st := row.Objects[1].(*widget.Label)
			st.Importance = mcpStateImportance(s.State)
			st.SetText(mcpStateText(s.State))
			row.Refresh()
		})
	w.list.OnSelected = func(i widget.ListItemID) { w.selected = i; w.showSelected() }
	w.restart = widget.NewButtonWithIcon(i18n.T("Restart"), theme.ViewRefreshIcon(), w.restartSelected)
	w.restart.Disable()
	top := container.NewHBox(widget.NewLabel(i18n.T("Servers from mcp.json and plugin packages")), layout.NewSpacer())
	if w.editor() != nil {
		top.Add(widget.NewButtonWithIcon(i18n.T("Add…"), theme.ContentAddIcon(), func() { w.showEdit(nil) }))
		top.Add(widget.NewButtonWithIcon(i18n.T("Import…"), theme.FolderOpenIcon(), w.showImport))
	}
	top.Add(w.restart)
	split := container.NewHSplit(w.list, container.NewVScroll(container.NewPadded(w.details)))
	split.Offset = 0.3
	w.win.SetContent(container.NewBorder(container.NewVBox(top, widget.NewSeparator()), nil, nil, nil, split))
	Secondary(w.win, fyne.NewSize(860, 560), nil)
	stop := src.Watch(func() { b.Post(w.reload) })
	w.win.SetOnClosed(func() {
		stop()
		onClosed()
	})
	w.reload()
	if len(w.servers) > 0 {
		w.list.Select(0)
	}
	w.win.Show()
	return w
}

// Window is the servers window.
func (w *MCPServers) Window() fyne.Window { return w.win }

// Raise brings the window to the front.
func (w *MCPServers) Raise() { w.win.RequestFocus() }

// SelectServer shows the named server's details, reporting whether it is
// listed (UI goroutine).
func (w *MCPServers) SelectServer(name string) bool {
	for i, s := range w.servers {
		if s.Name == name {
			// The list does not call OnSelected for the row it already
			// has selected (a reload may have cleared the details).
			w.list.Select(i)
			w.selected = i
			w.showSelected()
			return true
		}
	}
	return false
}

// reload reads the servers again, keeping the selection by name (UI
// goroutine).
func (w *MCPServers) reload() {
	name := ""
	if w.selected >= 0 && w.selected < len(w.servers) {
		name = w.servers[w.selected].Name
	}
	w.servers = w.src.Servers()
	w.list.Refresh()
	for i, s := range w.servers {
		if s.Name == name {
			w.selected = i
			w.showSelected()
			return
		}
	}
	w.selected = -1
	w.list.UnselectAll() // else a click on the row that was selected does nothing
	w.showSelected()
}

// showSelected fills the details of the selected server (UI goroutine).
func (w *MCPServers) showSelected() {
	w.details.RemoveAll()
	if w.selected < 0 || w.selected >= len(w.servers) {
		w.restart.Disable()
		w.details.Add(widget.NewLabel(i18n.T("No MCP servers: add one here or with reasonix-desktop mcp add, import them\nfrom a Claude Desktop config or a .mcp.json, or install a plugin that brings one.")))
		return
	}
	s := w.servers[w.selected]
	w.restart.Enable()
	title := widget.NewLabel(termsafe.Visible(s.Name))
	title.TextStyle.Bold = true
	w.details.Add(title)
	state := mcpStateText(s.State)
	if s.Entry != nil && s.Entry.Disabled && s.State != "ready" && s.State != "starting" {
		state = i18n.T("off") // kept in mcp.json, not started: not a failure
	}
	w.details.Add(widget.NewLabel(i18n.T("%s · %s · from %s", state, s.Transport, termsafe.Visible(s.Source))))
	w.details.Add(w.editButtons(s))
	if s.Err != "" {
		e := widget.NewLabel(termsafe.Visible(s.Err))
		e.Wrapping, e.Importance = fyne.TextWrapWord, widget.DangerImportance
		w.details.Add(e)
	}
	if len(s.Tools) > 0 {
		w.details.Add(heading(i18n.T("Tools (%d) — unchecked ones are not offered to the model", len(s.Tools))))
	}
	for _, t := range s.Tools {
		w.details.Add(w.toolCheck(t))
	}
	if len(s.Stderr) > 0 {
		w.details.Add(heading(i18n.T("stderr (last lines)")))
		tail := widget.NewLabel(termsafe.Visible(strings.Join(s.Stderr, "\n")))
		tail.TextStyle.Monospace, tail.Wrapping = true, fyne.TextWrapWord
		w.details.Add(tail)
	}
	w.details.Refresh()
}

func (w *MCPServers) toolCheck(t MCPTool) fyne.CanvasObject {
	label := termsafe.Visible(t.Name)
	switch {
	case t.ReadOnly && t.HintsTrusted:
		label += "  " + i18n.T("(read-only: runs without asking)")
	case t.ReadOnly:
		label += "  " + i18n.T("(says read-only; asked: its server's hints are not trusted)")
	case t.Destructive:
		label += "  " + i18n.T("(may change things: asked every time)")
	}
	name := t.Name
	check := widget.NewCheck(label, nil)
	check.SetChecked(t.Enabled)
	check.OnChanged = func(on bool) {
		go func() { // a file write: never on the UI goroutine
			if err := w.src.SetToolEnabled(name, on); err != nil && w.errs != nil {
				w.b.Post(func() { w.errs(err) })
			}
		}()
	}
	desc := widget.NewLabel(termsafe.Visible(firstLineOf(t.Description)))
	desc.Wrapping, desc.Importance = fyne.TextWrapWord, widget.LowImportance
	return container.NewVBox(check, desc)
}

func (w *MCPServers) restartSelected() {
	if w.selected < 0 || w.selected >= len(w.servers) {
		return
	}
	name := w.servers[w.selected].Name
	go func() {
		if err := w.src.Restart(name); err != nil && w.errs != nil {
			w.b.Post(func() { w.errs(err) })
		}
	}()
}

func firstLineOf(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

func mcpStateImportance(state string) widget.Importance {
	switch state {
	case "ready":
		return widget.SuccessImportance
	case "failed":
		return widget.DangerImportance
	case "starting":
		return widget.WarningImportance
	}
	return widget.MediumImportance
}

// MCPOpener is a host that can open the MCP servers window (UI goroutine).
type MCPOpener interface{ ShowMCPServers() }

// MCPServersButton is the "MCP servers…" button of Settings and the plugin
// manager: it opens the servers window when host is an MCPOpener, and is
// an empty box otherwise.
func MCPServersButton(host any) fyne.CanvasObject {
	o, ok := host.(MCPOpener)
	if !ok {
		return container.NewHBox()
	}
	return container.NewHBox(widget.NewButtonWithIcon(i18n.T("MCP servers…"), theme.ComputerIcon(), o.ShowMCPServers))
}

// mcpStateText is a server's state (the MCP manager's English word) as
// the window shows it.
func mcpStateText(state string) string {
	switch state {
	case "ready":
		return i18n.T("ready")
	case "failed":
		return i18n.T("failed")
	case "starting":
		return i18n.T("starting")
	case "stopped":
		return i18n.T("stopped")
	}
	return state
}
