package uikit

// ModalStack is a window's open dialogs that take its Esc and Enter, the
// top one answering. A dialog registers with Push when it opens and calls
// the returned pop when it closes, however it closes. Fyne gives keys to
// the focused widget first and to the window's canvas only when nothing
// has the focus, so a window routes its canvas keys here. The zero value
// is empty. UI goroutine only.
type ModalStack struct {
	open []*modal
}

type modal struct {
	cancel, confirm func()
}

// Push registers a dialog's cancel (Esc) and confirm (Enter; nil when
// Enter must not answer it, as for a destructive confirmation). pop is
// idempotent.
func (s *ModalStack) Push(cancel, confirm func()) (pop func()) {
	m := &modal{cancel: cancel, confirm: confirm}
	s.open = append(s.open, m)
	return func() {
		for i, x := range s.open {
			if x == m {
				s.open = append(s.open[:i], s.open[i+1:]...)
				return
			}
		}
	}
}

// Len is how many dialogs take the keys.
func (s *ModalStack) Len() int { return len(s.open) }

// Cancel is Esc: the top dialog's cancel; false when none is open.
func (s *ModalStack) Cancel() bool {
	n := len(s.open)
	if n == 0 {
		return false
	}
	if c := s.open[n-1].cancel; c != nil {
		c()
	}
	return true
}

// Confirm is Enter: the top dialog's confirm; false when none is open (a
// dialog without one still takes the key).
func (s *ModalStack) Confirm() bool {
	n := len(s.open)
	if n == 0 {
		return false
	}
	if c := s.open[n-1].confirm; c != nil {
		c()
	}
	return true
}

// CancelAll cancels every open dialog, the top first (the window is
// closing: a fetch behind one must stop).
func (s *ModalStack) CancelAll() {
	open := append([]*modal(nil), s.open...)
	for i := len(open) - 1; i >= 0; i-- {
		if c := open[i].cancel; c != nil {
			c()
		}
	}
	s.open = nil
}
