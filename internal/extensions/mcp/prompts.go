package mcp

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// Prompt is a prompt of a ready server, offered to the user as the slash
// command /mcp__<server>__<prompt> (the Reasonix host's name for it).
type Prompt struct {
	Command     string // "/mcp__<server>__<prompt>"
	Server      string
	Name        string // the server's own name for it
	Description string // redacted
	Args        []PromptArg
}

// PromptArg is one argument a prompt declares, in the server's order.
type PromptArg struct {
	Name, Description string
	Required          bool
}

// PromptCommand is the slash command of a server's prompt.
func PromptCommand(server, prompt string) string { return "/" + ToolName(server, prompt) }

// Usage is the command with its arguments, for a command list:
// "/mcp__ev__args-prompt city [state]".
func (p Prompt) Usage() string {
	var b strings.Builder
	b.WriteString(p.Command)
	for _, a := range p.Args {
		if a.Required {
			fmt.Fprintf(&b, " %s", a.Name)
		} else {
			fmt.Fprintf(&b, " [%s]", a.Name)
		}
	}
	return b.String()
}

// ParseArgs reads a prompt command's arguments: key=value pairs naming
// declared arguments, or bare values taken by the declared arguments in
// order (the Reasonix host's positional form); the two mix, a bare value
// going to the first argument not yet given. Values may be quoted ("a b").
// A missing required argument or an unknown key is an error naming it.
func (p Prompt) ParseArgs(line string) (map[string]string, error) {
	words, err := splitWords(line)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Command, err)
	}
	declared := map[string]bool{}
	for _, a := range p.Args {
		declared[a.Name] = true
	}
	out := map[string]string{}
	var bare []string
	for _, w := range words {
		if k, v, ok := strings.Cut(w, "="); ok && declared[k] {
			out[k] = v
			continue
		} else if ok && !strings.ContainsAny(k, " \t") && k != "" && len(p.Args) > 0 && !declared[k] {
			return nil, fmt.Errorf("%s: no argument %q (it takes %s)", p.Command, k, p.argNames())
		}
		bare = append(bare, w)
	}
	for _, a := range p.Args {
		if len(bare) == 0 {
			break
		}
		if _, given := out[a.Name]; !given {
			out[a.Name], bare = bare[0], bare[1:]
		}
	}
	if len(bare) > 0 {
		if len(p.Args) == 0 {
			return nil, fmt.Errorf("%s takes no arguments", p.Command)
		}
		// The last argument takes the rest, as typed text would read.
		last := p.Args[len(p.Args)-1].Name
		out[last] = strings.Join(append([]string{out[last]}, bare...), " ")
	}
	for _, a := range p.Args {
		if _, ok := out[a.Name]; a.Required && !ok {
			return nil, fmt.Errorf("%s: argument %q is required (usage: %s)", p.Command, a.Name, p.Usage())
		}
	}
	return out, nil
}

func (p Prompt) argNames() string {
	names := make([]string, len(p.Args))
	for i, a := range p.Args {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}

// splitWords splits on blanks, keeping "double quoted" runs together
// (k="a b" is one word, k=a b).
func splitWords(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	in, started := false, false
	for _, r := range s {
		switch {
		case r == '"':
			in, started = !in, true
		case !in && (r == ' ' || r == '\t' || r == '\n'):
			if started {
				out = append(out, cur.String())
				cur.Reset()
				started = false
			}
		default:
			cur.WriteRune(r)
			started = true
		}
	}
	if in {
		return nil, errors.New("unterminated quote")
	}
	if started {
		out = append(out, cur.String())
	}
	return out, nil
}

// Prompts is every prompt of every ready server, by command.
func (m *Manager) Prompts() []Prompt {
	var out []Prompt
	for _, s := range m.sorted() {
		s.mu.Lock()
		out = append(out, s.prompts...)
		s.mu.Unlock()
	}
	return out
}

// Prompt finds a ready server's prompt by its command.
func (m *Manager) Prompt(command string) (Prompt, bool) {
	for _, p := range m.Prompts() {
		if p.Command == command {
			return p, true
		}
	}
	return Prompt{}, false
}

// GetPrompt runs prompts/get and returns the prompt's messages as one
// text, the message the user sends: each message's text (a resource's
// text, other content described), a non-user message marked with its role.
// It is bounded by the call timeout. The text is the server's, unredacted:
// it becomes the user's own message, which the model sees as typed.
func (m *Manager) GetPrompt(ctx context.Context, p Prompt, args map[string]string) (string, error) {
	s := m.get(p.Server)
	if s == nil {
		return "", fmt.Errorf("%s: no server %q", p.Command, p.Server)
	}
	session, err := s.live()
	if err != nil {
		return "", fmt.Errorf("%s: %w", p.Command, err)
	}
	ctx, cancel := context.WithTimeout(ctx, m.opts.Call)
	defer cancel()
	res, err := session.GetPrompt(ctx, &sdk.GetPromptParams{Name: p.Name, Arguments: args})
	if err != nil {
		return "", fmt.Errorf("%s: prompts/get: %s", p.Command, redact.String(err.Error()))
	}
	var parts []string
	for _, msg := range res.Messages {
		if msg == nil || msg.Content == nil {
			continue
		}
		text := contentText(msg.Content)
		if msg.Role != "" && msg.Role != "user" {
			text = fmt.Sprintf("[%s]\n%s", msg.Role, text)
		}
		parts = append(parts, text)
	}
	if len(parts) == 0 {
		return "", fmt.Errorf("%s: the server's prompt has no messages", p.Command)
	}
	return strings.Join(parts, "\n\n"), nil
}

// listPrompts pages through prompts/list (a server without the prompts
// capability has none).
func (s *server) listPrompts(ctx context.Context, session *sdk.ClientSession) ([]Prompt, error) {
	if ir := session.InitializeResult(); ir == nil || ir.Capabilities == nil || ir.Capabilities.Prompts == nil {
		return nil, nil
	}
	var out []Prompt
	for p, err := range session.Prompts(ctx, nil) {
		if err != nil {
			return nil, err
		}
		if p == nil || p.Name == "" || strings.ContainsAny(p.Name, " \t\r\n") {
			continue // not something a command line can name
		}
		pr := Prompt{Command: PromptCommand(s.cfg.Name, p.Name), Server: s.cfg.Name, Name: p.Name,
			Description: redact.String(firstNonEmpty(p.Description, p.Title))}
		for _, a := range p.Arguments {
			if a != nil && a.Name != "" {
				pr.Args = append(pr.Args, PromptArg{Name: a.Name, Description: redact.String(a.Description), Required: a.Required})
			}
		}
		out = append(out, pr)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Command < out[j].Command })
	return out, nil
}

func firstNonEmpty(v ...string) string {
	for _, s := range v {
		if s != "" {
			return s
		}
	}
	return ""
}

// refreshPrompts re-lists session's prompts after
// notifications/prompts/list_changed.
func (s *server) refreshPrompts(session *sdk.ClientSession) {
	ctx, cancel := context.WithTimeout(context.Background(), s.m.opts.Handshake)
	defer cancel()
	prompts, err := s.listPrompts(ctx, session)
	if err != nil {
		s.m.log.Warn("mcp prompts/list after list_changed failed", "server", s.cfg.Name, "err", redact.String(err.Error()))
		return
	}
	s.mu.Lock()
	if s.session == session {
		s.prompts = prompts
	}
	s.mu.Unlock()
	s.m.changed()
}

// live is the server's session, or why there is none.
func (s *server) live() (*sdk.ClientSession, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.session == nil {
		if s.err != nil {
			return nil, fmt.Errorf("%w (%s: %v)", ErrNotReady, s.state, s.err)
		}
		return nil, fmt.Errorf("%w (%s)", ErrNotReady, s.state)
	}
	return s.session, nil
}
