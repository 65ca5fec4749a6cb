package agent

import (
	"context"
	"encoding/json"
	"time"

	"github.com/reasonix/reasonix-desktop/protocol"

	"github.com/reasonix/reasonix-desktop/internal/foundation/textwidth"
)

// ContextUse is what the next request would send, against the model's
// context window.
type ContextUse struct {
	// Tokens is the estimate of the system prompt, the history the
	// request would carry (after the compactions so far) and the tool
	// schemas.
	Tokens int64
	// Window is the model's context window (0 unknown).
	Window int64
	// Measured: Tokens starts from the provider's own count of the last
	// request (its usage: prompt plus the reply, less reasoning that is
	// not sent back) plus an estimate of what was added since; false, it
	// is all estimated (see estimateText).
	Measured bool
}

// catalogWait bounds how long ContextUse waits for the model catalog (it
// is cached after the plugin's first answer).
const catalogWait = 2 * time.Second

// ContextUse estimates what the next request of the current chat sends.
// It may wait for the plugin's model catalog (cached after its first
// answer, at most 2 s): call it off the UI goroutine. Not counted: what
// plugins add at the system prompt and context hooks of the next turn.
func (c *Core) ContextUse() ContextUse {
	s := c.Session()
	var out ContextUse
	ctx, cancel := context.WithTimeout(context.Background(), catalogWait)
	defer cancel()
	if models, _ := c.Models(ctx); models != nil {
		for _, m := range models {
			if m.ID == s.Model {
				out.Window = m.ContextWindow
			}
		}
	}
	// The last reply's usage counted everything up to and including it.
	for i := len(s.Notes) - 1; i >= 0; i-- {
		n := s.Notes[i]
		if n.Kind != NoteUsage || n.Usage == nil || n.After > len(s.Messages) {
			continue
		}
		u := n.Usage
		out.Tokens = u.PromptTokens + u.CompletionTokens - u.ReasoningTokens + estimateMessages(s.Messages[n.After:])
		out.Measured = true
		return out
	}
	out.Tokens = estimateText(c.systemPrompt()) + estimateMessages(s.ForModel())
	for _, t := range c.toolset() {
		if data, err := json.Marshal(t.Schema()); err == nil {
			out.Tokens += estimateText(string(data))
		}
	}
	return out
}

// estimateMessages estimates messages' tokens (see estimateText), with a
// few tokens of framing each.
func estimateMessages(ms []protocol.ProviderMessage) int64 {
	var n int64
	for _, m := range ms {
		n += 4 + estimateText(m.Content) + estimateText(m.ReasoningContent)
		for _, tc := range m.ToolCalls {
			n += estimateText(tc.Name) + estimateText(tc.Arguments)
		}
	}
	return n
}

// estimateText estimates text's tokens by DeepSeek's published rule of
// thumb (api-docs.deepseek.com, "Token & Token Usage"): about 0.3 token an
// English character and 0.6 a Chinese one. Other CJK and symbols count as
// Chinese; the servers' own tokenizers differ by a few tens of percent,
// which is why a measured count is preferred when there is one.
func estimateText(s string) int64 {
	var latin, cjk int64
	for _, r := range s {
		switch {
		case r < 0x80:
			latin++
		case textwidth.CJK(r) || textwidth.CJKPunct(r):
			cjk++
		default:
			latin += 2 // accented letters and other scripts split into more pieces
		}
	}
	return (latin*3 + cjk*6 + 9) / 10
}
