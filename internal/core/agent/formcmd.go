package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
)

// FormWait bounds how long /form waits for a form that is not published
// yet: plugins publish theirs right after they start, and a one-shot
// `chat --prompt "/form …"` asks at once.
const FormWait = 5 * time.Second

// FormKey is what /form takes: <plugin>/<surfaceId>.
func FormKey(k surfaces.Key) string { return k.Plugin + "/" + k.SurfaceID }

// forms are the published forms of the current generation, sorted by key.
func (c *Core) forms() []surfaces.Surface {
	var out []surfaces.Surface
	for _, s := range c.surfaces.Surfaces() {
		if s.Form != nil {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(x, y surfaces.Surface) int { return strings.Compare(FormKey(x.Key), FormKey(y.Key)) })
	return out
}

func (c *Core) cmdForms(context.Context, CommandLine) (CommandResult, error) {
	forms := c.forms()
	var b strings.Builder
	for _, s := range forms {
		fmt.Fprintf(&b, "%s — %s (%s)\n", FormKey(s.Key), s.Form.Title, s.Submit)
	}
	if len(forms) == 0 {
		b.WriteString("no forms published")
	}
	return CommandResult{Kind: CommandForms, Forms: forms, Text: strings.TrimSuffix(b.String(), "\n")}, nil
}

// cmdForm answers /form <form> [field=value ...]: with values it submits
// them as given (invalid values are named, the field and why, and nothing
// is sent); without, it returns the form for the front end to ask.
func (c *Core) cmdForm(ctx context.Context, cl CommandLine) (CommandResult, error) {
	name, rest, _ := strings.Cut(cl.Args, " ")
	if name == "" {
		return CommandResult{}, errors.New("/form needs a form (/forms lists them)")
	}
	s, err := c.findForm(ctx, name)
	if err != nil {
		return CommandResult{}, err
	}
	key := FormKey(s.Key)
	if s.Submit != surfaces.SubmitIdle {
		return CommandResult{}, fmt.Errorf("form %s was already submitted (%s)", key, s.Submit)
	}
	if rest = strings.TrimSpace(rest); rest == "" {
		return CommandResult{Kind: CommandFormFill, Form: &s, Text: "form " + key + ": " + s.Form.Title}, nil
	}
	args, err := ParseKeyValues(rest)
	if err != nil {
		return CommandResult{}, fmt.Errorf("form %s: %w", key, err)
	}
	values, err := FormValues(s.Form.Fields, args)
	if err != nil {
		return CommandResult{}, fmt.Errorf("form %s not sent: %w", key, err)
	}
	if err := c.SubmitForm(ctx, s.Key, values); err != nil {
		return CommandResult{}, fmt.Errorf("form %s not sent: %w", key, err)
	}
	return CommandResult{Kind: CommandFormSent, Form: &s, Text: "form " + key + " sent"}, nil
}

var errNoForm = errors.New("no form")

// findForm resolves name — <plugin>/<surfaceId>, or a surface id only one
// plugin uses — waiting up to FormWait for it to be published.
func (c *Core) findForm(ctx context.Context, name string) (surfaces.Surface, error) {
	ctx, cancel := context.WithTimeout(ctx, FormWait)
	defer cancel()
	changed := make(chan struct{}, 1)
	unsubscribe := c.surfaces.Subscribe(func(surfaces.Change) {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	defer unsubscribe()
	for {
		forms := c.forms()
		s, err := lookupForm(forms, name)
		if !errors.Is(err, errNoForm) {
			return s, err
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return surfaces.Surface{}, fmt.Errorf("%w %q (%s)", errNoForm, name, knownForms(forms))
		}
	}
}

func lookupForm(forms []surfaces.Surface, name string) (surfaces.Surface, error) {
	var hits []surfaces.Surface
	for _, s := range forms {
		if FormKey(s.Key) == name {
			return s, nil
		}
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
		keys = append(keys, FormKey(s.Key))
	}
	return surfaces.Surface{}, fmt.Errorf("form %q is ambiguous: %s", name, strings.Join(keys, ", "))
}

// knownForms names the published forms for an error message.
func knownForms(forms []surfaces.Surface) string {
	if len(forms) == 0 {
		return "no plugin published a form"
	}
	keys := make([]string, 0, len(forms))
	for _, s := range forms {
		keys = append(keys, FormKey(s.Key))
	}
	return "published: " + strings.Join(keys, ", ")
}
