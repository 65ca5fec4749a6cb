// Command mcpauthconformance is the client the official MCP conformance
// runner (@modelcontextprotocol/conformance) drives for its auth/*
// scenarios: the go-sdk's Streamable HTTP client with the host's sign-in
// (internal/extensions/mcpauth) as its OAuthHandler. The runner starts a
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

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reasonix/reasonix-desktop/internal/extensions/mcpauth"
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
