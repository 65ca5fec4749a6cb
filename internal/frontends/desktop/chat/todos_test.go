package chat

import (
	"slices"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/core/tools/todo"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// The todo list is a checklist under the conversation: each change of the
// list shows at once (the running item as what is being done), a loaded
// chat shows its saved list, and a chat without one shows none.
func TestTodoChecklistFollowsTheList(t *testing.T) {
	h := newHarness(t)
	panel := h.d.transcript.view.todos
	h.ui(func() {
		if panel.box.Visible() {
			t.Error("a checklist shows before any list")
		}
	})
	h.d.Emit(agent.Event{Kind: agent.EventTodo, Todos: []todo.Item{
		{Content: "Read the code", Status: "completed"},
		{Content: "Fix the bug", Status: "in_progress", ActiveForm: "Fixing the bug"},
		{Content: "Run the tests", Status: "pending"},
	}})
	want := []string{"[x] Read the code", "[>] Fixing the bug", "[ ] Run the tests"}
	h.waitFor("the checklist", func() bool { return panel.box.Visible() && slices.Equal(panel.todoTexts(), want) })
	h.ui(func() {
		if got := panel.title.Text; got != "Plan · 1 of 3 done" {
			t.Errorf("title %q", got)
		}
	})
	h.d.transcript.SetTodos([]todo.Item{
		{Content: "Read the code", Status: "completed"},
		{Content: "Fix the bug", Status: "completed", ActiveForm: "Fixing the bug"},
		{Content: "Run the tests", Status: "in_progress", ActiveForm: "Running the tests"},
	})
	want = []string{"[x] Read the code", "[x] Fix the bug", "[>] Running the tests"}
	h.waitFor("the updated checklist", func() bool { return slices.Equal(panel.todoTexts(), want) })

	saved := agent.Session{Messages: []protocol.ProviderMessage{{Role: protocol.RoleUser, Content: "plan it"}},
		Todos: []todo.Item{{Content: "Write the docs", Status: "pending"}}}
	h.d.transcript.ShowSession(saved)
	h.waitFor("the saved chat's list", func() bool {
		return slices.Equal(panel.todoTexts(), []string{"[ ] Write the docs"})
	})
	h.d.transcript.ShowSession(agent.Session{Messages: saved.Messages})
	h.waitFor("no list", func() bool { return !panel.box.Visible() })
}
