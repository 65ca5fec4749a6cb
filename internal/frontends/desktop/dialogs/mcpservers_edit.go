package dialogs

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/termsafe"
)

// The servers window's edits: add, edit, remove, turn on or off the user's
// own servers (mcp.json), and import a Claude Desktop config or .mcp.json
// after a preview. A plugin package's server is shown, not edited: it
// changes with its plugin.

// MCPEntry is one of the user's servers as the edit form shows it.
type MCPEntry struct {
	Name    string
	Type    string   // stdio, http or sse
	Command []string // a stdio server's program and arguments
	URL     string   // a remote server's
	Env     map[string]string
	Headers map[string]string
	// TrustHints lets the server's read-only claims skip approval.
	TrustHints bool
	// Disabled keeps it in mcp.json without starting it.
	Disabled bool
}

// MCPImportPreview is what an import does, in lines for the user, and how
// many servers it adds.
type MCPImportPreview struct {
	Summary string
	Adds    int
}

// MCPEditor is a source whose user servers the window may change. A source
// without it is shown read-only. Every method writes mcp.json (a small
// file) and makes the running chat follow it; the window calls them off
// the UI goroutine and learns of the result through Watch.
type MCPEditor interface {
	// SaveServer adds or replaces a server; was is the name it had when
	// the user renamed it ("" for a new one).
	SaveServer(e MCPEntry, was string) error
	RemoveServer(name string) error
	SetServerEnabled(name string, enabled bool) error
	// PreviewImport says what importing the file would do, changing nothing.
	PreviewImport(path string) (MCPImportPreview, error)
	// Import adds the file's servers whose names are free.
	Import(path string) (MCPImportPreview, error)
}

// MCPSignIn is a source that signs in to remote servers (OAuth). SignIn
// opens the browser and returns once the user finished there (or the
// sign-in timed out); both start the server again.
type MCPSignIn interface {
	SignIn(name string) error
	SignOut(name string) error
}

// signInButtons are a remote server's Sign in and Sign out.
func (w *MCPServers) signInButtons(s MCPServer) []fyne.CanvasObject {
	si, ok := w.src.(MCPSignIn)
	if !ok || s.Transport == "stdio" || s.Transport == "" {
		return nil
	}
	name := s.Name
	in := widget.NewButtonWithIcon(i18n.T("Sign in"), theme.LoginIcon(), func() {
		go func() {
			err := si.SignIn(name)
			w.b.Post(func() {
				if err != nil {
					if w.errs != nil {
						w.errs(err)
					}
					return
				}
				// Our words on its button: Fyne's own follow the language
				// the app started in, not a change made since.
				info := dialog.NewInformation(i18n.T("MCP servers"), i18n.T("Signed in to %s.", termsafe.Visible(name)), w.win)
				info.SetDismissText(i18n.T("OK"))
				info.Show()
			})
		}()
	})
	out := widget.NewButtonWithIcon(i18n.T("Sign out"), theme.LogoutIcon(), func() {
		w.background(func() error { return si.SignOut(name) })
	})
	return []fyne.CanvasObject{in, out}
}

// editor is the source's MCPEditor, nil when it has none.
func (w *MCPServers) editor() MCPEditor {
	ed, _ := w.src.(MCPEditor)
	return ed
}

// background runs a source call off the UI goroutine and shows its error.
func (w *MCPServers) background(call func() error) {
	go func() {
		if err := call(); err != nil && w.errs != nil {
			w.b.Post(func() { w.errs(err) })
		}
		w.b.Post(w.reload) // Watch says so too; an unchanged state would not
	}()
}

// editButtons are the selected server's Edit, Remove and "starts with the
// chat" controls, or a line saying why there are none.
func (w *MCPServers) editButtons(s MCPServer) fyne.CanvasObject {
	ed := w.editor()
	signIn := w.signInButtons(s)
	if ed == nil {
		return container.NewHBox(signIn...)
	}
	if s.Entry == nil {
		return container.NewHBox(append([]fyne.CanvasObject{
			widget.NewLabel(i18n.T("From %s: it changes with its plugin.", termsafe.Visible(s.Source)))}, signIn...)...)
	}
	entry, name := *s.Entry, s.Name
	on := widget.NewCheck(i18n.T("Starts with the chat"), nil)
	on.SetChecked(s.Enabled)
	on.OnChanged = func(v bool) { w.background(func() error { return ed.SetServerEnabled(name, v) }) }
	edit := widget.NewButtonWithIcon(i18n.T("Edit…"), theme.DocumentCreateIcon(), func() { w.showEdit(&entry) })
	remove := widget.NewButtonWithIcon(i18n.T("Remove"), theme.DeleteIcon(), func() {
		ask := dialog.NewConfirm(i18n.T("Remove MCP server"), i18n.T("Remove %s from mcp.json? The chat stops it.", termsafe.Visible(name)),
			func(ok bool) {
				if ok {
					w.background(func() error { return ed.RemoveServer(name) })
				}
			}, w.win)
		ask.SetConfirmText(i18n.T("Remove"))
		ask.SetDismissText(i18n.T("Cancel"))
		ask.Show()
	})
	return container.NewHBox(append([]fyne.CanvasObject{on, edit, remove}, signIn...)...)
}

// entryForm is the add/edit form's fields.
type entryForm struct {
	name, command, url *widget.Entry
	args, env, headers *widget.Entry // one item a line
	typ                *widget.Select
	trust, enabled     *widget.Check
	form               *widget.Form
}

func newEntryForm(e *MCPEntry) *entryForm {
	f := &entryForm{name: widget.NewEntry(), command: widget.NewEntry(), url: widget.NewEntry(),
		args: widget.NewMultiLineEntry(), env: widget.NewMultiLineEntry(), headers: widget.NewMultiLineEntry(),
		typ:   widget.NewSelect([]string{"stdio", "http", "sse"}, nil),
		trust: widget.NewCheck(i18n.T("Trust its read-only claims (they skip approval)"), nil), enabled: widget.NewCheck(i18n.T("Starts with the chat"), nil)}
	f.typ.SetSelected("stdio")
	f.enabled.SetChecked(true)
	f.command.SetPlaceHolder("npx")                                                      // i18n:keep
	f.args.SetPlaceHolder("-y\n@modelcontextprotocol/server-filesystem\n/home/me/notes") // i18n:keep
	f.url.SetPlaceHolder("https://example.com/mcp")                                      // i18n:keep
	f.env.SetPlaceHolder("KEY=value")                                                    // i18n:keep
	f.headers.SetPlaceHolder("Authorization=Bearer …")                                   // i18n:keep
	for _, m := range []*widget.Entry{f.args, f.env, f.headers} {
		m.SetMinRowsVisible(3)
	}
	if e != nil {
		f.name.SetText(e.Name)
		if e.Type != "" {
			f.typ.SetSelected(e.Type)
		} else if len(e.Command) == 0 && e.URL != "" {
			f.typ.SetSelected("http")
		}
		if len(e.Command) > 0 {
			f.command.SetText(e.Command[0])
			f.args.SetText(strings.Join(e.Command[1:], "\n"))
		}
		f.url.SetText(e.URL)
		f.env.SetText(pairLines(e.Env))
		f.headers.SetText(pairLines(e.Headers))
		f.trust.SetChecked(e.TrustHints)
		f.enabled.SetChecked(!e.Disabled)
	}
	f.form = widget.NewForm(
		widget.NewFormItem(i18n.T("Name"), f.name),
		widget.NewFormItem(i18n.T("Transport"), f.typ),
		&widget.FormItem{Text: i18n.T("Command"), Widget: f.command, HintText: i18n.T("stdio: the program to run")},
		&widget.FormItem{Text: i18n.T("Arguments"), Widget: f.args, HintText: i18n.T("stdio: one argument a line, no quoting")},
		&widget.FormItem{Text: i18n.T("Environment"), Widget: f.env, HintText: i18n.T("stdio: KEY=value, one a line")},
		&widget.FormItem{Text: "URL", Widget: f.url, HintText: i18n.T("http and sse: the server's address")}, // i18n:keep
		&widget.FormItem{Text: i18n.T("Headers"), Widget: f.headers, HintText: i18n.T("http and sse: Name=value, one a line")},
		widget.NewFormItem("", f.trust),
		widget.NewFormItem("", f.enabled),
	)
	return f
}

// entry reads the form; what the transport does not use is left out, so
// switching a server from stdio to http does not keep a stale command.
func (f *entryForm) entry() (MCPEntry, error) {
	e := MCPEntry{Name: strings.TrimSpace(f.name.Text), Type: f.typ.Selected, TrustHints: f.trust.Checked, Disabled: !f.enabled.Checked}
	if e.Name == "" {
		return e, errors.New(i18n.T("the server needs a name"))
	}
	var err error
	switch e.Type {
	case "stdio":
		prog := strings.TrimSpace(f.command.Text)
		if prog == "" {
			return e, errors.New(i18n.T("a stdio server needs a command"))
		}
		e.Command = append([]string{prog}, lines(f.args.Text)...)
		if e.Env, err = pairs(i18n.T("environment"), f.env.Text); err != nil {
			return e, err
		}
	default:
		if e.URL = strings.TrimSpace(f.url.Text); e.URL == "" {
			return e, errors.New(i18n.T("a %s server needs a URL", e.Type))
		}
		if e.Headers, err = pairs(i18n.T("headers"), f.headers.Text); err != nil {
			return e, err
		}
	}
	return e, nil
}

func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func pairs(what, s string) (map[string]string, error) {
	out := map[string]string{}
	for _, l := range lines(s) {
		k, v, ok := strings.Cut(l, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, errors.New(i18n.T("%s: %q is not NAME=value", what, l))
		}
		out[strings.TrimSpace(k)] = v
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

func pairLines(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%s\n", k, m[k])
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// showEdit opens the add (e nil) or edit form. A form that does not read
// stays open with the reason, so nothing typed is lost.
func (w *MCPServers) showEdit(e *MCPEntry) {
	ed := w.editor()
	if ed == nil {
		return
	}
	f := newEntryForm(e)
	title, was := i18n.T("Add MCP server"), ""
	if e != nil {
		title, was = i18n.T("Edit MCP server %s", termsafe.Visible(e.Name)), e.Name
	}
	problem := widget.NewLabel("")
	problem.Importance, problem.Wrapping = widget.DangerImportance, fyne.TextWrapWord
	problem.Hide()
	var d dialog.Dialog
	f.form.SubmitText, f.form.CancelText = i18n.T("Save"), i18n.T("Cancel")
	f.form.OnCancel = func() { d.Hide() }
	f.form.OnSubmit = func() {
		entry, err := f.entry()
		if err != nil {
			problem.SetText(err.Error())
			problem.Show()
			return
		}
		d.Hide()
		w.background(func() error { return ed.SaveServer(entry, was) })
	}
	d = dialog.NewCustomWithoutButtons(title, container.NewVBox(f.form, problem), w.win)
	d.Resize(fyne.NewSize(620, 560))
	d.Show()
	w.editing = f
}

// showImport asks for the file to import.
func (w *MCPServers) showImport() {
	open := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		w.previewImport(path)
	}, w.win)
	open.SetFilter(storage.NewExtensionFileFilter([]string{".json"}))
	ShowFileDialog(w.win, open, nil)
}

// previewImport shows what importing path would add, and imports it when
// the user confirms (a file with nothing to add is only reported).
func (w *MCPServers) previewImport(path string) {
	ed := w.editor()
	if ed == nil {
		return
	}
	go func() {
		p, err := ed.PreviewImport(path)
		w.b.Post(func() {
			if err != nil {
				if w.errs != nil {
					w.errs(err)
				}
				return
			}
			text := widget.NewLabel(termsafe.Visible(p.Summary))
			text.Wrapping = fyne.TextWrapWord
			body := container.NewVScroll(text)
			body.SetMinSize(fyne.NewSize(560, 240))
			if p.Adds == 0 {
				dialog.ShowCustom(i18n.T("Import MCP servers"), i18n.T("Close"), body, w.win)
				return
			}
			dialog.ShowCustomConfirm(i18n.T("Import MCP servers"), i18n.T("Import"), i18n.T("Cancel"), body, func(ok bool) {
				if ok {
					w.background(func() error { _, err := ed.Import(path); return err })
				}
			}, w.win)
		})
	}()
}
