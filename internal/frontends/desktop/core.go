package desktop

import (
	"context"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// coreAPI is what the window needs of *agent.Core: the core's faces
// (agent/faces.go), every one of them but MCPAdmin (the MCP servers window
// is given its source by the wiring above, cmd/reasonix-desktop), and
// SavedStamp, which only the window uses. Commands go in, plain data comes
// out (events arrive through agent.Frontend). Methods that can wait on a
// sidecar or the disk (anything taking a context, and the store reads) are
// only ever called from goroutines started with UI.async, never on the UI
// goroutine; the snapshots (Session, Plugins, SurfaceList, Actions,
// PromptStale) are safe from any goroutine.
type coreAPI interface {
	agent.Chat
	agent.Versions
	agent.Models
	agent.SavedSessions
	agent.Forms
	agent.PluginAdmin
	agent.Grants
	agent.Rewinding
	agent.MarketAdmin // the Discover view (the package market)

	// PreviewPluginInstallPicks previews the plugins the user ticked of a
	// marketplace root (Install…).
	PreviewPluginInstallPicks(ctx context.Context, req agent.InstallRequest, names []string) ([]agent.InstallPreview, error)

	// SavedStamp identifies a saved session's stored copy (size, time):
	// a chat read before is decoded again only when it changed.
	SavedStamp(id string) (agent.SessionStamp, error)
}

var _ coreAPI = (*agent.Core)(nil)
