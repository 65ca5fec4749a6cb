package agent

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/reasonix/reasonix-desktop/internal/extensions/mcp"
	"github.com/reasonix/reasonix-desktop/internal/extensions/mcpauth"
	"github.com/reasonix/reasonix-desktop/internal/foundation/secrets"
)

// Remote MCP servers sign in with OAuth (internal/extensions/mcpauth): a
// chat's connections carry the saved token and refresh it, and the user
// signs in or out from the window (Sign in, Sign out) or the command line
// (mcp login, mcp logout). A chat never opens the browser on its own: a
// server that needs a sign-in fails its start saying how to sign in. The
// one-off `mcp call` may (the user is at the terminal).

// MCPAuthOptions is how the host signs in to remote servers.
type MCPAuthOptions struct {
	// OpenBrowser shows the user the authorization page (nil: only saved
	// tokens are used, no sign-in can run).
	OpenBrowser func(url string) error
	// OnDemand lets a server's 401 start the browser flow itself (the
	// CLI's one-off commands).
	OnDemand bool
	Log      *slog.Logger
}

// newMCPAuth is the sign-in over the data directory's secrets store.
func newMCPAuth(store *secrets.Store, o MCPAuthOptions) *mcpauth.Auth {
	return mcpauth.New(mcpauth.Config{Secrets: store, OpenBrowser: o.OpenBrowser, SignInOnDemand: o.OnDemand, Log: o.Log})
}

func secretsOf(layout Layout, log *slog.Logger) *secrets.Store {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return secrets.Open(secrets.Options{Dir: layout.Root, Mode: secrets.ModeFromEnv(), Logger: log})
}

// oauthFor gives every remote server its handler: a server that needs no
// sign-in never answers 401, and the handler then adds nothing.
func oauthFor(a *mcpauth.Auth) func(mcp.Server) auth.OAuthHandler {
	return func(s mcp.Server) auth.OAuthHandler {
		if s.Transport() == mcp.TypeStdio {
			return nil
		}
		return a.Handler(s.Name, s.URL)
	}
}

// remoteServer is the named remote server among the user's and the
// packages' servers.
func remoteServer(all []mcp.Server, name string) (mcp.Server, error) {
	for _, s := range all {
		if s.Name != name {
			continue
		}
		if s.Transport() == mcp.TypeStdio {
			return s, fmt.Errorf("mcp server %s runs on this machine (stdio): there is nothing to sign in to", name)
		}
		return s, nil
	}
	return mcp.Server{}, fmt.Errorf("no mcp server %q", name)
}

// SignInMCPServer signs in to a remote server now, opening the browser
// (the command line's mcp login).
func SignInMCPServer(ctx context.Context, layout Layout, name string, o MCPAuthOptions) error {
	s, err := remoteServer(MCPServers(layout, nil, func(string) {}), name)
	if err != nil {
		return err
	}
	return newMCPAuth(secretsOf(layout, o.Log), o).SignIn(ctx, name, s.URL)
}

// SignOutMCPServer forgets a remote server's tokens (mcp logout).
func SignOutMCPServer(layout Layout, name string) error {
	s, err := remoteServer(MCPServers(layout, nil, func(string) {}), name)
	if err != nil {
		return err
	}
	return newMCPAuth(secretsOf(layout, nil), MCPAuthOptions{}).SignOut(name, s.URL)
}

// SignInMCPServer signs in to one of the chat's remote servers (the
// window's Sign in) and starts it again with the token.
func (c *Core) SignInMCPServer(ctx context.Context, name string) error {
	if c.mcp == nil {
		return errNoMCP
	}
	s, ok := c.mcp.configured(name)
	if !ok {
		return fmt.Errorf("no mcp server %q", name)
	}
	if _, err := remoteServer([]mcp.Server{s}, name); err != nil {
		return err
	}
	if err := c.mcp.auth.SignIn(ctx, name, s.URL); err != nil {
		return err
	}
	return c.mcp.m.Restart(name)
}

// SignOutMCPServer forgets a remote server's tokens and starts it again
// without them (it fails saying it needs a sign-in, if it does).
func (c *Core) SignOutMCPServer(name string) error {
	if c.mcp == nil {
		return errNoMCP
	}
	s, ok := c.mcp.configured(name)
	if !ok {
		return fmt.Errorf("no mcp server %q", name)
	}
	if _, err := remoteServer([]mcp.Server{s}, name); err != nil {
		return err
	}
	if err := c.mcp.auth.SignOut(name, s.URL); err != nil {
		return err
	}
	return c.mcp.m.Restart(name)
}
