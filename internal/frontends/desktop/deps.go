package desktop

import (
	"context"
	"net/url"

	"fyne.io/fyne/v2"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/panels"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/viewmodel"
)

// What each part of the window is given: the values and functions it
// really uses, never the wiring *UI itself, so a part's reach is read off
// its struct and a test can build one alone. newUI fills them; a function
// that reads something set later (a part built after this one, a field a
// test replaces) is a closure over the window, called when used.

// calls is how a part runs core calls off the UI goroutine (window.go).
type calls struct {
	getCore  func() coreAPI
	async    func(what string, fn func(ctx context.Context) error)
	withCore func(what string, fn func(ctx context.Context, c coreAPI) error)
}

// composerDeps are the composer's (and its tray's and completion's).
type composerDeps struct {
	calls
	win        fyne.Window
	b          *uikit.Bridge
	link       *coreLink
	state      *viewmodel.State
	prefs      *prefs
	notes      *panels.Notifier
	transcript *chatView
	trace      func(string)
	tracing    bool // --trace is on: the composer traces its text
	// The window's keys the entry hands on when it has no use for them.
	enter, escape func()
	navigate      func(fyne.KeyName) bool
	showPalette   func()
	// editLast asks the core to answer an edited last message again.
	editLast     func(text string)
	copyText     func(string)
	setReadyLine func(string)
	// execCommand runs a slash command line (typed: from the composer).
	execCommand func(line string, typed bool)
	// draftChanged keeps the composer's text as the chat on screen's
	// draft; draftSent writes the drafts at once (the message was sent).
	draftChanged func(text string)
	draftSent    func()
}

// toolbarDeps are the toolbar's.
type toolbarDeps struct {
	win             fyne.Window
	driver          fyne.Driver
	state           *viewmodel.State
	newChat         func(dir string)
	chooseWorkspace func()
	pickModel       func(id, effort string)
	showPalette     func()
	togglePanel     func()
	modelMenuItems  func() []*fyne.MenuItem
	// modelName is the name a model was last shown with ("" when never):
	// until the plugins list their models (about 0.6 s at start), the
	// toolbar showed the raw id.
	modelName func(id string) string
}

// sidebarDeps are the session sidebar's.
type sidebarDeps struct {
	calls
	win           fyne.Window
	b             *uikit.Bridge
	state         *viewmodel.State
	notes         *panels.Notifier
	chats         *chats
	trace         func(string)
	openChat      func(id string)
	kickLoad      func()
	modalKeys     func(cancel, confirm func()) (pop func())
	focusComposer func()
	// findInChat opens the chat on screen's find bar with a query (a
	// search hit in message text opens at its line).
	findInChat func(q string)
	// ownCore is a live chat's own core; dropChat shuts a live chat's
	// plugins down (it is being deleted).
	ownCore  func(id string) (coreAPI, bool)
	dropChat func(ctx context.Context, id string)
}

// panelDeps are the plugin panel's.
type panelDeps struct {
	calls
	b             *uikit.Bridge
	notes         *panels.Notifier
	confirmLink   func(dest string)
	pluginStopped func(plugin string) bool
	// otherLiveChat reports whether a chat is live with its own core and
	// is not the one on screen: its surfaces' views wait for it.
	otherLiveChat func(id string) bool
}

// bannerDeps are the settings banner's.
type bannerDeps struct {
	async        func(what string, fn func(ctx context.Context) error)
	b            *uikit.Bridge
	notes        *panels.Notifier
	settingsFile string
	trace        func(string)
	openURL      func(*url.URL) error
	checkAgain   func()
	// settingsWindow is the open Settings window, nil when none is.
	settingsWindow func() *dialogs.Settings
}

func (d *UI) calls() calls {
	return calls{getCore: d.getCore, async: d.async, withCore: d.withCore}
}

func (d *UI) composerDeps() composerDeps {
	return composerDeps{calls: d.calls(), win: d.win, b: d.b, link: d.link, state: d.state, prefs: d.prefs,
		notes: d.notes, transcript: d.transcript, trace: d.trace, tracing: d.opts.Trace != nil,
		enter: d.enter, escape: d.escape, navigate: d.navigate, showPalette: d.showPalette,
		editLast: d.editLast, copyText: d.copyText, setReadyLine: d.setReadyLine, execCommand: d.execCommand,
		draftChanged: func(text string) { d.drafts.set(d.chats.viewedID(), text) },
		draftSent:    func() { d.drafts.writeNow() }}
}

func (d *UI) toolbarDeps() toolbarDeps {
	return toolbarDeps{win: d.win, driver: d.opts.App.Driver(), state: d.state,
		newChat: d.newChat, chooseWorkspace: d.chooseWorkspace, pickModel: d.pickModel,
		showPalette: d.showPalette, togglePanel: d.togglePanel, modelMenuItems: d.modelMenuItems,
		modelName: d.prefs.ModelName}
}

func (d *UI) sidebarDeps() sidebarDeps {
	return sidebarDeps{calls: d.calls(), win: d.win, b: d.b, state: d.state, notes: d.notes, chats: d.chats,
		trace: d.trace, openChat: d.openChat, kickLoad: d.kickLoad, modalKeys: d.modalKeys,
		focusComposer: func() { d.win.Canvas().Focus(d.composer.entry) },
		findInChat:    func(q string) { d.transcript.get().FindText(q) },
		ownCore:       func(id string) (coreAPI, bool) { return d.pool.Live(id) },
		dropChat:      func(ctx context.Context, id string) { d.pool.Drop(ctx, id) }}
}

func (d *UI) panelDeps() panelDeps {
	return panelDeps{calls: d.calls(), b: d.b, notes: d.notes, confirmLink: d.confirmLink, pluginStopped: d.pluginStopped,
		otherLiveChat: d.otherLiveChat}
}

func (d *UI) bannerDeps() bannerDeps {
	return bannerDeps{async: d.async, b: d.b, notes: d.notes, settingsFile: d.opts.Layout.SettingsFile(), trace: d.trace,
		openURL:        func(u *url.URL) error { return d.openURL(u) }, // a test replaces d.openURL after newUI
		checkAgain:     d.CheckSettings,
		settingsWindow: func() *dialogs.Settings { return d.wins.settings }}
}

// The hosts: the window as each interface chat and dialogs declare, built
// when the chat or dialog is made. What a part built after the host is
// (the composer, for the first chat's host) is a closure.

func (d *UI) chatHost() chatHost {
	return chatHost{copyText: d.copyText, confirmLink: d.confirmLink,
		resend:      func(text string) { d.composer.resend(text) },
		retry:       func() { d.composer.retry() },
		regenerate:  d.regenerate,
		showVersion: d.showVersion,
		editLast:    func(text string) { d.composer.beginEdit(text) },
		canEdit:     func() bool { return d.composer.canEdit() },
		stopCall:    d.stopCall,
		rewindTo:    d.rewindTo,
		canRewind:   d.canRewind,
		currency:    d.currency}
}

// currencyCore is the core's currency preference (in memory: cheap on the
// UI goroutine).
type currencyCore interface{ Currency() string }

// currency is the currency replies' costs show in: "" (each model's own
// list) until the core is there.
func (d *UI) currency() string {
	if c, ok := d.getCore().(currencyCore); ok {
		return c.Currency()
	}
	return ""
}

func (d *UI) promptHost() promptHost {
	return promptHost{coreOf: d.coreOfChat, modalKeys: d.modalKeys, trace: d.trace}
}

// settingsHost is built when Settings opens: the composer and the banner
// exist by then.
func (d *UI) settingsHost() settingsHost {
	return settingsHost{calls: d.calls(), b: d.b, trace: d.trace,
		themeMode: d.themeMode, applyTheme: d.applyTheme,
		enterSends: d.composer.enterSends,
		setEnterSends: func(on bool) {
			d.composer.setEnterSends(on)
			d.win.SetMainMenu(d.buildMainMenu()) // the View menu's check follows
		},
		pickModel: d.pickModel, banner: d.banner, checkSettings: d.CheckSettings, showMCPServers: d.showMCPServers,
		notices: d.prefs.Notices, setNotices: d.setNotices, showConnect: func() { d.showConnect(false) }, currencyChanged: d.currencyChanged,
		settingsFile: d.opts.Layout.SettingsFile(), setIdle: func(n int) { d.pool.SetIdle(n) }}
}

func (d *UI) pluginsHost() pluginsHost {
	return pluginsHost{calls: d.calls(), pluginCommand: d.pluginCommand, installOver: d.installOver,
		restartAll: d.restartPlugins, showLogs: d.showLogs,
		showText:       func(title, text string) { d.showText(title, text, nil) },
		showMCPServers: d.showMCPServers, trace: d.trace, extensionsDir: d.opts.Layout.ExtensionsDir()}
}

func (d *UI) installHost() installHost {
	return installHost{async: d.async, withCore: d.withCore, pluginCommand: d.pluginCommand, trace: d.trace}
}
