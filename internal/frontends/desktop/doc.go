// Package desktop is the Fyne front end of the agent core: the main window
// (toolbar, chat transcript, composer, surface panel, status bar), the menus
// and command palette, prompt and approval dialogs, the plugin manager and
// the protocol inspector.
//
// Threading. Fyne widgets belong to the UI goroutine. The core calls the
// Frontend (Emit, Approve, Prompt) from its own goroutines and sidecar IO
// goroutines tap frames for the inspector; all of them hand UI work to the
// bridge (uikit.Bridge), the one place that calls fyne.Do / fyne.DoAndWait.
// Streamed text is buffered off the UI goroutine and the transcript renders
// at most every 16 ms. The UI goroutine never calls a core method
// that can wait on a sidecar: those run in goroutines and report back
// through the bridge.
//
// Chats. Each live chat has a core of its own (its plugin generation,
// surfaces, busy token and turn), kept in a pool (livechats.go; one core as
// before when the binary gives no opener). The core on screen is the chat
// on screen's: getCore returns it, and Send, Stop, the panel and the
// status bar act on it. Every core reports to this one Frontend; each event
// names its chat and goes to that chat's transcript and state only, so a
// chat in the background never changes the chat on screen: its approvals
// and plugin questions wait on it, its notices go to the Notifications
// window, and the sidebar marks it. Which chats reply, and what waits in
// which, is the view-model's; what is typed is kept per chat (drafts.go).
//
// Everything a plugin says reaches this package already redacted by the core
// and the surfaces store; text taken directly from protocol frames or plugin
// status fields is redacted again here before it is shown.
//
// Markdown (from models and plugins) is parsed with our own goldmark instance
// into RichText segments (package markdown): no HTML is rendered, no image is
// fetched, and links open only after a confirmation.
//
// The parts. The conversation view (transcript, virtual list, messages,
// Markdown blocks, tool cards) is package chat; Markdown parsing is package
// markdown; the app state the toolbar, menus, composer and empty state
// subscribe to is package viewmodel; the bridge, frame throttle and themed
// backgrounds every part shares are package uikit; the status bar and
// notifications are package panels; prompts, the command palette, Settings,
// the plugin manager, Install…, the inspector and the help windows are
// package dialogs, each given a small host interface this package
// implements (promptHost, settingsHost, pluginsHost, installHost; chatHost
// for package chat), each a struct of the functions it uses, built in
// deps.go like the parts' dependencies: no struct holds the whole *UI. This
// package is the wiring: the window, toolbar, composer, menus, sidebar,
// surface panel and the core link. The keys of the composer, dialogs and
// approvals are in composer.go and keys.go.
package desktop
