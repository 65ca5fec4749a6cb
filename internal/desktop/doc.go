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
// Everything a plugin says reaches this package already redacted by the core
// and the surfaces store; text taken directly from protocol frames or plugin
// status fields is redacted again here before it is shown.
//
// Markdown (from models and plugins) is parsed with our own goldmark instance
// into RichText segments (package markdown): no HTML is rendered, no image is
// fetched, and links open only after a confirmation.
//
// The transcript. The model (transcript.go) is written by core goroutines
// and records which items changed; each frame the UI side
// (transcript_view.go) updates only those rows, and a virtual list
// (vlist.go) gives widgets to the rows in view alone, recycled per kind,
// with every other row a cached height. A message's markdown is parsed
// into parts once and kept on its row (markdown.Doc): a
// streaming reply re-parses its last part only, and long paragraphs and
// code blocks are split so that the last part stays small. Blocks are
// RichText runs, code boxes highlighted with chroma's lexers mapped to
// theme colours, and table grids (blocks.go, docview.go). The keys of the
// composer, dialogs and approvals are in composer.go and keys.go.
package desktop
