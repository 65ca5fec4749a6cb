package surfaces

import (
	"cmp"
	"slices"
	"sync"
	"time"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// NotificationCap is how many notifications are kept per plugin; publishing
// one more drops the oldest (by first publish).
const NotificationCap = 100

// Key identifies a surface: a publish with the same key replaces in place.
type Key struct {
	Plugin, SurfaceID, SessionID string
	Generation                   int64
}

// Surface is one stored, redacted surface. Exactly one payload pointer is
// set, matching Kind. Payloads are shared between copies: read-only.
type Surface struct {
	Key          Key
	Kind         protocol.PublishKind
	Status       *protocol.StatusPayload
	Card         *protocol.CardPayload
	Form         *protocol.FormPayload
	Notification *protocol.NotificationPayload
	Version      uint64      // 1 on the first publish of the key, +1 on every replace
	Updated      time.Time   // time of the last publish
	Submit       SubmitState // forms only; a replace resets it to SubmitIdle
}

// Binding is what the host currently accepts: the session and the runtime
// generation surfaces and prompts must carry.
type Binding struct {
	SessionID  string
	Generation int64
}

// PluginState is what the gate needs to know about a plugin.
type PluginState int

// Plugin states.
const (
	PluginUnknown PluginState = iota
	PluginActive
	PluginCrashed
)

func (p PluginState) String() string {
	switch p {
	case PluginActive:
		return "active"
	case PluginCrashed:
		return "crashed"
	}
	return "unknown"
}

// PluginLookup reports the state of a plugin by name.
type PluginLookup func(plugin string) PluginState

// ChangeKind says what happened to the store.
type ChangeKind int

// Change kinds.
const (
	// Published: a surface was inserted or replaced, or its submit state
	// changed. Change.Surface is the new state.
	Published ChangeKind = iota + 1
	// Removed: a surface was dismissed or evicted (notification cap).
	// Change.Surface is what was removed.
	Removed
	// Cleared: the binding changed; every surface not of the new binding
	// is gone. Change.Generation is the newly bound generation.
	Cleared
)

func (k ChangeKind) String() string {
	switch k {
	case Published:
		return "published"
	case Removed:
		return "removed"
	case Cleared:
		return "cleared"
	}
	return "unknown"
}

// Change is one store change delivered to listeners.
type Change struct {
	Kind       ChangeKind
	Surface    Surface // Published, Removed
	Generation int64   // Cleared
}

// Listener receives changes in the order they happened. It runs outside the
// store lock, so it may read the store (Get, Surfaces) and may even mutate
// it: a change caused from inside a listener is delivered after the
// listener returns. Listeners should be quick — the desktop one coalesces.
type Listener func(Change)

// entry is a stored surface plus what must not be shown: the plugin's
// original options of a form (see redactForm).
type entry struct {
	surf Surface
	orig [][]string
}

// Store is the keyed surface store. It is safe for concurrent use.
type Store struct {
	lookup PluginLookup
	now    func() time.Time

	mu       sync.RWMutex
	binding  Binding
	surfaces map[Key]*entry
	notes    map[string][]Key // per plugin, stored notifications oldest first

	listeners []listener // copy-on-write
	nextID    int

	// delivery: changes are queued under mu and delivered, in order, by
	// whichever caller finds no delivery running.
	queue, spare []Change
	delivering   bool
}

type listener struct {
	id int
	fn Listener
}

// NewStore returns an empty store gated by lookup. A nil lookup knows no
// plugin, so every publish and request is refused.
func NewStore(lookup PluginLookup) *Store {
	if lookup == nil {
		lookup = func(string) PluginState { return PluginUnknown }
	}
	return &Store{
		lookup:   lookup,
		now:      time.Now,
		surfaces: map[Key]*entry{},
		notes:    map[string][]Key{},
	}
}

// Bind sets what the store accepts. Every stored surface of another
// generation or session is removed and one Cleared change is emitted. Binding
// the current binding again does nothing.
func (s *Store) Bind(b Binding) {
	s.mu.Lock()
	removed := 0
	for k := range s.surfaces {
		if k.Generation != b.Generation || k.SessionID != b.SessionID {
			delete(s.surfaces, k)
			removed++
		}
	}
	if removed == 0 && b == s.binding {
		s.mu.Unlock()
		return
	}
	s.binding = b
	if removed > 0 {
		for p, keys := range s.notes {
			keys = slices.DeleteFunc(keys, func(k Key) bool { return s.surfaces[k] == nil })
			if len(keys) == 0 {
				delete(s.notes, p)
			} else {
				s.notes[p] = keys
			}
		}
	}
	s.queue = append(s.queue, Change{Kind: Cleared, Generation: b.Generation})
	s.deliverLocked()
}

// Binding returns the current binding.
func (s *Store) Binding() Binding {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.binding
}

// Subscribe adds a listener; the returned func removes it (idempotent).
func (s *Store) Subscribe(l Listener) (unsubscribe func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	id := s.nextID
	s.listeners = append(slices.Clip(s.listeners), listener{id, l})
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.listeners = slices.DeleteFunc(slices.Clone(s.listeners), func(x listener) bool { return x.id == id })
	}
}

// Surfaces returns every stored surface sorted by plugin, then kind
// (status, card, form, notification), then surface id.
func (s *Store) Surfaces() []Surface {
	s.mu.RLock()
	out := make([]Surface, 0, len(s.surfaces))
	for _, e := range s.surfaces {
		out = append(out, e.surf)
	}
	s.mu.RUnlock()
	slices.SortFunc(out, compareSurfaces)
	return out
}

func compareSurfaces(a, b Surface) int {
	return cmp.Or(
		cmp.Compare(a.Key.Plugin, b.Key.Plugin),
		cmp.Compare(kindOrder(a.Kind), kindOrder(b.Kind)),
		cmp.Compare(a.Key.SurfaceID, b.Key.SurfaceID),
		cmp.Compare(a.Key.SessionID, b.Key.SessionID),
		cmp.Compare(a.Key.Generation, b.Key.Generation),
	)
}

func kindOrder(k protocol.PublishKind) int {
	switch k {
	case protocol.PublishStatus:
		return 0
	case protocol.PublishCard:
		return 1
	case protocol.PublishForm:
		return 2
	case protocol.PublishNotification:
		return 3
	}
	return 4
}

// Get returns the surface stored under k.
func (s *Store) Get(k Key) (Surface, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	e, ok := s.surfaces[k]
	if !ok {
		return Surface{}, false
	}
	return e.surf, true
}

// Dismiss removes the surface stored under k (a notification dismissed, a
// card closed) and emits Removed. It reports whether there was one.
func (s *Store) Dismiss(k Key) bool {
	s.mu.Lock()
	e, ok := s.surfaces[k]
	if !ok {
		s.mu.Unlock()
		return false
	}
	s.removeLocked(e)
	s.queue = append(s.queue, Change{Kind: Removed, Surface: e.surf})
	s.deliverLocked()
	return true
}

func (s *Store) removeLocked(e *entry) {
	k := e.surf.Key
	delete(s.surfaces, k)
	if e.surf.Kind == protocol.PublishNotification {
		s.dropNoteLocked(k)
	}
}

func (s *Store) dropNoteLocked(k Key) {
	keys := s.notes[k.Plugin]
	if i := slices.Index(keys, k); i >= 0 {
		keys = slices.Delete(keys, i, i+1)
	}
	if len(keys) == 0 {
		delete(s.notes, k.Plugin)
	} else {
		s.notes[k.Plugin] = keys
	}
}

// store inserts or replaces a decoded, redacted surface and emits the
// changes. It re-checks the binding under the lock: a Bind that raced the
// decoding wins and the surface is dropped.
func (s *Store) store(k Key, kind protocol.PublishKind, payload any, orig [][]string) bool {
	now := s.now()
	s.mu.Lock()
	if k.Generation != s.binding.Generation || k.SessionID != s.binding.SessionID {
		s.mu.Unlock()
		return false
	}
	e, ok := s.surfaces[k]
	if !ok {
		e = &entry{}
		s.surfaces[k] = e
	}
	wasNote := ok && e.surf.Kind == protocol.PublishNotification
	e.surf = Surface{Key: k, Kind: kind, Version: e.surf.Version + 1, Updated: now}
	e.orig = orig
	switch p := payload.(type) {
	case *protocol.StatusPayload:
		e.surf.Status = p
	case *protocol.CardPayload:
		e.surf.Card = p
	case *protocol.FormPayload:
		e.surf.Form = p
	case *protocol.NotificationPayload:
		e.surf.Notification = p
	}
	s.queue = append(s.queue, Change{Kind: Published, Surface: e.surf})
	switch isNote := kind == protocol.PublishNotification; {
	case wasNote && !isNote: // the key changed kind: it no longer counts
		s.dropNoteLocked(k)
	case isNote && !wasNote:
		keys := append(s.notes[k.Plugin], k)
		for len(keys) > NotificationCap {
			if old := s.surfaces[keys[0]]; old != nil {
				delete(s.surfaces, keys[0])
				s.queue = append(s.queue, Change{Kind: Removed, Surface: old.surf})
			}
			keys = keys[1:]
		}
		s.notes[k.Plugin] = keys
	}
	s.deliverLocked()
	return true
}

// deliverLocked is called with s.mu write-locked and unlocks it. It
// delivers the queued changes unless a delivery is already running (another
// goroutine, or a listener up the stack), which will then deliver them.
func (s *Store) deliverLocked() {
	if s.delivering || len(s.listeners) == 0 {
		if !s.delivering {
			clear(s.queue)
			s.queue = s.queue[:0]
		}
		s.mu.Unlock()
		return
	}
	s.delivering = true
	locked := true
	defer func() { // also on a listener panic: the next caller resumes delivery
		if !locked {
			s.mu.Lock()
		}
		s.delivering = false
		s.mu.Unlock()
	}()
	for len(s.queue) > 0 {
		batch, ls := s.queue, s.listeners
		s.queue, s.spare = s.spare[:0], nil
		locked = false
		s.mu.Unlock()
		for _, c := range batch {
			for _, l := range ls {
				l.fn(c)
			}
		}
		s.mu.Lock()
		locked = true
		clear(batch)
		s.spare = batch[:0]
	}
}
