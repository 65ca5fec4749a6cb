package mcp

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
)

// A tools/list_changed that comes while the server is still starting (after
// its tools were listed, before the start is done) is followed once the
// start is: the tool added then is offered. It was dropped, and the server
// kept the start's list for its session. On a fake clock: the server adds
// its tool while answering prompts/list, the start's last list, and answers
// that one only after its 10 ms notification delay has sent the change.
func TestListChangedDuringTheStartIsFollowed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := sdk.NewServer(&sdk.Implementation{Name: "grows", Version: "1"}, nil)
		srv.AddPrompt(&sdk.Prompt{Name: "hello"}, func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{}, nil
		})
		sdk.AddTool(srv, &sdk.Tool{Name: "first"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{}, nil, nil
		})
		srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
			return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
				if method == "prompts/list" {
					sdk.AddTool(srv, &sdk.Tool{Name: "late"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
						return &sdk.CallToolResult{}, nil, nil
					})
					time.Sleep(50 * time.Millisecond) // the bubble's clock
				}
				return next(ctx, method, req)
			}
		})
		d := newMemDial(t, func(string) *sdk.Server { return srv })
		m := NewManager(Options{dial: d.dial})
		t.Cleanup(m.Close)
		m.Start([]Server{{Name: "grows", Server: mcpspec.Server{Command: "x"}}})
		waitStarted(t, m)
		synctest.Wait() // whatever the start set going has run
		if _, ok := tool(m, "mcp__grows__late"); !ok {
			t.Fatalf("the tool added during the start is not offered: %v", m.Tools())
		}
	})
}
