package agent

import (
	"context"

	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// The core's faces: what a front end may ask of the core, one interface
// per concern. A front end declares the interface it uses by embedding
// the faces it needs (the window uses all of them, the terminal Chat and
// Forms), so `go doc` of this package shows what each front end can do.
// *Core implements every face (checked below).
//
// Concurrency: every method is safe from any goroutine. A method taking a
// context may wait on a plugin, a provider or the disk and honours the
// context; a front end calls it off its UI goroutine. A method without one
// never waits on a plugin.

// Chat is the conversation on screen: sending, stopping, retrying, the
// session being shown and the one command layer both front ends share.
type Chat interface {
	SendAll(ctx context.Context, text string) error
	SendWithAttachments(ctx context.Context, text string, atts []Attachment) error
	// Retry re-runs the last failed turn with exactly its kept message.
	Retry(ctx context.Context) error
	Stop()
	// StopCall stops one running tool call (a command, a job start); the
	// turn goes on with "stopped by the user" as the call's result. False
	// when no such call is running.
	StopCall(callID string) bool
	Session() Session
	NewSession(ctx context.Context, workspace string) error
	LoadSession(ctx context.Context, id string) error
	// Exec runs a slash command line; ErrNotCommand means it is a message.
	Exec(ctx context.Context, line string) (CommandResult, error)
	// Completions lists what the composer offers after a slash.
	Completions() []CommandInfo
}

// Versions are the other answers to the last message.
type Versions interface {
	Regenerate(ctx context.Context) error
	EditLast(ctx context.Context, text string) error
	ShowVersion(ctx context.Context, i int) error
	LastReplyVersion() (shown, total int)
}

// Models is the model menu.
type Models interface {
	Models(ctx context.Context) ([]providers.Model, []error)
	SetModel(ctx context.Context, id, effort string) error
}

// SavedSessions is the sidebar's history.
type SavedSessions interface {
	Sessions() []Summary
	SearchSessions(q string) []Summary
	RenameSession(ctx context.Context, id, name string) error
	TrashSession(ctx context.Context, id string) error
	RestoreSession(id string) error
	SavedSession(id string) (*Session, error)
	// ExportSession renders a chat as "markdown" (or "md") or "json" (the
	// session file's own document).
	ExportSession(id, format string) ([]byte, error)
	// PinSession keeps a chat on top of Sessions (or lets it go); its
	// place among the others does not change.
	PinSession(id string, pinned bool) error
	// SearchSessionText finds q (case-insensitive) in the titles and the
	// message text of every saved chat: one hit per chat, in the order of
	// Sessions, at most limit (<= 0: all).
	SearchSessionText(ctx context.Context, q string, limit int) []SessionHit
	// ImportSession saves a chat exported as JSON; a chat whose id is
	// taken gets a new id (nothing is overwritten). It returns the id.
	ImportSession(ctx context.Context, data []byte) (string, error)
}

// Forms is what plugins show and ask: their surfaces, actions, commands
// and the answers to their forms.
type Forms interface {
	SurfaceList() []surfaces.Surface
	PromptStale(p *surfaces.Prompt) bool
	Actions() []surfaces.Action
	InvokeAction(ctx context.Context, name string, args map[string]string) (protocol.UIActionResult, error)
	SubmitForm(ctx context.Context, key surfaces.Key, values map[string]any) error
	Commands() []Command
}

// PluginAdmin is the plugin manager: installing, updating, enabling,
// restarting, the doctor.
type PluginAdmin interface {
	Plugins() []PluginInfo
	ExtensionStatus() []ExtensionStatus
	Reload(ctx context.Context) error
	PreviewPluginInstall(ctx context.Context, req InstallRequest) (InstallPreview, error)
	InstallPlugin(ctx context.Context, pv InstallPreview) (PluginRecord, error)
	RemovePlugin(ctx context.Context, name string) error
	SetPluginEnabled(ctx context.Context, name string, enabled bool) error
	RestartPlugin(ctx context.Context, name string) error
	PluginManifest(name string) (PluginManifest, error)
	PluginDoctor(ctx context.Context, name string) (DoctorReport, error)
	PluginOrigin(name string) (PluginOrigin, error)
	PreviewPluginUpdate(ctx context.Context, name string) (InstallPreview, error)
	DiscardPluginPreview(pv InstallPreview)
	MigratePlugin(ctx context.Context, name string) (string, error)
}

// Grants is what the user approved for good or for the session.
type Grants interface {
	Permissions() Permissions
	RevokeAlways(r Rule) error
	RevokeSession(ctx context.Context, tool string) error
}

// MCPAdmin is the chat's MCP servers (mcpchat.go).
type MCPAdmin interface {
	MCPServers() []MCPServerInfo
	SetMCPToolEnabled(tool string, enabled bool) error
	RestartMCPServer(name string) error
	WatchMCP(fn func()) (stop func())
	// The user's servers, edited while the chat runs (mcplive.go).
	AddMCPServer(spec MCPServerSpec, was string) error
	RemoveMCPServer(name string) error
	SetMCPServerEnabled(name string, enabled bool) error
	PreviewMCPImport(path string) (MCPImport, error)
	ImportMCPServers(path string) (MCPImport, error)
	// A remote server's sign-in (mcpsignin.go).
	SignInMCPServer(ctx context.Context, name string) error
	SignOutMCPServer(name string) error
}

var (
	_ Chat          = (*Core)(nil)
	_ Versions      = (*Core)(nil)
	_ Models        = (*Core)(nil)
	_ SavedSessions = (*Core)(nil)
	_ Forms         = (*Core)(nil)
	_ PluginAdmin   = (*Core)(nil)
	_ Grants        = (*Core)(nil)
	_ MCPAdmin      = (*Core)(nil)
	_ Rewinding     = (*Core)(nil)
)
