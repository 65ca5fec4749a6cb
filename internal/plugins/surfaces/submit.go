package surfaces

import (
	"errors"
	"fmt"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// SubmitState is where a form's submission stands.
type SubmitState int

// Submission states: Idle → Pending (extension/ui/submit in flight) → Sent;
// Pending → Idle when the submit failed. A publish of the form resets it to
// Idle.
const (
	SubmitIdle SubmitState = iota
	SubmitPending
	SubmitSent
)

func (s SubmitState) String() string {
	switch s {
	case SubmitIdle:
		return "idle"
	case SubmitPending:
		return "pending"
	case SubmitSent:
		return "sent"
	}
	return fmt.Sprintf("SubmitState(%d)", int(s))
}

// Errors of the submission state machine.
var (
	ErrUnknownSurface    = errors.New("unknown surface")
	ErrNotForm           = errors.New("surface is not a form")
	ErrIllegalTransition = errors.New("illegal submit state transition")
)

func legal(from, to SubmitState) bool {
	switch from {
	case SubmitIdle:
		return to == SubmitPending
	case SubmitPending:
		return to == SubmitSent || to == SubmitIdle
	}
	return false
}

// SetSubmitState moves the form stored under k to st and emits Published.
// Legal moves: idle → pending, pending → sent, pending → idle. An unknown
// key, a non-form surface or any other move is an error and changes nothing.
func (s *Store) SetSubmitState(k Key, st SubmitState) error {
	s.mu.Lock()
	e, err := s.formLocked(k)
	if err == nil && !legal(e.surf.Submit, st) {
		err = fmt.Errorf("%w: %s → %s", ErrIllegalTransition, e.surf.Submit, st)
	}
	if err != nil {
		s.mu.Unlock()
		return err
	}
	e.surf.Submit = st
	s.queue = append(s.queue, Change{Kind: Published, Surface: e.surf})
	s.deliverLocked()
	return nil
}

// BeginSubmit validates the user's values for the form stored under k (the
// rules of Prompt.Answer for a custom form), moves it idle → pending and
// returns the extension/ui/submit params to send. Afterwards the caller sets
// SubmitSent on success or SubmitIdle on failure. Chosen options are the
// plugin's original strings. A form already pending or sent is refused with
// ErrIllegalTransition, so a double click submits once.
func (s *Store) BeginSubmit(k Key, values map[string]any) (protocol.UISubmitParams, error) {
	s.mu.Lock()
	e, err := s.formLocked(k)
	var out map[string]any
	if err == nil && !legal(e.surf.Submit, SubmitPending) {
		err = fmt.Errorf("%w: %s → %s", ErrIllegalTransition, e.surf.Submit, SubmitPending)
	}
	if err == nil {
		out, err = fieldSet{fields: e.surf.Form.Fields, orig: e.orig}.values(values, false)
	}
	if err != nil {
		s.mu.Unlock()
		return protocol.UISubmitParams{}, err
	}
	e.surf.Submit = SubmitPending
	s.queue = append(s.queue, Change{Kind: Published, Surface: e.surf})
	s.deliverLocked()
	return protocol.UISubmitParams{SurfaceID: k.SurfaceID, SessionID: k.SessionID, Generation: k.Generation, Values: out}, nil
}

func (s *Store) formLocked(k Key) (*entry, error) {
	e, ok := s.surfaces[k]
	switch {
	case !ok:
		return nil, fmt.Errorf("%w: %s %q", ErrUnknownSurface, k.Plugin, k.SurfaceID)
	case e.surf.Kind != protocol.PublishForm:
		return nil, fmt.Errorf("%w: %s %q is a %s", ErrNotForm, k.Plugin, k.SurfaceID, e.surf.Kind)
	}
	return e, nil
}
