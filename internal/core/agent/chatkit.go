package agent

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/reasonix/reasonix-desktop/internal/core/rewind"
	"github.com/reasonix/reasonix-desktop/internal/core/tools/shell"
	"github.com/reasonix/reasonix-desktop/internal/core/tools/todo"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// chatKit is what one chat owns besides its session: the model's todo
// list, the background jobs it started and its change journal. A new one
// is made whenever another chat becomes current (the jobs of the chat
// left are killed with it) and the last one is closed with the core.
type chatKit struct {
	sessionID string
	dir       string // the change journal's directory (beside the session file)
	todos     *todo.List
	jobs      *shell.Jobs
	tools     []Tool // the todo tool and the job tools, bound to this chat

	mu      sync.Mutex
	journal *rewind.Journal // opened at the first change or rewind
}

// newChatKit makes the kit of session s (its saved todo list restored).
func (c *Core) newChatKit(s *Session) *chatKit {
	k := &chatKit{sessionID: s.ID, todos: &todo.List{},
		dir:  strings.TrimSuffix(c.sessions.Path(s.ID), ".json") + ".changes",
		jobs: shell.NewJobs(s.WorkspaceRoot, c.log)}
	k.todos.Set(slices.Clone(s.Todos))
	todoTool := k.todos.Tool(func(items []todo.Item) { c.todosChanged(k, items) })
	todoTool.ReadOnly = true // it changes the chat's own list, nothing of the user's
	k.tools = withPolicy(append([]Tool{todoTool}, k.jobs.Tools()...))
	return k
}

// close kills the chat's jobs.
func (k *chatKit) close() {
	if k != nil {
		k.jobs.Close()
	}
}

// journalOf opens the kit's journal once.
func (k *chatKit) journalOf() (*rewind.Journal, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.journal == nil {
		j, err := rewind.Open(filepath.Clean(k.dir))
		if err != nil {
			return nil, fmt.Errorf("the chat's change journal: %w", err)
		}
		k.journal = j
	}
	return k.journal, nil
}

// kit is the current chat's kit.
func (c *Core) kit() *chatKit {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.chat
}

// switchKit gives the chat s just made current its own kit, closing the
// one of the chat left.
func (c *Core) switchKit(s *Session) {
	k := c.newChatKit(s)
	c.mu.Lock()
	old := c.chat
	c.chat = k
	c.mu.Unlock()
	old.close()
}

// todosChanged keeps the list the model set in the session (saved with
// it) and shows it. A change from a chat no longer current is dropped.
func (c *Core) todosChanged(k *chatKit, items []todo.Item) {
	items = redactTodos(items)
	c.mu.Lock()
	current := c.chat == k && c.session.ID == k.sessionID
	if current {
		c.session.Todos = items
	}
	c.mu.Unlock()
	if current {
		c.fe.Emit(Event{Kind: EventTodo, SessionID: k.sessionID, Todos: slices.Clone(items)})
	}
}

// emitTodos shows a loaded chat's list (nothing when it has none).
func (c *Core) emitTodos() {
	s := c.Session()
	if len(s.Todos) > 0 {
		c.fe.Emit(Event{Kind: EventTodo, SessionID: s.ID, Todos: slices.Clone(s.Todos)})
	}
}

func redactTodos(items []todo.Item) []todo.Item {
	out := make([]todo.Item, len(items))
	for i, it := range items {
		it.Content, it.ActiveForm = redact.String(it.Content), redact.String(it.ActiveForm)
		out[i] = it
	}
	return out
}

// runningCalls are the tool calls running now, each with its own cancel so
// StopCall ends one and the turn goes on (Core.mu). A subagent's calls run
// inside its run_skill call and may reuse an id the outer model used, so
// an id may name more than one: StopCall stops them all (the inner one
// runs under the outer one anyway).
type runningCalls map[string][]*context.CancelCauseFunc

// errStoppedByUser is a call's cancel cause when StopCall ended it; its
// text is the run_command tool's own ("stopped by the user").
var errStoppedByUser = errors.New("stopped by the user")

// StopCall stops one running tool call: its context is cancelled (a
// command's process group is killed) and the turn goes on with "stopped by
// the user" as the call's result. False when no such call is running.
func (c *Core) StopCall(callID string) bool {
	c.mu.Lock()
	cancels := slices.Clone(c.calls[callID])
	c.mu.Unlock()
	for _, cancel := range cancels {
		(*cancel)(errStoppedByUser)
	}
	return len(cancels) > 0
}

// callContext is a running call's own context, registered for StopCall
// until done is called.
func (c *Core) callContext(ctx context.Context, callID string) (_ context.Context, done func()) {
	cctx, cancel := context.WithCancelCause(ctx)
	entry := &cancel
	c.mu.Lock()
	if c.calls == nil {
		c.calls = runningCalls{}
	}
	c.calls[callID] = append(c.calls[callID], entry)
	c.mu.Unlock()
	return cctx, func() {
		c.mu.Lock()
		rest := slices.DeleteFunc(c.calls[callID], func(e *context.CancelCauseFunc) bool { return e == entry })
		if len(rest) == 0 {
			delete(c.calls, callID)
		} else {
			c.calls[callID] = rest
		}
		c.mu.Unlock()
		cancel(nil)
	}
}
