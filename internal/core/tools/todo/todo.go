// Package todo is the agent's task list: the real host's todo_write tool,
// whose call carries the whole list (the model re-sends it on every
// change), kept per chat so the window shows it as a live checklist and a
// reloaded chat shows it again.
package todo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/reasonix/reasonix-desktop/internal/extensions/gate"
)

// Item is one task of the list.
type Item struct {
	Content    string `json:"content"`
	Status     string `json:"status"` // pending|in_progress|completed
	ActiveForm string `json:"activeForm,omitempty"`
}

// Statuses an item may have.
const (
	Pending    = "pending"
	InProgress = "in_progress"
	Completed  = "completed"
)

// MaxItems bounds a list: a checklist longer than this is not a plan.
const MaxItems = 100

// List is one chat's task list. Safe for concurrent use.
type List struct {
	mu    sync.Mutex // guards items
	items []Item
	// notify orders the onChange calls as the changes were made, and is
	// never held by Items, so an onChange that reads the list cannot wedge.
	notify sync.Mutex
}

// Items is a copy of the list.
func (l *List) Items() []Item {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.items)
}

// Set replaces the list without a call (a saved session restored).
func (l *List) Set(items []Item) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.items = slices.Clone(items)
}

const description = "Record and update a structured task list for the current work. Send the COMPLETE list every call — it replaces the previous one. " +
	"Use it to plan multi-step work and show progress: keep exactly one item in_progress at a time, and flip an item to completed the moment it's done (don't batch completions). " +
	"Skip it for trivial single-step tasks. Each item has `content` (imperative, e.g. \"Add the parser\"), `status` (pending|in_progress|completed), " +
	"and `activeForm` (present-continuous shown while in progress, e.g. \"Adding the parser\")."

const schema = `{"type":"object","properties":{"todos":{"type":"array","description":"The complete task list, in order. Replaces any previous list.",` +
	`"items":{"type":"object","properties":{` +
	`"content":{"type":"string","description":"Imperative description of the task."},` +
	`"status":{"type":"string","enum":["pending","in_progress","completed"],"description":"Task state. Keep at most one in_progress."},` +
	`"activeForm":{"type":"string","description":"Present-continuous form shown while the task is in progress (e.g. \"Running tests\")."}` +
	`},"required":["content","status"]}}},"required":["todos"]}`

// Tool is the real host's todo_write over this list. onChange (may be nil)
// gets the new list after each accepted call, in the order of the calls.
// The tool only records: it reads and writes nothing, so it needs no
// approval (ReadOnly).
func (l *List) Tool(onChange func([]Item)) gate.Tool {
	return gate.Tool{Name: "todo_write", Description: description, Parameters: json.RawMessage(schema), ReadOnly: true,
		Run: func(_ context.Context, _ string, raw json.RawMessage) (string, error) {
			return l.write(raw, onChange)
		}}
}

func (l *List) write(raw json.RawMessage, onChange func([]Item)) (string, error) {
	// Lenient decoding, as the real host's: a "level" (its two-level
	// lists) or another field a model adds is ignored, not a failure.
	var a struct {
		Todos *[]Item `json:"todos"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return "", fmt.Errorf("invalid args: %w", err)
	}
	if a.Todos == nil {
		return "", errors.New("todos is required: send the complete list")
	}
	items, counts, err := validate(*a.Todos)
	if err != nil {
		return "", err
	}
	l.notify.Lock()
	defer l.notify.Unlock()
	l.mu.Lock()
	l.items = items
	l.mu.Unlock()
	if onChange != nil {
		onChange(slices.Clone(items))
	}
	return fmt.Sprintf("Todos updated: %d total — %d completed, %d in progress, %d pending.",
		len(items), counts[Completed], counts[InProgress], counts[Pending]), nil
}

// validate checks a list as the real host does (content required, a
// known status, at most one item in progress) and returns it normalised:
// an empty status is pending, spaces around the texts trimmed.
func validate(in []Item) ([]Item, map[string]int, error) {
	if len(in) > MaxItems {
		return nil, nil, fmt.Errorf("%d todos: a list keeps at most %d", len(in), MaxItems)
	}
	out := make([]Item, len(in))
	counts := map[string]int{}
	current := 0
	for i, t := range in {
		t.Content, t.ActiveForm = strings.TrimSpace(t.Content), strings.TrimSpace(t.ActiveForm)
		t.Status = strings.TrimSpace(t.Status)
		if t.Content == "" {
			return nil, nil, fmt.Errorf("todo %d: content is required", i+1)
		}
		switch t.Status {
		case "":
			t.Status = Pending
		case Pending, Completed:
		case InProgress:
			if current > 0 {
				return nil, nil, fmt.Errorf("todo %d %q is a second in_progress item; keep exactly one item in_progress at a time", i+1, t.Content)
			}
			current = i + 1
		default:
			return nil, nil, fmt.Errorf("todo %d: invalid status %q (want pending|in_progress|completed)", i+1, t.Status)
		}
		counts[t.Status]++
		out[i] = t
	}
	return out, counts, nil
}
