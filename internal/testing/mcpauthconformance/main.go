// Command mcpauthconformance is the client the official MCP conformance
// runner (@modelcontextprotocol/conformance) drives for its auth/*
// scenarios: the go-sdk's Streamable HTTP client with the host's sign-in
// (internal/extensions/mcpauth) as its OAuthHandler, or with
// MCPAUTH_CONFORMANCE_HOST set the host's own client (mcp.Manager) with
// the sign-in on its Options.OAuth hook. The runner starts a
// test server and an authorization server that approves at once, and runs
// this program with the server's URL as its last argument, the scenario in
// MCP_CONFORMANCE_SCENARIO and the scenario's client registration (if any)
// in MCP_CONFORMANCE_CONTEXT.
//
// The "browser" is an HTTP GET of the authorization page that follows its
// redirect to the handler's loopback listener, as a browser would.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	hostmcp "github.com/reasonix/reasonix-desktop/internal/extensions/mcp"
	"github.com/reasonix/reasonix-desktop/internal/extensions/mcpauth"
	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
	"github.com/reasonix/reasonix-desktop/internal/foundation/secrets"
)

// cimdURL is the client ID metadata document the basic-cimd scenario's
// authorization server expects (it does not fetch it).
const cimdURL = "https://conformance-test.local/client-metadata.json"

func main() {
	if len(os.Args) < 2 {
		log.Fatal("usage: mcpauthconformance <server-url>")
	}
	serverURL := os.Args[len(os.Args)-1]
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
	defer cancel()
	if err := run(ctx, serverURL); err != nil {
		log.Fatalf("scenario %s: %v", os.Getenv("MCP_CONFORMANCE_SCENARIO"), err)
	}
}

func run(ctx context.Context, serverURL string) error {
	dir, err := os.MkdirTemp("", "mcpauthconformance-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	store := secrets.Open(secrets.Options{Dir: dir, Mode: secrets.ModeFile})
	a := mcpauth.New(mcpauth.Config{
		Secrets:             store,
		OpenBrowser:         browse,
		Log:                 slog.New(slog.NewTextHandler(os.Stderr, nil)),
		SignInOnDemand:      true,
		SignInTimeout:       10 * time.Second,
		ClientIDMetadataURL: cimdURL,
	})
	var cc struct {
		ClientID      string `json:"client_id"`
		ClientSecret  string `json:"client_secret"`
		PrivateKeyPEM string `json:"private_key_pem"`
		SigningAlg    string `json:"signing_algorithm"`
	}
	if s := os.Getenv("MCP_CONFORMANCE_CONTEXT"); s != "" {
		if err := json.Unmarshal([]byte(s), &cc); err != nil {
			return fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
		}
	}
	if cc.ClientID != "" {
		// A client the scenario registered beforehand: the user's SetClient.
		err := a.SetClient(serverURL, mcpauth.Client{ID: cc.ClientID, Secret: cc.ClientSecret, PrivateKeyPEM: cc.PrivateKeyPEM, SigningAlg: cc.SigningAlg})
		if err != nil {
			return err
		}
	}
	if os.Getenv(hostEnv) != "" {
		return runHost(ctx, a, serverURL)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "reasonix-desktop-auth-conformance", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: serverURL, OAuthHandler: a.Handler("conformance", serverURL)}, nil)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer session.Close()
	if _, err := session.ListTools(ctx, nil); err != nil {
		return fmt.Errorf("list tools: %w", err)
	}
	if _, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "test-tool", Arguments: map[string]any{}}); err != nil {
		return fmt.Errorf("call test-tool: %w", err)
	}
	return nil
}

// hostEnv, when set, runs the scenario through the host's own client (the
// mcp.Manager a chat uses, with the handler on its Options.OAuth hook)
// instead of a bare go-sdk client.
const hostEnv = "MCPAUTH_CONFORMANCE_HOST"

func runHost(ctx context.Context, a *mcpauth.Auth, serverURL string) error {
	m := hostmcp.NewManager(hostmcp.Options{
		Log:       slog.New(slog.NewTextHandler(os.Stderr, nil)),
		Handshake: 20 * time.Second,
		OAuth:     func(s hostmcp.Server) auth.OAuthHandler { return a.Handler(s.Name, s.URL) },
	})
	defer m.Close()
	m.Start([]hostmcp.Server{{Name: "conformance", Server: mcpspec.Server{Type: hostmcp.TypeHTTP, URL: serverURL}}})
	if err := m.WaitStarted(ctx); err != nil {
		return fmt.Errorf("waiting for the start: %w", err)
	}
	if st := m.Servers(); len(st) != 1 || st[0].State != hostmcp.StateReady {
		return fmt.Errorf("the server did not start: %+v", st)
	}
	res, err := m.Call(ctx, hostmcp.ToolName("conformance", "test-tool"), json.RawMessage(`{}`), nil)
	if err != nil {
		return fmt.Errorf("call test-tool: %w", err)
	}
	if res.IsError {
		return fmt.Errorf("test-tool answered with an error: %s", res.Text)
	}
	return nil
}

// browse plays the user's browser: it opens the authorization page and
// follows the authorization server's redirect to the loopback callback.
func browse(u string) error {
	resp, err := http.Get(u)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the authorization page answered %s", resp.Status)
	}
	return nil
}
