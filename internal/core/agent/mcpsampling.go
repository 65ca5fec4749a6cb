//lint:file-ignore SA1019 sampling is deprecated as of protocol 2026-07-28 but servers of earlier versions still ask for it; the SDK keeps it working through the deprecation window.

package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// An MCP server's sampling/createMessage asks the chat's model to write a
// message for it. That spends the user's model (and money) on the
// server's words, so every request is asked about, naming the server and
// showing the messages and system prompt it sends, and answered only when
// the user approves; a declined request is an error the server reads.
// Approval is for this request only: the approval card's broader answers
// (session, always) are not offered.

// errSamplingDeclined is what the server reads when the user says no.
var errSamplingDeclined = errors.New("the user declined the sampling request")

// samplingSeq tells apart the approvals of requests asked at once.
var samplingSeq atomic.Int64

// sample answers one sampling request (mcp.Options.Sample).
func (c *Core) sample(ctx context.Context, server string, p *sdk.CreateMessageParams) (*sdk.CreateMessageResult, error) {
	if p == nil || len(p.Messages) == 0 {
		return nil, errors.New("a sampling request with no messages")
	}
	msgs, shown := samplingMessages(p)
	s := c.Session()
	answer := c.fe.Approve(ctx, ApprovalRequest{SessionID: s.ID, CallID: fmt.Sprintf("sampling-%s-%d", server, samplingSeq.Add(1)),
		Tool:      fmt.Sprintf("MCP server %s to use the model %s with", server, s.Model),
		Arguments: shown, OnceOnly: true,
		Covers: "each request of a server to the model is asked about on its own"})
	if answer == ApproveDeny || answer == "" {
		return nil, errSamplingDeclined
	}
	ts, err := c.prepare(ctx)
	if err != nil {
		return nil, fmt.Errorf("sampling: %w", err)
	}
	req := protocol.ProviderRequest{Messages: msgs, Tools: []protocol.ProviderToolSchema{}, MaxTokens: p.MaxTokens}
	if p.Temperature != 0 {
		t := p.Temperature
		req.Temperature = &t
	}
	resp, err := c.stream(ctx, ts, req, func(Event) {})
	if err != nil {
		return nil, fmt.Errorf("sampling: the model: %w", err)
	}
	return &sdk.CreateMessageResult{Content: &sdk.TextContent{Text: resp.Text}, Model: s.Model, Role: "assistant",
		StopReason: "endTurn"}, nil
}

// samplingMessages makes the request's messages the model's, and the text
// the user is shown. Only text reaches the model: an image or audio part
// is named in its place.
func samplingMessages(p *sdk.CreateMessageParams) ([]protocol.ProviderMessage, string) {
	var msgs []protocol.ProviderMessage
	var shown strings.Builder
	if p.SystemPrompt != "" {
		msgs = append(msgs, protocol.ProviderMessage{Role: protocol.RoleSystem, Content: p.SystemPrompt})
		fmt.Fprintf(&shown, "system: %s\n", p.SystemPrompt)
	}
	for _, m := range p.Messages {
		if m == nil {
			continue
		}
		text := ""
		switch ct := m.Content.(type) {
		case *sdk.TextContent:
			text = ct.Text
		case *sdk.ImageContent:
			text = "[an image the model is not shown]"
		case *sdk.AudioContent:
			text = "[audio the model is not shown]"
		default:
			text = "[content the model is not shown]"
		}
		role := protocol.RoleUser
		if m.Role == "assistant" {
			role = protocol.RoleAssistant
		}
		msgs = append(msgs, protocol.ProviderMessage{Role: role, Content: text})
		fmt.Fprintf(&shown, "%s: %s\n", role, text)
	}
	return msgs, strings.TrimSuffix(shown.String(), "\n")
}
