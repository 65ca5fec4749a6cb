package dialogs

import (
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// editSource is a source with an editor that records what the window asked.
type editSource struct {
	mu       sync.Mutex
	servers  []MCPServer
	imported []string
	preview  MCPImportPreview
}

func (s *editSource) Servers() []MCPServer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.servers
}
func (*editSource) SetToolEnabled(string, bool) error   { return nil }
func (*editSource) Restart(string) error                { return nil }
func (*editSource) Watch(func()) func()                 { return func() {} }
func (*editSource) SaveServer(MCPEntry, string) error   { return nil }
func (*editSource) RemoveServer(string) error           { return nil }
func (*editSource) SetServerEnabled(string, bool) error { return nil }
func (s *editSource) PreviewImport(string) (MCPImportPreview, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.preview, nil
}
func (s *editSource) Import(path string) (MCPImportPreview, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.imported = append(s.imported, path)
	return s.preview, nil
}

func (s *editSource) imports() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.imported...)
}

func topDialog[T fyne.CanvasObject](w fyne.Window) []T {
	var out []T
	if top := w.Canvas().Overlays().Top(); top != nil {
		for _, o := range test.LaidOutObjects(top) {
			if v, ok := o.(T); ok && v.Visible() {
				out = append(out, v)
			}
		}
	}
	return out
}

// An import shows its preview (what is added, the names that clash) and
// imports only when the user confirms; a file with nothing to add is only
// reported, with no Import button.
func TestMCPImportShowsAPreviewFirst(t *testing.T) {
	a := test.NewTempApp(t)
	b := uikit.NewBridge()
	t.Cleanup(b.Stop)
	src := &editSource{preview: MCPImportPreview{Adds: 1,
		Summary: "will be added:\n  weather (stdio) uvx weather\nleft out, the name is already in your mcp.json (yours is kept):\n  fs (stdio) npx"}}
	var w *MCPServers
	b.OnUI(func() {
		w = ShowMCPServers(a, b, src, func(err error) { t.Errorf("shown error: %v", err) }, func() {})
		w.Window().Resize(fyne.NewSize(900, 700))
	})
	summary := func() string {
		var text string
		b.OnUI(func() {
			for _, l := range topDialog[*widget.Label](w.Window()) {
				text += l.Text
			}
		})
		return text
	}
	tap := func(text string) bool {
		tapped := false
		b.OnUI(func() {
			for _, bt := range topDialog[*widget.Button](w.Window()) {
				if bt.Text == text && !tapped {
					test.Tap(bt)
					tapped = true
				}
			}
		})
		return tapped
	}
	b.OnUI(func() { w.previewImport("/x/claude_desktop_config.json") })
	testutil.Eventually(t, "the preview", func() bool { return strings.Contains(summary(), "weather (stdio) uvx weather") })
	if !strings.Contains(summary(), "already in your mcp.json") {
		t.Errorf("the preview does not say the clash: %q", summary())
	}
	if len(src.imports()) != 0 {
		t.Fatal("imported before the user confirmed")
	}
	if !tap("Cancel") {
		t.Fatal("no Cancel")
	}
	if len(src.imports()) != 0 {
		t.Fatal("imported after Cancel")
	}
	b.OnUI(func() { w.previewImport("/x/claude_desktop_config.json") })
	testutil.Eventually(t, "the preview again", func() bool { return strings.Contains(summary(), "weather") })
	if !tap("Import") {
		t.Fatal("no Import button")
	}
	testutil.Eventually(t, "the import", func() bool { return len(src.imports()) == 1 })

	src.mu.Lock()
	src.preview = MCPImportPreview{Summary: "nothing to add from /x/.mcp.json"}
	src.mu.Unlock()
	b.OnUI(func() { w.previewImport("/x/.mcp.json") })
	testutil.Eventually(t, "the empty preview", func() bool { return strings.Contains(summary(), "nothing to add") })
	if tap("Import") {
		t.Error("an Import button for nothing to add")
	}
}

// The form reads what the transport uses, one argument a line (no quoting
// to get wrong), KEY=value pairs; a form that does not read says why.
func TestMCPEntryForm(t *testing.T) {
	test.NewTempApp(t)
	f := newEntryForm(nil)
	f.name.SetText(" fs ")
	f.command.SetText("npx")
	f.args.SetText("-y\n@modelcontextprotocol/server-filesystem\n/home/me/My Notes\n")
	f.env.SetText("A=1\nB=x=y")
	f.url.SetText("https://stale.example") // not a stdio server's
	e, err := f.entry()
	if err != nil {
		t.Fatal(err)
	}
	if e.Name != "fs" || e.Type != "stdio" || len(e.Command) != 4 || e.Command[3] != "/home/me/My Notes" ||
		e.Env["B"] != "x=y" || e.URL != "" || e.Disabled {
		t.Errorf("entry %+v", e)
	}
	f.typ.SetSelected("http")
	f.headers.SetText("Authorization=Bearer t")
	f.enabled.SetChecked(false)
	if e, err = f.entry(); err != nil || e.URL != "https://stale.example" || e.Command != nil || e.Headers["Authorization"] != "Bearer t" || !e.Disabled {
		t.Errorf("http entry %+v %v", e, err)
	}
	f.headers.SetText("no equals sign")
	if _, err := f.entry(); err == nil || !strings.Contains(err.Error(), `"no equals sign" is not NAME=value`) {
		t.Errorf("bad header: %v", err)
	}
	// An edit starts from the entry.
	g := newEntryForm(&MCPEntry{Name: "r", URL: "https://r.example", Headers: map[string]string{"X": "1"}, Disabled: true})
	if g.typ.Selected != "http" || g.url.Text != "https://r.example" || g.headers.Text != "X=1" || g.enabled.Checked {
		t.Errorf("edit form %q %q %q %v", g.typ.Selected, g.url.Text, g.headers.Text, g.enabled.Checked)
	}
}

// signInSource is a source that signs in, recording which server it was
// asked to.
type signInSource struct {
	editSource
	signedIn chan string
}

func (s *signInSource) SignIn(name string) error { s.signedIn <- name; return nil }
func (*signInSource) SignOut(string) error       { return nil }

// A remote server has Sign in and Sign out; a stdio server has neither
// (there is nothing to sign in to); Sign in asks the source for that server.
func TestMCPRemoteServerHasSignIn(t *testing.T) {
	a := test.NewTempApp(t)
	b := uikit.NewBridge()
	t.Cleanup(b.Stop)
	src := &signInSource{signedIn: make(chan string, 1), editSource: editSource{servers: []MCPServer{
		{Name: "local", Transport: "stdio", State: "ready", Entry: &MCPEntry{Name: "local", Command: []string{"x"}}},
		{Name: "remote", Transport: "http", State: "failed", Err: "MCP server remote needs you to sign in",
			Entry: &MCPEntry{Name: "remote", Type: "http", URL: "https://r.example/mcp"}}}}}
	var w *MCPServers
	b.OnUI(func() { w = ShowMCPServers(a, b, src, func(err error) { t.Errorf("shown error: %v", err) }, func() {}) })
	buttons := func(name string) map[string]*widget.Button {
		out := map[string]*widget.Button{}
		b.OnUI(func() {
			w.SelectServer(name)
			for _, o := range test.LaidOutObjects(w.Window().Content()) {
				if bt, ok := o.(*widget.Button); ok && bt.Visible() {
					out[bt.Text] = bt
				}
			}
		})
		return out
	}
	if bs := buttons("local"); bs["Sign in"] != nil || bs["Sign out"] != nil || bs["Edit…"] == nil {
		t.Errorf("a stdio server's buttons: %v", bs)
	}
	bs := buttons("remote")
	if bs["Sign in"] == nil || bs["Sign out"] == nil {
		t.Fatalf("a remote server's buttons: %v", bs)
	}
	b.OnUI(func() { test.Tap(bs["Sign in"]) })
	if got := <-src.signedIn; got != "remote" {
		t.Errorf("signed in to %q", got)
	}
}
