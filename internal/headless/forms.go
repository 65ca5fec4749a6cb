package headless

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// formWait bounds how long /form waits for a form that is not published
// yet: plugins publish theirs right after they start, and a one-shot
// `chat --prompt "/form …"` asks at once.
const formWait = 5 * time.Second

// formBook is the forms of the bound generation, as the surface events
// told the front end: the terminal's view of the desktop's surface panel.
// It is safe for concurrent use (Emit writes it from the core's
// goroutines).
type formBook struct {
	mu      sync.Mutex
	forms   map[string]surfaces.Surface // by formKey
	changed chan struct{}               // closed and replaced on every change
}

func newFormBook() formBook {
	return formBook{forms: map[string]surfaces.Surface{}, changed: make(chan struct{})}
}

// formKey is what /form takes: <plugin>/<surfaceId>.
func formKey(k surfaces.Key) string { return k.Plugin + "/" + k.SurfaceID }

func (b *formBook) track(ch *surfaces.Change) {
	if ch == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case ch.Kind == surfaces.Published && ch.Surface.Form != nil:
		b.forms[formKey(ch.Surface.Key)] = ch.Surface
	case ch.Kind == surfaces.Removed:
		delete(b.forms, formKey(ch.Surface.Key))
	case ch.Kind == surfaces.Cleared:
		for k, s := range b.forms {
			if s.Key.Generation != ch.Generation {
				delete(b.forms, k)
			}
		}
	default:
		return
	}
	close(b.changed)
	b.changed = make(chan struct{})
}

// list returns the forms sorted by key.
func (b *formBook) list() []surfaces.Surface {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]surfaces.Surface, 0, len(b.forms))
	for _, s := range b.forms {
		out = append(out, s)
	}
	slices.SortFunc(out, func(x, y surfaces.Surface) int { return strings.Compare(formKey(x.Key), formKey(y.Key)) })
	return out
}

// find resolves name — <plugin>/<surfaceId>, or a surface id that only one
// plugin uses — waiting up to formWait for it to be published.
func (b *formBook) find(ctx context.Context, name string) (surfaces.Surface, error) {
	ctx, cancel := context.WithTimeout(ctx, formWait)
	defer cancel()
	for {
		b.mu.Lock()
		s, err := b.lookupLocked(name)
		changed := b.changed
		b.mu.Unlock()
		if err == nil || !errors.Is(err, errNoForm) {
			return s, err
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return surfaces.Surface{}, fmt.Errorf("%w %q (%s)", errNoForm, name, b.known())
		}
	}
}

var errNoForm = errors.New("no form")

func (b *formBook) lookupLocked(name string) (surfaces.Surface, error) {
	if s, ok := b.forms[name]; ok {
		return s, nil
	}
	var hits []surfaces.Surface
	for _, s := range b.forms {
		if s.Key.SurfaceID == name {
			hits = append(hits, s)
		}
	}
	switch len(hits) {
	case 0:
		return surfaces.Surface{}, errNoForm
	case 1:
		return hits[0], nil
	}
	var keys []string
	for _, s := range hits {
		keys = append(keys, formKey(s.Key))
	}
	slices.Sort(keys)
	return surfaces.Surface{}, fmt.Errorf("form %q is ambiguous: %s", name, strings.Join(keys, ", "))
}

// known names the published forms for an error message.
func (b *formBook) known() string {
	var keys []string
	for _, s := range b.list() {
		keys = append(keys, formKey(s.Key))
	}
	if len(keys) == 0 {
		return "no plugin published a form"
	}
	return "published: " + strings.Join(keys, ", ")
}

// inlineValues reads `key=value` answers against a form's fields; a key
// the form does not have is an error naming it. A field not given takes
// its default, when it has one.
func inlineValues(fields []protocol.FormField, args map[string]string) (map[string]any, error) {
	values := map[string]any{}
	for k, text := range args {
		i := slices.IndexFunc(fields, func(f protocol.FormField) bool { return f.Key == k })
		if i < 0 {
			var keys []string
			for _, f := range fields {
				keys = append(keys, f.Key)
			}
			return nil, fmt.Errorf("the form has no field %q (fields: %s)", k, strings.Join(keys, ", "))
		}
		v, err := parseAnswer(fields[i], text)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", k, err)
		}
		if v != nil {
			values[k] = v
		}
	}
	for _, f := range fields { // what was not given starts at its default, as in the window
		if _, given := args[f.Key]; !given {
			if d, ok := defaultOf(f); ok {
				values[f.Key] = d
			}
		}
	}
	return values, nil
}
