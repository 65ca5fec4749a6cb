package uikit

import (
	"slices"
	"testing"
)

func TestModalStack(t *testing.T) {
	var s ModalStack
	var got []string
	note := func(what string) func() { return func() { got = append(got, what) } }
	if s.Cancel() || s.Confirm() {
		t.Fatal("an empty stack took a key")
	}
	popA := s.Push(note("cancel a"), note("confirm a"))
	popB := s.Push(note("cancel b"), nil) // Enter must not answer b
	if !s.Confirm() || !s.Cancel() {
		t.Fatal("an open dialog did not take the keys")
	}
	popB()
	popB() // idempotent: a second pop removes nothing else
	s.Cancel()
	s.Confirm()
	popA()
	if s.Len() != 0 || s.Cancel() {
		t.Errorf("%d dialogs left after both closed", s.Len())
	}
	want := []string{"cancel b", "cancel a", "confirm a"}
	if !slices.Equal(got, want) {
		t.Errorf("keys reached %v, want %v", got, want)
	}

	got = nil
	s.Push(note("cancel 1"), nil)
	s.Push(note("cancel 2"), nil)
	s.CancelAll()
	if want := []string{"cancel 2", "cancel 1"}; !slices.Equal(got, want) || s.Len() != 0 {
		t.Errorf("CancelAll cancelled %v (%d left), want %v", got, s.Len(), want)
	}
}
