//lint:file-ignore SA1019 sampling is deprecated as of protocol 2026-07-28 but still offered to servers of earlier versions (sampling.go).

package mcp

import (
	"context"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// samplingServer's tool ask asks the client for a sampling/createMessage
// (the protocol's multi-round-trip way: an input request in its result) and
// answers with what it got, or says the client offered no sampling.
func samplingServer(name string) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: name, Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "ask"}, func(ctx context.Context, req *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
		if caps := req.Session.InitializeParams().Capabilities; caps == nil || caps.Sampling == nil {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "no sampling offered"}}}, nil, nil
		}
		if r, ok := req.Params.InputResponses["q"].(*sdk.CreateMessageWithToolsResult); ok && len(r.Content) > 0 {
			return &sdk.CallToolResult{Content: r.Content[:1]}, nil, nil
		}
		return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{"q": &sdk.CreateMessageParams{MaxTokens: 10,
			Messages: []*sdk.SamplingMessage{{Role: "user", Content: &sdk.TextContent{Text: "hello?"}}}}}}, nil, nil
	})
	return s
}

// Options.Sample answers a server's sampling/createMessage, told which
// server asks; without it the client does not advertise sampling.
func TestSamplingGoesToTheHookOrIsNotOffered(t *testing.T) {
	d := newMemDial(t, samplingServer)
	var asked []string
	sample := func(_ context.Context, server string, req *sdk.CreateMessageParams) (*sdk.CreateMessageResult, error) {
		asked = append(asked, server+": "+req.Messages[0].Content.(*sdk.TextContent).Text)
		return &sdk.CreateMessageResult{Model: "test", Role: "assistant", Content: &sdk.TextContent{Text: "the model's answer"}}, nil
	}
	m := NewManager(Options{dial: d.dial, Sample: sample})
	t.Cleanup(m.Close)
	m.Start([]Server{entry("asker", "a")})
	waitStarted(t, m)
	res, err := m.Call(context.Background(), "mcp__asker__ask", nil, nil)
	if err != nil || res.Text != "the model's answer" {
		t.Fatalf("call: %+v %v", res, err)
	}
	if len(asked) != 1 || asked[0] != "asker: hello?" {
		t.Fatalf("the hook was asked %q", asked)
	}

	plain := NewManager(Options{dial: d.dial})
	t.Cleanup(plain.Close)
	plain.Start([]Server{entry("asker", "a")})
	waitStarted(t, plain)
	res, err = plain.Call(context.Background(), "mcp__asker__ask", nil, nil)
	if err != nil || res.Text != "no sampling offered" {
		t.Fatalf("without Sample: %+v %v", res, err)
	}
}
