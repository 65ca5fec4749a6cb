package mcp

import (
	"context"
	"encoding/json"
	"os/exec"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// BenchmarkCallManager is one echo call to server-everything through the
// Manager: name lookup, the call bound, redaction of the result.
func BenchmarkCallManager(b *testing.B) {
	m := NewManager(Options{Handshake: time.Minute})
	defer m.Close()
	m.Start([]Server{{Name: "ev", Server: mcpspec.Server{Command: testutil.Node(b), Args: []string{testutil.MCPServer(b, "server-everything"), "stdio"}}}})
	if err := m.WaitStarted(context.Background()); err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"message":"bench"}`)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := m.Call(ctx, "mcp__ev__echo", args, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCallBareSDK is the same call from a bare go-sdk client over
// the SDK's own command transport: the floor the Manager is held to.
func BenchmarkCallBareSDK(b *testing.B) {
	ctx := context.Background()
	c := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	s, err := c.Connect(ctx, &sdk.CommandTransport{Command: exec.Command(testutil.Node(b), testutil.MCPServer(b, "server-everything"), "stdio")}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	params := &sdk.CallToolParams{Name: "echo", Arguments: json.RawMessage(`{"message":"bench"}`)}
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.CallTool(ctx, params); err != nil {
			b.Fatal(err)
		}
	}
}
