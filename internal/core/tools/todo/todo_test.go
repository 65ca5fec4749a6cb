package todo

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"
)

func TestTodoWrite(t *testing.T) {
	for _, tc := range []struct {
		name, args string
		want       []Item // nil: refused
		result     string // the ack, or a part of the error
	}{
		{"a plan", `{"todos":[{"content":"Add the parser","status":"completed"},{"content":"Test it","status":"in_progress","activeForm":"Testing it"},{"content":"Ship","status":"pending"}]}`,
			[]Item{{"Add the parser", Completed, ""}, {"Test it", InProgress, "Testing it"}, {"Ship", Pending, ""}},
			"Todos updated: 3 total — 1 completed, 1 in progress, 1 pending."},
		{"empty status is pending, spaces trimmed, unknown fields ignored", `{"todos":[{"content":"  Read  ","status":"","level":1}]}`,
			[]Item{{"Read", Pending, ""}}, "Todos updated: 1 total — 0 completed, 0 in progress, 1 pending."},
		{"an empty list clears it", `{"todos":[]}`, []Item{}, "Todos updated: 0 total — 0 completed, 0 in progress, 0 pending."},
		{"two in progress", `{"todos":[{"content":"a","status":"in_progress"},{"content":"b","status":"in_progress"}]}`,
			nil, `todo 2 "b" is a second in_progress item`},
		{"no content", `{"todos":[{"content":" ","status":"pending"}]}`, nil, "todo 1: content is required"},
		{"bad status", `{"todos":[{"content":"a","status":"done"}]}`, nil, `todo 1: invalid status "done" (want pending|in_progress|completed)`},
		{"no list", `{}`, nil, "todos is required"},
		{"not JSON", `{"todos":`, nil, "invalid args"},
		{"too long", `{"todos":[` + strings.Repeat(`{"content":"x","status":"pending"},`, MaxItems) + `{"content":"x","status":"pending"}]}`, nil, "at most 100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l List
			before := []Item{{"kept", Pending, ""}}
			l.Set(before)
			var got [][]Item
			tool := l.Tool(func(items []Item) { got = append(got, items) })
			if tool.Name != "todo_write" || !tool.ReadOnly {
				t.Fatalf("tool %s read-only %v", tool.Name, tool.ReadOnly)
			}
			out, err := tool.Run(t.Context(), "", json.RawMessage(tc.args))
			if tc.want == nil {
				if err == nil || !strings.Contains(err.Error(), tc.result) {
					t.Fatalf("error %v, want one with %q", err, tc.result)
				}
				if len(got) != 0 || !reflect.DeepEqual(l.Items(), before) {
					t.Fatalf("a refused call changed the list: %v %v", got, l.Items())
				}
				return
			}
			if err != nil || out != tc.result {
				t.Fatalf("%q %v, want %q", out, err, tc.result)
			}
			if !reflect.DeepEqual(l.Items(), tc.want) || len(got) != 1 || !reflect.DeepEqual(got[0], tc.want) {
				t.Fatalf("items %v, onChange %v, want %v", l.Items(), got, tc.want)
			}
		})
	}
}

// The list handed out is a copy, Set restores one, and an onChange that
// reads the list does not wedge the tool.
func TestListCopiesAndReentrancy(t *testing.T) {
	var l List
	l.Set([]Item{{"a", Pending, ""}})
	l.Items()[0].Content = "changed"
	if l.Items()[0].Content != "a" {
		t.Fatal("Items shares the list")
	}
	seen := make(chan []Item, 10)
	tool := l.Tool(func([]Item) { seen <- l.Items() })
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Go(func() {
			args := `{"todos":[{"content":"step ` + string(rune('0'+i)) + `","status":"in_progress"}]}`
			if _, err := tool.Run(t.Context(), "", json.RawMessage(args)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if len(seen) != 5 {
		t.Fatalf("%d changes seen", len(seen))
	}
	// The last change reported is the list as it is.
	var last []Item
	for range 5 {
		last = <-seen
	}
	if !reflect.DeepEqual(last, l.Items()) {
		t.Fatalf("last change %v, list %v", last, l.Items())
	}
}

func TestSchemaIsAnObject(t *testing.T) {
	var l List
	var s map[string]any
	if err := json.Unmarshal(l.Tool(nil).Parameters, &s); err != nil || s["type"] != "object" {
		t.Fatal(err)
	}
}
