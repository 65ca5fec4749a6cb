package mcp

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// MaxResourceBytes bounds the text one @ reference attaches: a resource is
// context for one message, not a way to fill the model's window.
const MaxResourceBytes = 256 << 10

// reference is "@<server>:<uri>" (Claude Code's form for MCP resources) at
// the start of the text or after a blank; the URI runs to the next blank.
var reference = regexp.MustCompile(`(^|\s)@([A-Za-z0-9][A-Za-z0-9_.-]{0,63}):(\S+)`)

// Reference is one @server:uri in a message.
type Reference struct{ Server, URI string }

// References finds the @server:uri references of text that name a server
// of the Manager (anything else, an e-mail address, "@alice:", is text).
// Punctuation ending a sentence is not part of the URI.
func (m *Manager) References(text string) []Reference {
	var out []Reference
	seen := map[Reference]bool{}
	for _, g := range reference.FindAllStringSubmatch(text, -1) {
		r := Reference{Server: g[2], URI: strings.TrimRight(g[3], ".,;:!?)]}'\"")}
		if r.URI == "" || m.get(r.Server) == nil || seen[r] {
			continue
		}
		seen[r] = true
		out = append(out, r)
	}
	return out
}

// ReadResource reads a resource of a ready server as text (bounded by
// the call timeout): each text content as is, a binary one described.
// The text is the server's, redacted.
func (m *Manager) ReadResource(ctx context.Context, r Reference) (string, error) {
	name := "@" + r.Server + ":" + r.URI
	s := m.get(r.Server)
	if s == nil {
		return "", fmt.Errorf("%s: no server %q", name, r.Server)
	}
	session, err := s.live()
	if err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	ctx, cancel := context.WithTimeout(ctx, m.opts.Call)
	defer cancel()
	res, err := session.ReadResource(ctx, &sdk.ReadResourceParams{URI: r.URI})
	if err != nil {
		return "", fmt.Errorf("%s: resources/read: %s", name, redact.String(err.Error()))
	}
	var parts []string
	for _, c := range res.Contents {
		switch {
		case c == nil:
		case c.Text != "" || len(c.Blob) == 0:
			parts = append(parts, c.Text)
		default:
			parts = append(parts, fmt.Sprintf("[binary %s, %d bytes]", c.MIMEType, len(c.Blob)))
		}
	}
	text := strings.Join(parts, "\n")
	if len(text) > MaxResourceBytes {
		text = text[:MaxResourceBytes] + fmt.Sprintf("\n[cut at %d bytes]", MaxResourceBytes)
	}
	return redact.String(text), nil
}

// ExpandMessage attaches the resources a message references: the message
// as typed, then each resource's text in a <resource server=… uri=…>
// block. A reference that cannot be read fails the message, naming it
// (sending it without the context the user asked for would answer a
// different question).
func (m *Manager) ExpandMessage(ctx context.Context, text string) (string, error) {
	refs := m.References(text)
	if len(refs) == 0 {
		return text, nil
	}
	var b strings.Builder
	b.WriteString(text)
	for _, r := range refs {
		open := fmt.Sprintf("<resource server=%q uri=%q>", r.Server, r.URI)
		if strings.Contains(text, open) {
			continue // already attached: a retry sends the expanded message again
		}
		body, err := m.ReadResource(ctx, r)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\n\n%s\n%s\n</resource>", open, body)
	}
	return b.String(), nil
}
