package dialogs

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/viewmodel"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
)

// Theme modes as Settings stores them.
const (
	ThemeSystem = "system"
	ThemeLight  = "light"
	ThemeDark   = "dark"
)

// SettingsCore is the core operations Settings runs. They are called off
// the UI goroutine (through SettingsHost.WithCore or Async) and may wait on
// disk or a sidecar until their context ends; safe on any goroutine.
type SettingsCore interface {
	Permissions() agent.Permissions
	RevokeAlways(r agent.Rule) error
	RevokeSession(ctx context.Context, tool string) error
	PluginManifest(name string) (agent.PluginManifest, error)
	// MarketURL and SetMarketURL are the package market Discover searches
	// (saved in the data folder, shared with the CLI).
	MarketURL() (string, error)
	SetMarketURL(u string) error
}

// SettingsHost is the window Settings configures.
//
// Concurrency: every method is called on the UI goroutine. WithCore and
// Async return at once and run fn on another goroutine with a bounded
// context, showing its error to the user; WithCore does not run fn (and
// tells the user) before a core is attached. Core may return nil.
type SettingsHost interface {
	ThemeMode() string
	SetThemeMode(mode string) // saves and applies the mode
	EnterSends() bool
	SetEnterSends(on bool) // the composer and the View menu's check follow
	PickModel(id, effort string)
	Trace(event string)
	Core() SettingsCore
	WithCore(what string, fn func(ctx context.Context, c SettingsCore) error)
	Async(what string, fn func(ctx context.Context) error)
	// SettingsFile is what the last check found about settings.json;
	// OpenSettingsFile opens it with the system's opener; ResetSettingsFile
	// replaces it with the defaults, keeping a backup; CheckSettingsFile
	// reads it again. The outcome of each comes back through
	// Settings.SyncSettingsFile.
	SettingsFile() SettingsFileStatus
	OpenSettingsFile()
	ResetSettingsFile()
	CheckSettingsFile()
	// Notices are Settings' "Notify me when…" (a reply finishes, an
	// approval or question waits, a plugin fails) and "Tray icon";
	// SetNotices saves and applies them.
	Notices() (reply, waiting, failed, tray bool)
	SetNotices(reply, waiting, failed, tray bool)
}

// SettingsFileStatus is what Settings says about settings.json.
type SettingsFileStatus struct {
	Path string
	// Problem is what is wrong with the file ("" when nothing is), with the
	// line and column or the field; Broken, whether the app therefore runs
	// on the default settings.
	Problem string
	Broken  bool
	// Backup is where the last reset kept the old file ("" when none).
	Backup string
}

// Settings is File → Settings…: appearance, the send key, the default
// model, the approvals in force (revocable) and which environment variables
// each plugin reads. Everything it reads from disk or the core is read off
// the UI goroutine.
type Settings struct {
	host  SettingsHost
	b     *uikit.Bridge
	app   fyne.App
	state *viewmodel.State
	win   fyne.Window
	// general is Language and Currency (settings_general.go); connect,
	// the Connect a model window it opened, while open.
	general *generalSection
	connect *Connect
	theme   *widget.RadioGroup
	send    *widget.RadioGroup
	model   *widget.Select
	effort  *widget.Select
	perms   *fyne.Container
	env     *fyne.Container
	revoke  map[string]*widget.Button // by rule or session tool (tests tap them)
	notify  *notifySection
	file    *settingsFileRow
	envGen  int // the latest loadEnv: an older read that ends later is dropped
	// market is the package market's URL; marketNote says what became of
	// the last save.
	market     *WindowEntry
	marketNote *widget.Label
}

// noModels is the default-model field's placeholder when no plugin offers
// a model (a catalog key: shown through i18n.T).
var noModels = i18n.M("No models: install a provider plugin")

// Labels of the send-key choice (catalog keys; the radio shows them
// translated, see sendLabel).
var (
	sendEnter     = i18n.M("Enter sends, Shift+Enter adds a line")
	sendCtrlEnter = i18n.M("Ctrl+Enter sends, Enter adds a line")
)

// themeLabels are the theme modes' labels (catalog keys).
var themeLabels = map[string]string{ThemeSystem: i18n.M("System"), ThemeLight: i18n.M("Light"), ThemeDark: i18n.M("Dark")}

// ShowSettings opens Settings in a window of app; onClosed runs when it
// closes (UI goroutine).
func ShowSettings(app fyne.App, b *uikit.Bridge, state *viewmodel.State, host SettingsHost, onClosed func()) *Settings {
	s := &Settings{host: host, b: b, app: app, state: state, win: app.NewWindow(i18n.T("Settings")), revoke: map[string]*widget.Button{}}
	s.build()
	// Settings' default model follows the picker; the environment, the
	// plugins; the permissions, a finished turn (it may have added one).
	unsub := []func(){
		state.Subscribe(viewmodel.Session|viewmodel.Model|viewmodel.Models, func(viewmodel.Change) { s.syncModels() }),
		state.Subscribe(viewmodel.Plugins, func(viewmodel.Change) { s.loadEnv(state.Plugins()) }),
		state.Subscribe(viewmodel.Busy, func(viewmodel.Change) {
			if !state.Busy() {
				s.loadPermissions()
			}
		}),
	}
	s.win.SetOnClosed(func() {
		for _, f := range unsub {
			f()
		}
		onClosed()
	})
	// At most 720×640, less on a smaller screen (it opened partly below
	// a 900×600 one): the content scrolls.
	Secondary(s.win, fyne.NewSize(720, 640), nil)
	s.load()
	s.win.Show()
	host.CheckSettingsFile()
	return s
}

// load fills what the window reads off the UI goroutine.
func (s *Settings) load() {
	s.loadPermissions()
	s.loadMarket()
	s.loadEnv(s.state.Plugins())
	s.loadGeneral()
	s.SyncSettingsFile(s.host.SettingsFile())
}

// relabel builds the window again in the language now in use (after a
// change of language here): every widget sets its words when built.
func (s *Settings) relabel() {
	s.win.SetTitle(i18n.T("Settings"))
	s.build()
	s.load()
}

// build makes the window's content (UI goroutine).
func (s *Settings) build() {
	d, host, state, app, b := s.host, s.host, s.state, s.app, s.b
	s.perms, s.env = container.NewVBox(), container.NewVBox()
	s.file = newSettingsFileRow(host)
	s.theme = widget.NewRadioGroup([]string{i18n.T(themeLabels[ThemeSystem]), i18n.T(themeLabels[ThemeLight]), i18n.T(themeLabels[ThemeDark])}, func(label string) {
		for mode, l := range themeLabels {
			if i18n.T(l) == label && mode != d.ThemeMode() {
				d.SetThemeMode(mode)
			}
		}
	})
	s.theme.Horizontal = true
	s.theme.SetSelected(i18n.T(themeLabels[d.ThemeMode()]))
	s.send = widget.NewRadioGroup([]string{i18n.T(sendEnter), i18n.T(sendCtrlEnter)}, func(label string) {
		if on := label == i18n.T(sendEnter); label != "" && on != d.EnterSends() {
			d.SetEnterSends(on)
		}
	})
	s.SyncSendKey()
	s.model = widget.NewSelect(nil, func(label string) {
		if id := modelOfLabel(state.Models(), label); id != "" && id != state.Open().Model {
			d.PickModel(id, "")
		}
	})
	s.model.PlaceHolder = i18n.T(noModels)
	s.effort = widget.NewSelect(nil, func(e string) {
		if o := state.Open(); e != "" && e != o.Effort && o.Model != "" {
			d.PickModel(o.Model, e)
		}
	})
	s.effort.PlaceHolder = i18n.T("The model has no effort levels")
	s.syncModels()
	s.market = NewWindowEntry(s.win)
	s.market.SetPlaceHolder(i18n.T("https://market.example/index.json or file:///path/to/market"))
	s.market.OnSubmitted = func(string) { s.saveMarket() }
	s.marketNote = hint(i18n.T("Plugins → Manage → Discover searches it and installs from it, each download checked against the hash the market pins. A private market works the same."))
	form := widget.NewForm(
		widget.NewFormItem(i18n.T("Settings file"), s.file.box),
		widget.NewFormItem(i18n.T("Theme"), s.theme),
		widget.NewFormItem(i18n.T("Send key"), s.send),
		widget.NewFormItem(i18n.T("Default model"), container.NewVBox(s.model, hint(i18n.T("New chats start with it (the toolbar's picker sets it too).")))),
		widget.NewFormItem(i18n.T("Default effort"), s.effort),
		widget.NewFormItem(i18n.T("Plugin market"), container.NewVBox(
			container.NewBorder(nil, nil, nil, widget.NewButton(i18n.T("Save"), s.saveMarket), s.market), s.marketNote)),
	)
	s.general = addGeneralSection(form, s)
	s.notify = addNotifySection(form, host)
	addLiveChatsSection(form, s)
	content := container.NewVBox(s.modelsSection(), form,
		heading(i18n.T("Permissions")),
		hint(i18n.T("Tools you approved \"always\" or \"for this session\". Revoke one and the next such call asks again.")),
		s.perms,
		heading(i18n.T("MCP servers")), MCPServersButton(host),
		heading(i18n.T("Plugin environment")),
		hint(i18n.T("Variables each plugin reads (from its manifest and README). Values are never shown.")),
		s.env, widget.NewButtonWithIcon(i18n.T("Providers and API keys…"), theme.AccountIcon(), func() { openProviders(app, b, host) }))
	s.win.SetContent(container.NewVScroll(container.NewPadded(content)))
}

// Raise brings the window to the front.
func (s *Settings) Raise() { s.win.RequestFocus() }

func heading(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.TextStyle.Bold = true
	return l
}

func hint(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Importance = widget.LowImportance
	l.Wrapping = fyne.TextWrapWord
	return l
}

// SyncSendKey shows the send key in force (the View menu changed it).
func (s *Settings) SyncSendKey() {
	if s.host.EnterSends() {
		s.send.SetSelected(i18n.T(sendEnter))
	} else {
		s.send.SetSelected(i18n.T(sendCtrlEnter))
	}
}

// syncModels lists the catalog and selects the current model (UI goroutine;
// the toolbar calls it when the catalog or the model changes).
func (s *Settings) syncModels() {
	st := s.state
	labels := make([]string, 0, len(st.Models()))
	current := ""
	for _, m := range st.Models() {
		labels = append(labels, ModelLabel(m))
		if m.ID == st.Open().Model {
			current = ModelLabel(m)
		}
	}
	s.model.SetOptions(labels)
	// The placeholder shows whenever nothing is picked: "No models" only
	// when there are none (a chat with no model yet said so beside echo-1).
	placeholder := i18n.T("Pick a model")
	if len(labels) == 0 {
		placeholder = i18n.T(noModels)
	}
	if s.model.PlaceHolder != placeholder {
		s.model.PlaceHolder = placeholder
		s.model.Refresh()
	}
	if current != "" {
		s.model.SetSelected(current)
	} else {
		s.model.ClearSelected()
	}
	var efforts []string
	if m, ok := st.CurrentModel(); ok {
		efforts = m.Efforts
	}
	s.effort.SetOptions(efforts)
	if slices.Contains(efforts, st.Open().Effort) {
		s.effort.SetSelected(st.Open().Effort)
	} else {
		s.effort.ClearSelected()
	}
}

// ModelLabel names a model for a person: its name, then the id a settings
// file and a plugin's docs use ("Echo (offline) —
// plugin/echo-provider/echo/echo-1"); the id alone when it has no name.
// The default-model field lists models so; the toolbar's picker adds the
// context window and prices.
func ModelLabel(m providers.Model) string {
	if m.DisplayName == "" || m.DisplayName == m.ID {
		return m.ID
	}
	return m.DisplayName + " — " + m.ID
}

// modelOfLabel is the id of the model in models that ModelLabel names
// label, "" for none (looked up, not parsed: a plugin's model id may hold
// any text).
func modelOfLabel(models []providers.Model, label string) string {
	for _, m := range models {
		if ModelLabel(m) == label {
			return m.ID
		}
	}
	return ""
}

// loadPermissions reads the approvals in force from the core.
func (s *Settings) loadPermissions() {
	s.host.WithCore("permissions", func(ctx context.Context, c SettingsCore) error {
		p := c.Permissions()
		s.b.Post(func() { s.showPermissions(p) })
		return nil
	})
}

func (s *Settings) showPermissions(p agent.Permissions) {
	s.perms.RemoveAll()
	clear(s.revoke)
	defer s.host.Trace(fmt.Sprintf("permissions %d", len(p.Always)+len(p.Session)))
	var first *widget.Button
	sessionRules := sessionApprovals(p, s.state.Open().Workspace)
	if len(p.Always) == 0 && len(p.Session) == 0 {
		s.perms.Add(hint(i18n.T("No standing approvals: every write and command asks first.")))
	}
	d := s.host
	for _, r := range p.Always {
		rule := r
		b := widget.NewButtonWithIcon(i18n.T("Revoke"), theme.DeleteIcon(), func() {
			d.WithCore("revoke", func(ctx context.Context, c SettingsCore) error {
				defer s.reloadLater()
				return c.RevokeAlways(rule)
			})
		})
		s.revoke[rule.Describe()] = b
		if first == nil {
			first = b
		}
		s.perms.Add(container.NewBorder(nil, nil, nil, b, widget.NewLabel(describeApproval(rule, i18n.M("always")))))
	}
	for i, t := range p.Session {
		tool := t
		b := widget.NewButtonWithIcon(i18n.T("Revoke"), theme.DeleteIcon(), func() {
			d.WithCore("revoke", func(ctx context.Context, c SettingsCore) error {
				defer s.reloadLater()
				return c.RevokeSession(ctx, tool)
			})
		})
		s.revoke["session "+tool] = b
		if first == nil {
			first = b
		}
		s.perms.Add(container.NewBorder(nil, nil, nil, b, widget.NewLabel(describeApproval(sessionRules[i], i18n.M("this session")))))
	}
	s.win.Content().Refresh() // the rows changed the content's height: re-lay out the scroll
	if s.file.broken() {
		s.win.Canvas().Focus(s.file.reset) // the app runs on defaults: Space resets
	} else if first != nil {
		s.win.Canvas().Focus(first) // Space revokes it; Tab moves on
	}
}

// sessionApprovals are the "for this session" approvals as rules. The
// core gives them (SessionRules, described in Session): read as tool names,
// the descriptions said "write_file in /x in /x". A core that gives only
// names (older, or a fake) means each tool approved in the session's
// workspace.
func sessionApprovals(p agent.Permissions, workspace string) []agent.Rule {
	if len(p.SessionRules) == len(p.Session) && len(p.Session) > 0 {
		return p.SessionRules
	}
	out := make([]agent.Rule, len(p.Session))
	for i, t := range p.Session {
		out[i] = agent.Rule{Tool: t, Workspace: workspace}
	}
	return out
}

// describeApproval says in words what an approval allows and for how long
// ("run_command: git … in /w, this session"). lifetime is a catalog key
// ("always", "this session").
func describeApproval(r agent.Rule, lifetime string) string {
	what := r.Tool
	switch sc := r.Scope(); {
	case r.Tool == "run_command" && (sc.Program != "" || sc.Exact != ""):
		// What the rule covers as the core reads it: an exact-line rule
		// must not read as a prefix of wider commands.
		what += ": " + sc.String()
	case r.CommandPrefix != "":
		what += ": " + r.CommandPrefix + " …"
	case r.Tool == "run_command":
		what += ": " + i18n.T("every command")
	}
	if r.Workspace == "" {
		return i18n.T("%s in every workspace, %s", what, i18n.T(lifetime))
	}
	return i18n.T("%s in %s, %s", what, r.Workspace, i18n.T(lifetime))
}

// reloadLater re-reads the permissions after a change (any goroutine).
func (s *Settings) reloadLater() { s.b.Post(s.loadPermissions) }

// envHint is one plugin's variables, with whether the app's environment
// (which a sidecar inherits) sets each.
type envHint struct {
	plugin string
	names  []string
	set    map[string]bool
}

// loadEnv reads each plugin's manifest and README off the UI goroutine.
func (s *Settings) loadEnv(ps []agent.PluginInfo) {
	s.envGen++
	gen := s.envGen
	c := s.host.Core()
	s.host.Async("plugin environment", func(context.Context) error {
		hints := make([]envHint, 0, len(ps))
		for _, p := range ps {
			var declared []string
			if c != nil {
				if man, err := c.PluginManifest(p.Name); err == nil {
					declared = man.EnvNames
				}
			}
			h := envHint{plugin: p.Name, names: envNames(p.Root, declared), set: map[string]bool{}}
			for _, n := range h.names {
				_, h.set[n] = os.LookupEnv(n)
			}
			hints = append(hints, h)
		}
		s.b.Post(func() {
			if gen == s.envGen {
				s.showEnv(hints)
			}
		})
		return nil
	})
}

func (s *Settings) showEnv(hints []envHint) {
	s.env.RemoveAll()
	if len(hints) == 0 {
		s.env.Add(hint(i18n.T("No plugins installed.")))
	}
	for _, h := range hints {
		if len(h.names) == 0 {
			s.env.Add(widget.NewLabel(i18n.T("%s: reads no documented variables", h.plugin)))
			continue
		}
		parts := make([]string, len(h.names))
		for i, n := range h.names {
			if h.set[n] {
				parts[i] = i18n.T("%s (set)", n)
			} else {
				parts[i] = i18n.T("%s (not set)", n)
			}
		}
		l := widget.NewLabel(h.plugin + ": " + strings.Join(parts, ", "))
		l.Wrapping = fyne.TextWrapWord
		s.env.Add(l)
	}
	s.win.Content().Refresh()
}

// envNameRE finds variable names as READMEs write them: upper case with an
// underscore (OPENAI_API_KEY), which keeps out ordinary capitalised words.
var envNameRE = regexp.MustCompile(`\b[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]\b`)

// readmeLimit bounds how much of a README is scanned.
const readmeLimit = 256 << 10

// envNames lists the variables a plugin names in its manifest's env block
// (declared, read by the core: names only, never values) and its README.
func envNames(root string, declared []string) []string {
	seen := map[string]bool{}
	for _, k := range declared {
		seen[k] = true
	}
	// The README is opened inside the package root (os.Root): a README
	// that is a link out of the package must not be read, as no package
	// file is (DESIGN, "Approvals and confinement").
	pkg, err := os.OpenRoot(root)
	if err != nil {
		return sortedNames(seen)
	}
	defer pkg.Close()
	for _, name := range []string{"README.md", "README"} {
		f, err := pkg.Open(name)
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(io.LimitReader(f, readmeLimit))
		f.Close()
		for _, n := range envNameRE.FindAllString(string(b), -1) {
			seen[n] = true
		}
		break
	}
	return sortedNames(seen)
}

func sortedNames(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// loadMarket shows the market URL set (read off the UI goroutine).
func (s *Settings) loadMarket() {
	s.host.WithCore("read the market's URL", func(_ context.Context, c SettingsCore) error {
		u, err := c.MarketURL()
		if err != nil {
			return err
		}
		s.b.Post(func() { s.market.SetText(u) })
		return nil
	})
}

// saveMarket saves the URL typed (empty: no market) and says so.
func (s *Settings) saveMarket() {
	u := strings.TrimSpace(s.market.Text)
	s.host.WithCore("set the market", func(_ context.Context, c SettingsCore) error {
		err := c.SetMarketURL(u)
		// The environment's REASONIX_DESKTOP_MARKET_URL wins over the
		// saved URL: say which one Discover searches.
		now, nerr := c.MarketURL()
		s.b.Post(func() {
			switch {
			case err != nil:
				s.marketNote.SetText(i18n.T("Not saved: %s", redact.String(err.Error())))
				s.marketNote.Importance = widget.DangerImportance
			case nerr == nil && now != u:
				s.marketNote.SetText(i18n.T("Saved, but the environment (REASONIX_DESKTOP_MARKET_URL) sets the market: Discover searches %s.", redact.String(now)))
				s.marketNote.Importance = widget.WarningImportance
			case u == "":
				s.marketNote.SetText(i18n.T("No market is set now."))
				s.marketNote.Importance = widget.MediumImportance
			default:
				s.marketNote.SetText(i18n.T("Saved: Discover searches %s.", redact.String(u)))
				s.marketNote.Importance = widget.SuccessImportance
			}
			s.marketNote.Refresh()
			s.host.Trace("market set")
		})
		return nil
	})
}
