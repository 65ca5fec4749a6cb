package desktop

import (
	"context"
	"errors"
	"fmt"
	"image"
	"net/url"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/driver/software"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/markdown"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/panels"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/viewmodel"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// callTimeout bounds a UI-initiated core call that is not a turn.
const callTimeout = 2 * time.Minute

// UI is the main window and the agent.Frontend the core reports to: it
// builds the widgets, hands each its dependencies and wires them to the
// core and to the app state.
type UI struct {
	opts Options
	win  fyne.Window
	b    *uikit.Bridge
	link *coreLink
	// state is the app state the toolbar, menus, composer and empty state
	// subscribe to.
	state *viewmodel.State
	// prefs are the remembered choices (theme, send key, last session), in
	// the data directory.
	prefs *prefs
	// chats routes each chat's events to its own transcript and loads the
	// chat on screen in the core.
	chats *chats
	// pool keeps the live chats, each with its own core (livechats.go);
	// onePool when the binary gives none.
	pool *poolRef
	// drafts are the composer's text by chat (drafts.go).
	drafts *drafts
	// openURL opens a confirmed link (fyne.App.OpenURL; tests count calls).
	openURL func(*url.URL) error
	wins    windows
	parts   // the window's widgets (embedded: d.composer, d.status…)
	// fontCheck runs the CJK font check once (fontcheck.go); hasCJKFont
	// is the check (systemHasCJK; the tests' answer).
	fontCheck  sync.Once
	hasCJKFont func() bool
	// turnUsage says whether the running turn reported its token use
	// (core goroutines).
	turnUsage atomic.Bool
}

// parts are the widgets of the main window, each built with its
// dependencies by newUI (UI goroutine after that).
type parts struct {
	transcript *chatView // the chat on screen
	readyLine  *widget.Label
	panel      *surfacePanel
	status     *panels.StatusBar
	notes      *panels.Notifier
	inspector  *dialogs.Inspector
	banner     *settingsBanner // what is wrong with settings.json (settingsbanner.go)
	toolbar    *toolbar
	composer   *composer
	sidebar    *sidebar
	notices    notices // OS notifications and the tray (notify.go)
}

// coreLink is the attached core and the calls the UI runs against it.
// core is guarded by mu (Attach runs on any goroutine); ctx and cancel are
// set once; goCall and wait are safe for concurrent use.
type coreLink struct {
	ctx    context.Context // cancelled by Close: ends every call the UI started
	cancel context.CancelFunc
	// calls counts the goroutines goCall started; closing (under
	// callsMu) refuses new ones once Close waits for them: a WaitGroup
	// must not grow while it is waited on.
	calls   sync.WaitGroup
	callsMu sync.Mutex
	closing bool

	mu   sync.RWMutex
	core coreAPI
}

// windows are the secondary windows and dialogs open now (UI goroutine):
// opening one again raises it.
type windows struct {
	plugins  *dialogs.PluginManager
	settings *dialogs.Settings
	palette  *dialogs.Palette
	prompts  *promptDialogs
	mcp      mcpWindow        // the MCP servers window (mcpwin.go)
	connect  *dialogs.Connect // "Connect a model" (connect.go)
	offered  bool             // it opened by itself this run
	modals   uikit.ModalStack // open dialogs' Esc and Enter
}

var _ agent.Frontend = (*UI)(nil)

// New builds the main window. Call it on the UI goroutine (before the app
// runs); the window works without a core until Attach.
func New(opts Options) *UI {
	d := newUI(opts)
	d.win.Show()
	return d
}

func newUI(opts Options) *UI {
	if opts.QuietAnimations {
		opts.App = quieten(opts.App)
	}
	ctx, cancel := context.WithCancel(context.Background())
	d := &UI{opts: opts, b: uikit.NewBridge(), link: &coreLink{ctx: ctx, cancel: cancel}, state: viewmodel.New(),
		prefs: loadPrefs(opts.Layout.Root, nil)}
	d.openURL = d.opts.App.OpenURL
	d.hasCJKFont = systemHasCJK
	d.win = d.opts.App.NewWindow("Reasonix Desktop")
	if opts.Icon != nil {
		d.win.SetIcon(opts.Icon)
	}
	d.win.SetMaster()
	if opts.Theme != "" {
		d.opts.App.Settings().SetTheme(newScaledTheme(opts.Theme, d.prefs.Zoom()))
	} else {
		d.opts.App.Settings().SetTheme(newScaledTheme(d.themeMode(), d.prefs.Zoom()))
	}
	d.transcript = newChatView(d.newTranscript())
	d.chats = newChats()
	d.pool = &poolRef{}
	d.pool.set(&onePool{current: d.chats.currentFast})
	if opts.OpenChat != nil {
		d.pool.set(newCorePool(opts.OpenChat, liveChatsSetting(opts.Layout.SettingsFile())))
	}
	d.drafts = loadDrafts(opts.Layout.Root, nil)
	d.readyLine = widget.NewLabel("")
	d.readyLine.Wrapping = fyne.TextWrapWord
	d.readyLine.Importance = widget.WarningImportance
	d.readyLine.Hide()
	d.notes = panels.NewNotifier(d.link.ctx, d.link.goCall, opts.App, d.b)
	d.panel = newSurfacePanel(d.panelDeps())
	d.status = panels.NewStatusBar(d.b, d.state, d.surfaceList, d.showPluginManager)
	d.status.OnBalance = d.showBalance
	d.inspector = dialogs.NewInspector(opts.App, d.b)
	d.wins.prompts = &promptDialogs{dialogs.NewPrompts(d.link.ctx, d.win, d.b, d.promptHost())}
	d.toolbar = newToolbar(d.toolbarDeps())
	d.composer = newComposer(d.composerDeps())
	d.sidebar = newSidebar(d.sidebarDeps())
	if z := d.prefs.Zoom(); z != 1 {
		d.sidebar.setZoom(z)
	}
	d.banner = newSettingsBanner(d.bannerDeps())

	// Toasts float over the transcript's corner (panels keeps them off
	// its controls and off an approval): in the layout they pushed the
	// conversation down, the Approve buttons below the fold.
	bottom := container.NewVBox(d.readyLine, d.composer.object())
	chat := container.NewBorder(d.banner.object(), bottom, nil, nil, d.notes.Overlay(d.transcript.Object()))
	// Nor on the waiting approval's card: the chat on screen says where it
	// is, and tells the toasts when it moved. The hook is (re)set on the
	// transcript the toasts ask, since each chat gets its own transcript.
	d.notes.SetAvoid(func() (fyne.Position, fyne.Size, bool) {
		t := d.transcript.get()
		t.SetOnApprovalMoved(d.notes.Relayout)
		return t.PendingApprovalRect()
	})
	d.toolbar.body = &bodyLayout{hidden: d.prefs.PanelHidden(), shown: !d.prefs.PanelHidden()}
	d.toolbar.body.onShown = d.toolbar.syncPanel
	d.toolbar.syncPanel()
	body := container.New(d.toolbar.body, chat, container.NewBorder(nil, nil, widget.NewSeparator(), nil, d.panel.object()))
	// The status bar scrolls sideways when plugins publish more than fits:
	// its width is then no minimum of the window's (with 8 plugins it grew
	// the window past the screen, cutting off Hide panel and the panel).
	status := container.NewHScroll(d.status.Object())
	d.win.SetContent(container.NewBorder(d.toolbar.object(), status, d.sidebar.object(), nil, body))
	// Never larger than the screen: a size remembered on a bigger one (or
	// the default on a small one) would open partly off it.
	d.win.Resize(dialogs.FitScreenWithin(d.win, d.startSize(), mainWindowMargin))
	d.win.SetOnClosed(d.rememberSize)
	d.win.SetMainMenu(d.buildMainMenu())
	d.addZoomKeys()
	d.addChatKeys()
	d.startNotices()
	d.traceStart()
	d.watchLanguage()
	d.win.Canvas().AddShortcut(paletteShortcut, func(fyne.Shortcut) { d.showPalette() })
	d.win.Canvas().AddShortcut(settingsShortcut, func(fyne.Shortcut) { d.showSettings() })
	d.win.Canvas().AddShortcut(sidebarShortcut, func(fyne.Shortcut) { d.sidebar.toggle() })
	d.win.Canvas().AddShortcut(panelShortcut, func(fyne.Shortcut) { d.togglePanel() })
	d.win.Canvas().AddShortcut(shortcutsShortcut, func(fyne.Shortcut) { d.showShortcuts() })
	d.win.Canvas().AddShortcut(sendShortcut, func(fyne.Shortcut) { d.composer.send() })
	d.win.Canvas().AddShortcut(&fyne.ShortcutCopy{}, func(fyne.Shortcut) { d.copySelection() })
	d.win.Canvas().AddShortcut(&fyne.ShortcutSelectAll{}, func(fyne.Shortcut) { d.transcript.get().SelectAll() })
	d.win.Canvas().SetOnTypedKey(d.typedKey)
	d.win.Canvas().SetOnTypedRune(d.typedRune)
	d.win.SetOnDropped(func(_ fyne.Position, uris []fyne.URI) { d.composer.attach.addURIs(uris) }) // files dropped anywhere attach
	// Ctrl+Home/End with nothing focused (after a click on the
	// transcript) reach the canvas as shortcuts, not keys.
	for _, k := range []fyne.KeyName{fyne.KeyHome, fyne.KeyEnd} {
		d.win.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierShortcutDefault},
			func(fyne.Shortcut) { d.navigate(k) })
	}
	d.win.Canvas().Focus(d.composer.entry) // typing starts a message
	d.subscribe()
	d.state.SetConnected(false)
	return d
}

// subscribe connects what shows the app state to its changes (UI
// goroutine, once, after the widgets exist).
func (d *UI) subscribe() {
	s := d.state
	s.Subscribe(viewmodel.Busy, func(viewmodel.Change) {
		d.transcript.BusyChanged() // Regenerate shows only while idle
	})
	s.Subscribe(viewmodel.Connected|viewmodel.Busy|viewmodel.Ready|viewmodel.Session, func(viewmodel.Change) {
		d.composer.syncButtons()
		d.composer.runWaiting() // a send asked before the chat was ready
	})
	s.Subscribe(viewmodel.Running, func(viewmodel.Change) { d.sidebar.reload() }) // the marker, and a running chat not saved yet
	s.Subscribe(viewmodel.Marks, func(viewmodel.Change) { d.sidebar.list.Refresh() })
	s.Subscribe(viewmodel.Connected, func(viewmodel.Change) {
		d.toolbar.setEnabled(s.Connected())
		if !s.Connected() {
			d.status.SetHealthText(i18n.T("Starting plugins…"))
		}
	})
	s.Subscribe(viewmodel.Session|viewmodel.Model|viewmodel.Models, func(viewmodel.Change) {
		d.toolbar.refresh()
		if m, ok := s.CurrentModel(); ok {
			d.prefs.SetModelName(m.ID, m.DisplayName) // shown at the next start before the catalog
		}
	})
	s.Subscribe(viewmodel.Connected|viewmodel.Session|viewmodel.Model|viewmodel.Models, func(viewmodel.Change) { d.syncEmptyState() }) // Session: another transcript may be on screen
	s.Subscribe(viewmodel.Model|viewmodel.Models|viewmodel.Plugins, func(viewmodel.Change) { d.win.SetMainMenu(d.buildMainMenu()) })
	s.Subscribe(viewmodel.Plugins, func(viewmodel.Change) {
		d.status.SetHealth(s.Plugins())
		d.panel.th.Kick() // a stopped plugin's surfaces grey out, a restarted one's come back
		d.status.Kick()
	})
	s.Subscribe(viewmodel.Session, func(viewmodel.Change) {
		d.sidebar.sessionShown()
		d.composer.sessionShown() // an edit of another chat's question ends
	})
}

// Shortcuts: Ctrl+K opens the command palette, Ctrl+Enter sends.
var (
	paletteShortcut = &desktop.CustomShortcut{KeyName: fyne.KeyK, Modifier: fyne.KeyModifierShortcutDefault}
	sendShortcut    = &desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierShortcutDefault}
)

// Window is the main window.
func (d *UI) Window() fyne.Window { return d.win }

// Attach connects the opened core; any goroutine may call it.
func (d *UI) Attach(c coreAPI) {
	d.setCore(c)
	d.pool.Adopt(c)
	d.async(i18n.M("load"), func(ctx context.Context) error {
		start := time.Now()
		s := c.Session()
		d.attachChat(s.ID)
		d.pool.Use(s.ID)
		plugins := c.Plugins()
		draft := d.drafts.adopt(s.ID, func(id string) bool {
			_, err := c.SavedStamp(id)
			return errors.Is(err, agent.ErrNoSession)
		})
		d.b.Post(func() {
			if d.chats.viewedID() == s.ID { // not a chat opened meanwhile
				d.state.SetSession(openOf(s))
				d.state.SetReady(true)
				d.transcript.LoadSession(s) // before what the chat shows already (a turn begun before the attach)
				if draft != "" && d.composer.entry.Text == "" {
					d.composer.entry.SetText(draft) // what was typed when the app last ran
				}
				d.trace("session " + s.ID)
				d.trace(fmt.Sprintf("chat ready %s (%d ms)", s.ID, time.Since(start).Milliseconds()))
			}
			d.state.SetConnected(true)
			d.state.SetPlugins(plugins)
		})
		d.panel.th.Kick()
		d.status.Kick()
		d.refreshModels()
		return nil
	})
}

// StartFailed shows why the core could not be opened; the window stays up
// so the user can read it (and reach the plugin manager's log).
func (d *UI) StartFailed(err error) {
	msg := redact.String(err.Error())
	d.b.Post(func() {
		d.transcript.AddNotice(i18n.T("The host could not start: %s", msg), uikit.NoticeError)
		dialog.ShowError(errors.New(msg), d.win)
	})
}

// Quit asks the app to quit (from any goroutine).
func (d *UI) Quit() { d.b.Post(d.opts.App.Quit) }

// Capture renders the window to an image (from any goroutine but the UI
// one). It gives up with nil when ctx ends first.
func (d *UI) Capture(ctx context.Context) image.Image {
	ch := make(chan image.Image, 1)
	d.b.Post(func() { ch <- d.capture() })
	select {
	case img := <-ch:
		return img
	case <-ctx.Done():
		return nil
	}
}

// capture renders the window (UI goroutine). Canvas().Capture() reads the
// GL front buffer, which some software GL stacks (Mesa under Xvfb, as in
// CI) leave empty; then the window's content is painted again with Fyne's
// software painter at the same size (without the menu bar, which belongs to
// the GL canvas).
func (d *UI) capture() image.Image {
	img := d.win.Canvas().Capture()
	if img != nil && !uniform(img) {
		return img
	}
	content := d.win.Content()
	pos, size := content.Position(), content.Size()
	c := software.NewCanvas()
	c.SetPadded(false)
	c.Resize(size)
	c.SetContent(content)
	img = c.Capture()
	content.Move(pos) // the software canvas laid the live content out at its origin
	content.Resize(size)
	return img
}

// uniform reports whether every sampled pixel is the same (a blank read).
func uniform(img image.Image) bool {
	b := img.Bounds()
	if b.Empty() {
		return true
	}
	first := img.At(b.Min.X, b.Min.Y)
	r0, g0, b0, a0 := first.RGBA()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bb, a := img.At(x, y).RGBA()
			if r != r0 || g != g0 || bb != b0 || a != a0 {
				return false
			}
		}
	}
	return true
}

// goCall runs fn on its own goroutine, counted for Close; once Close has
// begun it runs nothing (the window is going).
func (l *coreLink) goCall(fn func()) {
	l.callsMu.Lock()
	defer l.callsMu.Unlock()
	if l.closing {
		return
	}
	l.calls.Add(1)
	go func() {
		defer l.calls.Done()
		fn()
	}()
}

// wait refuses new calls and waits for the running ones.
func (l *coreLink) wait() {
	l.callsMu.Lock()
	l.closing = true
	l.callsMu.Unlock()
	l.calls.Wait()
}

// Close stops everything the UI started: pending calls are cancelled, open
// prompts and approvals answer "cancelled" / "deny", queued UI work is
// dropped. Call it after the app stopped running.
func (d *UI) Close() {
	d.rememberSize() // a quit (Ctrl+Q, a signal) closes no window first
	d.drafts.Close()
	d.link.cancel()
	d.b.Stop()
	done := make(chan struct{})
	go func() {
		d.link.wait()
		close(done)
	}()
	select { // every call watches d.link.ctx; the bound only guards a stuck one
	case <-done:
	case <-time.After(closeWait):
	}
	ctx, cancel := context.WithTimeout(context.Background(), closeWait)
	defer cancel()
	d.pool.Close(ctx) // every live chat's plugins, the bounded shutdown
	d.prefs.Wait()
}

// closeWait bounds how long Close waits for calls to return.
const closeWait = 5 * time.Second

// getCore returns the attached core, or nil before Attach.
func (d *UI) getCore() coreAPI {
	d.link.mu.RLock()
	defer d.link.mu.RUnlock()
	return d.link.core
}

// async runs fn in a goroutine with a bounded context: the way the UI calls
// core methods that can wait on a sidecar. An error is shown as a toast.
func (d *UI) async(what string, fn func(ctx context.Context) error) {
	d.asyncFor(what, callTimeout, fn)
}

func (d *UI) asyncFor(what string, timeout time.Duration, fn func(ctx context.Context) error) {
	d.link.goCall(func() {
		ctx, cancel := context.WithTimeout(d.link.ctx, timeout)
		defer cancel()
		if err := fn(ctx); err != nil && d.link.ctx.Err() == nil {
			d.notes.HostNotice(i18n.T("%s: %s", i18n.T(what), redact.String(err.Error())), uikit.NoticeError) // what: an i18n.M key
		}
	})
}

// withCore runs fn with the core in a goroutine; before Attach it tells the
// user the host is still starting.
func (d *UI) withCore(what string, fn func(ctx context.Context, c coreAPI) error) {
	c := d.getCore()
	if c == nil {
		d.notes.HostNotice(i18n.T("The host is still starting the plugins"), uikit.NoticeWarn)
		return
	}
	d.async(what, func(ctx context.Context) error { return fn(ctx, c) })
}

// openOf is a session as the view-model holds it.
func openOf(s agent.Session) viewmodel.Open {
	return viewmodel.Open{ID: s.ID, Model: s.Model, Effort: s.Effort, Workspace: s.WorkspaceRoot}
}

// refreshModels fetches the catalog off the UI goroutine (it can wait on
// provider sidecars) and installs it in the picker and the Model menu.
func (d *UI) refreshModels() {
	d.withCore(i18n.M("models"), func(ctx context.Context, c coreAPI) error {
		models, errs := c.Models(ctx)
		d.b.Post(func() {
			d.state.SetModels(models, catalogErrors(errs))
			d.trace(fmt.Sprintf("models %d", len(models)))
			d.offerConnect()
		})
		for _, err := range errs {
			d.notes.HostNotice(i18n.T("model catalog: %s", redact.String(err.Error())), uikit.NoticeWarn)
		}
		return nil
	})
}

// pickModel selects a model (and effort) off the UI goroutine.
func (d *UI) pickModel(id, effort string) {
	if effort == "" {
		if m, ok := d.state.ModelByID(id); ok {
			effort = m.DefaultEffort
			if effort == "" && len(m.Efforts) > 0 {
				effort = m.Efforts[0]
			}
		}
	}
	if !d.state.Ready() {
		d.notes.HostNotice(i18n.T("This chat is getting ready; pick the model once it is"), uikit.NoticeWarn)
		return
	}
	d.withCore(i18n.M("pick model"), func(ctx context.Context, c coreAPI) error {
		if err := c.SetModel(ctx, id, effort); err != nil {
			return err
		}
		d.b.Post(func() { d.state.SetModel(id, effort) })
		return nil
	})
}

// setReadyLine says above the composer why the chat on screen cannot send
// yet; "" hides it (UI goroutine).
func (d *UI) setReadyLine(text string) {
	if text == "" {
		d.readyLine.Hide()
		return
	}
	d.readyLine.SetText(text)
	d.readyLine.Show()
}

// confirmLink asks before opening a link from markdown (UI goroutine).
func (d *UI) confirmLink(dest string) {
	if !markdown.SafeLink(dest) {
		return
	}
	u, err := url.Parse(dest)
	if err != nil {
		return
	}
	msg := widget.NewLabel(dest)
	msg.Wrapping = fyne.TextWrapBreak
	content := container.NewVBox(widget.NewLabel(i18n.T("Open this address in your browser?")), msg)
	var dlg *dialog.ConfirmDialog
	popKeys := d.modalKeys(func() { dlg.Hide() }, func() { dlg.Confirm() })
	dlg = dialog.NewCustomConfirm(i18n.T("Open link"), i18n.T("Open"), i18n.T("Cancel"), content, func(ok bool) {
		popKeys()
		if !ok {
			return
		}
		if err := d.openURL(u); err != nil {
			d.notes.HostNotice(i18n.T("open link: %s", err.Error()), uikit.NoticeError)
		}
	}, d.win)
	dlg.Resize(fyne.NewSize(480, 200))
	dlg.Show()
	d.win.Canvas().Unfocus() // Esc and Enter reach the dialog
}

// workspaceName is the toolbar label of a workspace path.
func workspaceName(p string) string {
	if p == "" {
		return i18n.T("No workspace")
	}
	return filepath.Base(p)
}

// RunDemo shows the app at work for screenshots and first-time users: it
// picks the first plugin model when none is chosen and sends the given
// messages one turn after the other (any goroutine; it returns at once).
func (d *UI) RunDemo(messages ...string) {
	d.withCore(i18n.M("demo"), func(ctx context.Context, c coreAPI) error {
		if c.Session().Model == "" {
			models, _ := c.Models(ctx)
			if len(models) == 0 {
				return errors.New("no plugin models: install a provider plugin (e.g. examples/echo-provider)")
			}
			m := models[0]
			if err := c.SetModel(ctx, m.ID, m.DefaultEffort); err != nil {
				return err
			}
			d.b.Post(func() { d.state.SetModel(m.ID, m.DefaultEffort) })
		}
		d.link.goCall(func() { // turns are not bounded by the call timeout
			for _, msg := range messages {
				if err := c.SendAll(d.link.ctx, msg); err != nil {
					return
				}
			}
		})
		return nil
	})
}

// copyText puts s on the clipboard.
func (d *UI) copyText(s string) { d.opts.App.Clipboard().SetContent(s) }

// OnFrame is the agent.Config.OnFrame tap. It runs on sidecar IO
// goroutines: the inspector redacts and keeps the frame.
func (d *UI) OnFrame(plugin string, f ndjson.FrameInfo) { d.inspector.Record(plugin, f) }

// showInspector opens the protocol inspector window (UI goroutine).
func (d *UI) showInspector() { d.inspector.Show() }

// surfaceList is the stored surfaces, false before Attach (UI goroutine:
// the store answers from memory).
func (d *UI) surfaceList() ([]surfaces.Surface, bool) {
	if c := d.getCore(); c != nil {
		return c.SurfaceList(), true
	}
	return nil, false
}

// mainWindowMargin is what the main window leaves free on a screen smaller
// than the size it would open at: room for its title bar (40 px).
const mainWindowMargin = 40
