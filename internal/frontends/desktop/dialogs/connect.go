package dialogs

import (
	"context"
	"errors"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// ConnectCore is what "Connect a model" asks the core. Every call is made
// off the UI goroutine and may wait on the network until ctx ends.
type ConnectCore interface {
	// DetectLocal lists the local servers that answer (Ollama, LM Studio).
	DetectLocal(ctx context.Context) []agent.LocalServer
	// TestConnection lists the models of the server at baseURL, or says
	// in words what failed.
	TestConnection(ctx context.Context, baseURL, key string) ([]string, error)
	// Connect saves the connection and restarts the provider (agent's
	// Core.Connect: an empty key keeps the one saved for that address).
	Connect(ctx context.Context, preset, baseURL, key string, models []string) (agent.Connected, error)
	// SavedConnection is the address the bundled provider is set to and
	// where its key is kept ("" for either when none is saved): the
	// dialog says "saved in …" instead of ever showing a key back.
	SavedConnection() (baseURL, keyWhere string)
}

// CoreConnector is ConnectCore over the running core: the probes and the
// test are the core's package functions (they need no core), Connect and
// what is saved are the core's.
type CoreConnector struct{ Core *agent.Core }

// DetectLocal implements ConnectCore.
func (CoreConnector) DetectLocal(ctx context.Context) []agent.LocalServer {
	return agent.DetectLocal(ctx)
}

// TestConnection implements ConnectCore.
func (CoreConnector) TestConnection(ctx context.Context, baseURL, key string) ([]string, error) {
	return agent.TestConnection(ctx, baseURL, key)
}

// Connect implements ConnectCore.
func (c CoreConnector) Connect(ctx context.Context, preset, baseURL, key string, models []string) (agent.Connected, error) {
	if c.Core == nil {
		return agent.Connected{}, errors.New(i18n.T("the app is still starting: try again in a moment"))
	}
	return c.Core.Connect(ctx, preset, baseURL, key, models)
}

// SavedConnection implements ConnectCore.
func (c CoreConnector) SavedConnection() (string, string) {
	if c.Core == nil {
		return "", ""
	}
	return savedConnection(c.Core)
}

// setupsReader is the part of the core that lists provider variables.
type setupsReader interface {
	ProviderSetups() ([]agent.ProviderSetup, error)
	ProviderKeysWhere() string
}

// savedConnection reads the bundled provider's saved address and whether a
// key is saved for it (names and flags only: the key itself is never read
// into the window).
func savedConnection(r setupsReader) (base, where string) {
	list, err := r.ProviderSetups()
	if err != nil {
		return "", ""
	}
	for _, s := range list {
		if s.Plugin != agent.OpenAIProvider {
			continue
		}
		keySaved := false
		for _, v := range s.Vars {
			switch v.Name {
			case "OPENAI_BASE_URL":
				base = v.Value
			case "OPENAI_API_KEY":
				keySaved = v.Saved
			}
		}
		if keySaved {
			where = r.ProviderKeysWhere()
		}
	}
	return base, where
}

// ConnectHost is the window the dialog belongs to. UI goroutine only.
type ConnectHost interface {
	// Async runs fn on another goroutine with a bounded context.
	Async(what string, fn func(ctx context.Context) error)
	Trace(event string)
}

// Connect is the "Connect a model" window: a preset (DeepSeek first; the
// local servers marked when they answer), the server's address, its key,
// Test and Save. UI goroutine only.
type Connect struct {
	win     fyne.Window
	b       *uikit.Bridge
	core    ConnectCore
	host    ConnectHost
	presets []agent.Preset
	found   map[string]agent.LocalServer // by preset id

	preset *widget.Select
	base   *WindowEntry
	key    *WindowEntry
	keyURL *widget.Hyperlink
	status *widget.Label
	test   *widget.Button
	save   *widget.Button
	later  *widget.Button

	savedBase, savedWhere string
	// seq drops the answer of a test or save that a newer one replaced.
	seq int
	// OnConnected runs after a successful save (UI goroutine); OnLater
	// when the window closes (Later, Esc, its close box) with nothing
	// saved: a first start remembers the user said not now.
	OnConnected func(agent.Connected)
	OnLater     func()
	saved       bool
	// onClosed tells the window that opened it (Settings keeps one).
	onClosed func()
}

// connectSize fits a 900×600 screen with room for its panels.
var connectSize = fyne.NewSize(620, 470)

// ShowConnect opens "Connect a model" in a window of app (UI goroutine).
// firstStart words the close button "Later" (the echo model stays).
func ShowConnect(app fyne.App, b *uikit.Bridge, core ConnectCore, host ConnectHost, firstStart bool) *Connect {
	c := &Connect{win: app.NewWindow(i18n.T("Connect a model")), b: b, core: core, host: host,
		presets: agent.Presets(), found: map[string]agent.LocalServer{}}
	c.preset = widget.NewSelect(nil, func(string) { c.presetChanged() })
	c.base = NewWindowEntry(c.win)
	c.base.OnChanged = func(string) { c.syncKeyHint() }
	c.key = NewWindowEntry(c.win)
	c.key.Password = true // typed keys are never shown, saved ones never read back
	c.key.OnSubmitted = func(string) { c.runTest() }
	c.keyURL = widget.NewHyperlink("", nil)
	c.keyURL.Hide()
	c.status = widget.NewLabel("")
	c.status.Wrapping = fyne.TextWrapWord
	c.test = widget.NewButtonWithIcon(i18n.T("Test"), theme.SearchIcon(), c.runTest)
	c.save = widget.NewButtonWithIcon(i18n.T("Save"), theme.DocumentSaveIcon(), c.runSave)
	c.save.Importance = widget.HighImportance
	closeText := i18n.T("Close")
	if firstStart {
		closeText = i18n.T("Later")
	}
	c.later = widget.NewButton(closeText, func() { c.win.Close() })
	c.win.SetOnClosed(func() {
		if !c.saved && c.OnLater != nil {
			c.OnLater()
		}
		if c.onClosed != nil {
			c.onClosed()
		}
	})
	c.setOptions()
	c.preset.SetSelectedIndex(0) // DeepSeek
	intro := hint(i18n.T("Pick who serves the model, paste its API key (a local server needs none), Test, then Save: its models appear in the model menu."))
	form := widget.NewForm(
		widget.NewFormItem(i18n.T("Provider"), c.preset),
		widget.NewFormItem(i18n.T("Base URL"), c.base),
		widget.NewFormItem(i18n.T("API key"), container.NewVBox(c.key, c.keyURL)),
	)
	buttons := container.NewHBox(c.test, layout.NewSpacer(), c.later, c.save)
	c.win.SetContent(container.NewBorder(container.NewVBox(intro, form), buttons, nil, nil,
		container.NewVScroll(container.NewPadded(c.status))))
	Secondary(c.win, connectSize, nil)
	c.win.Show()
	c.win.Canvas().Focus(c.key)
	c.load()
	return c
}

// Window is the dialog's window.
func (c *Connect) Window() fyne.Window { return c.win }

// load asks, off the UI goroutine, which local servers answer and what is
// saved, then marks the presets found.
func (c *Connect) load() {
	c.host.Async("find local model servers", func(ctx context.Context) error {
		local := c.core.DetectLocal(ctx)
		base, where := c.core.SavedConnection()
		c.b.Post(func() {
			for _, l := range local {
				c.found[l.Preset] = l
			}
			c.savedBase, c.savedWhere = base, where
			c.setOptions()
			c.syncKeyHint()
			c.host.Trace("connect presets " + strings.Join(c.foundIDs(), " "))
		})
		return nil
	})
}

func (c *Connect) foundIDs() []string {
	var ids []string
	for _, p := range c.presets {
		if _, ok := c.found[p.ID]; ok {
			ids = append(ids, p.ID)
		}
	}
	return ids
}

// presetLabel names a preset in the list: its name, "found on this
// computer" for a local server that answered, "custom" in words.
func (c *Connect) presetLabel(p agent.Preset) string {
	name := p.Name
	if p.ID == "custom" {
		name = i18n.T("Custom (OpenAI-compatible URL)")
	}
	if l, ok := c.found[p.ID]; ok {
		return i18n.N("%s — found on this computer (%d model)", "%s — found on this computer (%d models)", len(l.Models), name, len(l.Models))
	}
	if p.LocalPort != 0 {
		return i18n.T("%s (on this computer)", name)
	}
	return name
}

// setOptions labels the presets again, keeping the selection.
func (c *Connect) setOptions() {
	i := c.preset.SelectedIndex()
	labels := make([]string, len(c.presets))
	for j, p := range c.presets {
		labels[j] = c.presetLabel(p)
	}
	c.preset.SetOptions(labels)
	if i >= 0 && i < len(labels) && c.preset.Selected != labels[i] {
		c.preset.Selected = labels[i] // no OnChanged: the address typed stays
		c.preset.Refresh()
	}
}

// current is the selected preset.
func (c *Connect) current() agent.Preset {
	if i := c.preset.SelectedIndex(); i >= 0 && i < len(c.presets) {
		return c.presets[i]
	}
	return c.presets[0]
}

// SelectPreset selects the preset with id (tests, the first start).
func (c *Connect) SelectPreset(id string) bool {
	for i, p := range c.presets {
		if p.ID == id {
			c.preset.SetSelectedIndex(i)
			return true
		}
	}
	return false
}

// presetChanged fills the address of the preset picked (a local server
// found at another address keeps that one) and says what the key needs.
func (c *Connect) presetChanged() {
	p := c.current()
	base := p.BaseURL
	if l, ok := c.found[p.ID]; ok && l.BaseURL != "" {
		base = l.BaseURL
	}
	c.base.SetText(base)
	c.key.SetText("")
	c.status.SetText("")
	c.status.Importance = widget.MediumImportance
	c.seq++ // a test still running for the old preset is not shown
	c.busy(false)
	c.syncKeyHint()
}

// syncKeyHint says what the key field wants: not needed for a local
// server, "saved in …" when a key is saved for this address (left empty
// it is kept), else where the vendor hands keys out.
func (c *Connect) syncKeyHint() {
	p := c.current()
	base := strings.TrimRight(strings.TrimSpace(c.base.Text), "/")
	switch {
	case c.keySavedFor(base):
		c.key.SetPlaceHolder(i18n.T("A key is %s: leave empty to keep it", whereText(c.savedWhere)))
	case p.LocalPort != 0:
		c.key.SetPlaceHolder(i18n.T("Not needed for a local server"))
	case !p.KeyNeeded:
		c.key.SetPlaceHolder(i18n.T("Optional: the key, if the server asks for one"))
	default:
		c.key.SetPlaceHolder(i18n.T("Paste the API key"))
	}
	if u, err := url.Parse(p.KeyURL); err == nil && p.KeyURL != "" {
		c.keyURL.SetText(i18n.T("Get a key from %s", p.Name))
		c.keyURL.SetURL(u)
		c.keyURL.Show()
	} else {
		c.keyURL.Hide()
	}
}

// keySavedFor reports whether a key is saved for the address base.
func (c *Connect) keySavedFor(base string) bool {
	base = strings.TrimRight(strings.TrimSpace(base), "/")
	return c.savedWhere != "" && base != "" && base == strings.TrimRight(c.savedBase, "/")
}

// say shows a status line in its importance.
func (c *Connect) say(text string, imp widget.Importance) {
	c.status.Importance = imp
	c.status.SetText(text)
}

// busy disables the buttons while a test or save runs.
func (c *Connect) busy(on bool) {
	for _, b := range []*widget.Button{c.test, c.save} {
		if on {
			b.Disable()
		} else {
			b.Enable()
		}
	}
}

// runTest lists the server's models off the UI goroutine and says how
// many it found, or what failed, in words.
func (c *Connect) runTest() {
	base, key := strings.TrimSpace(c.base.Text), strings.TrimSpace(c.key.Text)
	if base == "" {
		c.say(i18n.T("Enter the server's base URL first."), widget.WarningImportance)
		return
	}
	c.seq++
	seq := c.seq
	c.busy(true)
	c.say(i18n.T("Asking %s for its models…", base), widget.MediumImportance)
	c.host.Async("test the connection", func(ctx context.Context) error {
		models, err := c.core.TestConnection(ctx, base, key)
		c.b.Post(func() {
			if seq != c.seq {
				return
			}
			c.busy(false)
			if err != nil {
				msg := i18n.T("The test failed: %s", failureText(redact.String(err.Error())))
				if key == "" && c.keySavedFor(base) {
					// The saved key never comes back to the window, so
					// Test cannot send it; Save keeps it.
					msg += "\n" + i18n.T("Test sends only a key typed here: paste the key to test it (Save keeps the saved one).")
				}
				c.say(msg, widget.DangerImportance)
				c.host.Trace("connect test failed")
				return
			}
			c.say(modelsFound(models), widget.SuccessImportance)
			c.host.Trace("connect test " + strconv.Itoa(len(models)))
		})
		return nil
	})
}

// modelsFound is "3 models found: a, b, c" (the first few named).
func modelsFound(models []string) string {
	const shown = 8
	names := models
	more := ""
	if len(names) > shown {
		names = names[:shown]
		more = " " + i18n.N("and %d more", "and %d more", len(models)-shown, len(models)-shown)
	}
	if len(models) == 0 {
		return i18n.T("The server answered but lists no models.")
	}
	return i18n.N("%d model found: %s", "%d models found: %s", len(models), len(models), redact.String(strings.Join(names, ", "))+more)
}

// runSave saves the connection through the core (which restarts the
// provider, so the model menu lists its models) and says where the key is.
func (c *Connect) runSave() {
	p := c.current()
	base, key := strings.TrimSpace(c.base.Text), strings.TrimSpace(c.key.Text)
	c.seq++
	seq := c.seq
	c.busy(true)
	c.say(i18n.T("Saving and restarting the provider…"), widget.MediumImportance)
	c.host.Async("connect "+p.ID, func(ctx context.Context) error {
		out, err := c.core.Connect(ctx, p.ID, base, key, nil)
		c.b.Post(func() {
			if seq != c.seq {
				return
			}
			c.busy(false)
			switch {
			case err != nil && !errors.Is(err, agent.ErrSavedNotRestarted):
				c.say(i18n.T("Not saved: %s", failureText(redact.String(err.Error()))), widget.DangerImportance)
				c.host.Trace("connect failed")
				return
			case err != nil:
				c.say(i18n.T("Saved. The provider restarts with it when the reply under way ends (or at the next start)."), widget.WarningImportance)
			default:
				c.say(connectedText(p, out), widget.SuccessImportance)
			}
			c.saved = true
			c.key.SetText("")
			c.savedBase, c.savedWhere = base, out.Where
			c.syncKeyHint()
			c.host.Trace("connect saved " + p.ID)
			if c.OnConnected != nil {
				c.OnConnected(out)
			}
		})
		return nil
	})
}

// connectedText says what Save did: where the key is, and that the model
// menu lists the server's models.
func connectedText(p agent.Preset, out agent.Connected) string {
	name := p.Name
	if p.ID == "custom" {
		name = i18n.T("the server")
	}
	s := i18n.T("Connected to %s: its models are in the model menu.", name)
	if out.Where != "" {
		s += " " + i18n.T("The key is %s.", whereText(out.Where))
	}
	if out.Linked {
		s += " " + i18n.T("The bundled OpenAI-compatible provider was installed for it.")
	}
	return s
}

// whereText is the secrets store's "saved in …" (English, the core's) in
// the user's language: the two places it names.
func whereText(where string) string {
	if where == "saved in the system keyring" {
		return i18n.T("saved in the system keyring")
	}
	if f, ok := strings.CutPrefix(where, "saved in a private file ("); ok {
		if f, ok := strings.CutSuffix(f, ", readable only by you)"); ok {
			return i18n.T("saved in a private file (%s, readable only by you)", f)
		}
	}
	return where
}

// The core's connection failures it words the same way each time, as
// formats over the one thing that varies (a host, a path): said in the
// user's language here. Any other text (a new wording, a server's own
// message) is shown as the core wrote it.
var connectFailures = []struct {
	re  *regexp.Regexp
	msg string // the catalog key, a format over re's groups
}{
	{regexp.MustCompile(`^the key was refused \(401\)$`), i18n.M("the key was refused (401)")},
	{regexp.MustCompile(`^the server wants an API key \(401\)$`), i18n.M("the server wants an API key (401)")},
	{regexp.MustCompile(`^the key is not allowed to do this \(403\)$`), i18n.M("the key is not allowed to do this (403)")},
	{regexp.MustCompile(`^the account has no balance left \(402\)$`), i18n.M("the account has no balance left (402)")},
	{regexp.MustCompile(`^the server is rate-limiting this key \(429\); try again in a moment$`), i18n.M("the server is rate-limiting this key (429); try again in a moment")},
	{regexp.MustCompile(`^cannot find host (\S+) \(check the address and the network\)$`), i18n.M("cannot find host %s (check the address and the network)")},
	{regexp.MustCompile(`^nothing answers at (\S+) \(is the server running\?\)$`), i18n.M("nothing answers at %s (is the server running?)")},
	{regexp.MustCompile(`^(\S+) did not answer in time$`), i18n.M("%s did not answer in time")},
	{regexp.MustCompile(`^the secure connection to (\S+) failed: its certificate is not trusted$`), i18n.M("the secure connection to %s failed: its certificate is not trusted")},
	{regexp.MustCompile(`^(\S+) has nothing at (\S+) \(404\): is the address right\? Most OpenAI-compatible servers end in /v1$`), i18n.M("%s has nothing at %s (404): is the address right? Most OpenAI-compatible servers end in /v1")},
	{regexp.MustCompile(`^(\S+) did not answer like an OpenAI-compatible server \(no model list at (\S+)\)$`), i18n.M("%s did not answer like an OpenAI-compatible server (no model list at %s)")},
	{regexp.MustCompile(`^(.+) needs an API key$`), i18n.M("%s needs an API key")},
	{regexp.MustCompile(`^the key contains blanks: paste it again$`), i18n.M("the key contains blanks: paste it again")},
}

// failureText is a connection failure in the user's language when the
// core worded it one of its usual ways.
func failureText(msg string) string {
	for _, f := range connectFailures {
		if m := f.re.FindStringSubmatch(msg); m != nil {
			args := make([]any, len(m)-1)
			for i, g := range m[1:] {
				args[i] = g
			}
			return i18n.T(f.msg, args...)
		}
	}
	return msg
}
