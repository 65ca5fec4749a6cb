package desktop

import (
	"context"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// coreAPI is what the window needs of *agent.Core: commands in, plain data
// out (events arrive through agent.Frontend). Methods that can wait on a
// sidecar or the disk (anything taking a context, and the store reads) are
// only ever called from goroutines started with UI.async, never on the UI
// goroutine; the snapshots (Session, Plugins, SurfaceList, Actions,
// PromptStale) are safe from any goroutine.
type coreAPI interface {
	SendAll(ctx context.Context, text string) error
	// Retry re-runs the last failed turn with exactly its kept message.
	Retry(ctx context.Context) error
	Stop()
	Session() agent.Session
	Sessions() []agent.Summary
	NewSession(ctx context.Context, workspace string) error
	LoadSession(ctx context.Context, id string) error
	Models(ctx context.Context) ([]providers.Model, []error)
	SetModel(ctx context.Context, id, effort string) error

	// Plugins and their commands.
	Plugins() []agent.PluginInfo
	Reload(ctx context.Context) error
	PreviewPluginInstall(ctx context.Context, req agent.InstallRequest) (agent.InstallPreview, error)
	InstallPlugin(ctx context.Context, pv agent.InstallPreview) (agent.PluginRecord, error)
	RemovePlugin(ctx context.Context, name string) error
	SetPluginEnabled(ctx context.Context, name string, enabled bool) error
	RestartPlugin(ctx context.Context, name string) error
	PluginManifest(name string) (agent.PluginManifest, error)
	PluginDoctor(ctx context.Context, name string) (agent.DoctorReport, error)
	// Update and migrate (the manager's Update… and Migrate to v2).
	PluginOrigin(name string) (agent.PluginOrigin, error)
	PreviewPluginUpdate(ctx context.Context, name string) (agent.InstallPreview, error)
	DiscardPluginPreview(pv agent.InstallPreview)
	MigratePlugin(ctx context.Context, name string) (string, error)

	// Surfaces, actions and forms.
	SurfaceList() []surfaces.Surface
	PromptStale(p *surfaces.Prompt) bool
	Actions() []surfaces.Action
	InvokeAction(ctx context.Context, name string, args map[string]string) (protocol.UIActionResult, error)
	SubmitForm(ctx context.Context, key surfaces.Key, values map[string]any) error
	Commands() []agent.Command
	// Exec runs a slash command line (the core's one command layer).
	Exec(ctx context.Context, line string) (agent.CommandResult, error)

	// Saved sessions.
	SearchSessions(q string) []agent.Summary
	RenameSession(ctx context.Context, id, name string) error
	TrashSession(ctx context.Context, id string) error
	RestoreSession(id string) error
	SavedSession(id string) (*agent.Session, error)
	// SavedStamp identifies a saved session's stored copy (size, time):
	// a chat read before is decoded again only when it changed.
	SavedStamp(id string) (agent.SessionStamp, error)
	ExportSession(id, format string) ([]byte, error)

	ExtensionStatus() []agent.ExtensionStatus
	Permissions() agent.Permissions
	RevokeAlways(r agent.Rule) error
	RevokeSession(ctx context.Context, tool string) error
}

var _ coreAPI = (*agent.Core)(nil)
