// Command mcpconformance is the client the official MCP conformance runner
// (@modelcontextprotocol/conformance, `conformance client`) drives: it
// connects to the runner's test server through the host's own client,
// mcp.Manager, so the scenarios check what the app does, not a bare go-sdk
// client. The runner starts it with the server's URL as its last argument
// and names the scenario in MCP_CONFORMANCE_SCENARIO; a non-zero exit is
// the client giving up (the runner's checks say what it saw).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reasonix/reasonix-desktop/internal/extensions/mcp"
	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
)

// server is the name the runner's server has in the Manager.
const server = "conformance"

// scenario is what the client does once connected: the tool it calls (none:
// connecting and listing the tools is the whole scenario) and its
// arguments.
type scenario struct {
	tool string
	args string
}

var scenarios = map[string]scenario{
	"initialize":                          {},
	"tools_call":                          {tool: "add_numbers", args: `{"a":5,"b":3}`},
	"elicitation-sep1034-client-defaults": {tool: "test_client_elicitation_defaults", args: `{}`},
	"sse-retry":                           {tool: "test_reconnection", args: `{}`},
}

// acceptDefaults accepts every elicitation without filling anything in:
// the client is to complete the content with the schema's defaults
// (SEP-1034), which is what elicitation-sep1034-client-defaults checks.
type acceptDefaults struct{}

func (acceptDefaults) Elicit(context.Context, string, *sdk.ElicitParams) (*sdk.ElicitResult, error) {
	return &sdk.ElicitResult{Action: "accept"}, nil
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: mcpconformance <server-url> (the scenario in MCP_CONFORMANCE_SCENARIO)")
		os.Exit(2)
	}
	name := os.Getenv("MCP_CONFORMANCE_SCENARIO")
	sc, ok := scenarios[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "mcpconformance: scenario %q is not one this client runs\n", name)
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, os.Args[len(os.Args)-1], sc); err != nil {
		fmt.Fprintf(os.Stderr, "mcpconformance %s: %v\n", name, err)
		os.Exit(1)
	}
}

func run(ctx context.Context, url string, sc scenario) error {
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	m := mcp.NewManager(mcp.Options{Log: log, Elicit: acceptDefaults{}, Handshake: 30 * time.Second})
	defer m.Close()
	m.Start([]mcp.Server{{Name: server, Server: mcpspec.Server{Type: mcp.TypeHTTP, URL: url}}})
	if err := m.WaitStarted(ctx); err != nil {
		return fmt.Errorf("waiting for the start: %w", err)
	}
	st := m.Servers()
	if len(st) != 1 || st[0].State != mcp.StateReady {
		return fmt.Errorf("the server did not start: %+v", st)
	}
	if sc.tool == "" {
		return nil
	}
	res, err := m.Call(ctx, mcp.ToolName(server, sc.tool), json.RawMessage(sc.args), nil)
	if err != nil {
		return fmt.Errorf("calling %s: %w", sc.tool, err)
	}
	if res.IsError {
		return errors.New("the tool answered with an error: " + res.Text)
	}
	fmt.Println(res.Text)
	return nil
}
