package desktop

import (
	"context"

	"github.com/reasonix/reasonix-desktop/internal/host"
	"github.com/reasonix/reasonix-desktop/internal/host/agent"
	"github.com/reasonix/reasonix-desktop/internal/providers"
	"github.com/reasonix/reasonix-desktop/internal/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// coreAPI is what the window needs of *agent.Core. Methods that can wait on
// a sidecar (anything taking a context) are only ever called from
// goroutines started with UI.async, never on the UI goroutine.
type coreAPI interface {
	SendAll(ctx context.Context, text string) error
	Stop()
	Session() agent.Session
	Sessions() []agent.Summary
	NewSession(ctx context.Context, workspace string) error
	LoadSession(ctx context.Context, id string) error
	Models(ctx context.Context) ([]providers.Model, []error)
	SetModel(ctx context.Context, id, effort string) error
	Plugins() []host.PluginStatus
	Runtime() *host.Runtime
	Reload(ctx context.Context) error
	Surfaces() *surfaces.Store
	Actions() []surfaces.Action
	InvokeAction(ctx context.Context, name string, args map[string]string) (protocol.UIActionResult, error)
	SubmitForm(ctx context.Context, key surfaces.Key, values map[string]any) error
	Commands() []agent.Command
	RunCommand(ctx context.Context, line string) (string, error)
	SearchSessions(q string) []agent.Summary
	RenameSession(ctx context.Context, id, name string) error
	TrashSession(ctx context.Context, id string) error
	RestoreSession(id string) error
	SavedSession(id string) (*agent.Session, error)
	ExtensionStatus() []agent.ExtensionStatus
	Permissions() agent.Permissions
	RevokeAlways(r agent.Rule) error
	RevokeSession(ctx context.Context, tool string) error
}

var _ coreAPI = (*agent.Core)(nil)
