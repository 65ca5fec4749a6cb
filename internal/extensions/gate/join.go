package gate

import "context"

// Join is one Set made of several (xdev and the hooks bus, MCP servers):
// gates, tools and commands in the order of the sets, notifications and
// Close to each. A nil set is skipped.
func Join(sets ...Set) Set {
	var j joined
	for _, s := range sets {
		if s != nil {
			j = append(j, s)
		}
	}
	return j
}

type joined []Set

func (j joined) Gates() []ToolGate {
	var out []ToolGate
	for _, s := range j {
		out = append(out, s.Gates()...)
	}
	return out
}

func (j joined) Tools() []Tool {
	var out []Tool
	for _, s := range j {
		out = append(out, s.Tools()...)
	}
	return out
}

func (j joined) Commands() []Command {
	var out []Command
	for _, s := range j {
		out = append(out, s.Commands()...)
	}
	return out
}

func (j joined) SessionStarted(ctx context.Context, id string) {
	for _, s := range j {
		s.SessionStarted(ctx, id)
	}
}

func (j joined) TurnEnded(ctx context.Context, id string) {
	for _, s := range j {
		s.TurnEnded(ctx, id)
	}
}

func (j joined) Close(ctx context.Context) {
	for _, s := range j {
		s.Close(ctx)
	}
}

// ExtensionStatus makes a joined set a Reporter: the statuses of the sets
// that can describe themselves, in order (the plugin manager and the
// renderers of xdev commands read them through it).
func (j joined) ExtensionStatus() []Status {
	var out []Status
	for _, s := range j {
		if r, ok := s.(Reporter); ok {
			out = append(out, r.ExtensionStatus()...)
		}
	}
	return out
}

var _ Reporter = joined(nil)

// MessageExpander is a Set that adds to the user's message before its turn
// (MCP resources a message references as @server:uri). ExpandMessage is
// called on the sending goroutine, may wait on a server and honours ctx; an
// error fails the message before its turn starts.
type MessageExpander interface {
	ExpandMessage(ctx context.Context, text string) (string, error)
}

// ExpandMessage runs the sets that expand messages, in order.
func (j joined) ExpandMessage(ctx context.Context, text string) (string, error) {
	for _, s := range j {
		if x, ok := s.(MessageExpander); ok {
			var err error
			if text, err = x.ExpandMessage(ctx, text); err != nil {
				return "", err
			}
		}
	}
	return text, nil
}

var _ MessageExpander = joined(nil)
