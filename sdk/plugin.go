package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// AnyPoint is the Interceptors key of the fallback InterceptFunc: it handles
// every intercepted point that has no func of its own.
const AnyPoint protocol.HookPoint = "*"

// Plugin declares a sidecar: what it intercepts, observes, owns, provides and
// which UI actions it handles. Only Name and Version are required; every
// absent callback makes the matching host request answer unknown_method
// (intercepts of points without a func answer continue).
type Plugin struct {
	// Name must equal the manifest name; Version is reported at initialize.
	Name, Version string

	// Interceptors answer extension/intercept per hook point. The AnyPoint
	// ("*") key is the fallback for points without their own func.
	Interceptors map[protocol.HookPoint]InterceptFunc
	// Subscriptions are declared in the initialize result. When nil they are
	// derived from the Interceptors keys (AnyPoint excluded) plus
	// ObservedPoints. They must be a subset of the manifest's intercepts.
	Subscriptions []protocol.HookPoint
	// Replaces are the strategy slots this plugin owns.
	Replaces []string

	// Observer receives extension/event observations (payload rehydrated).
	Observer func(ctx context.Context, ev Event)
	// ObservedPoints are the points Observer wants (added to the derived
	// Subscriptions).
	ObservedPoints []protocol.HookPoint
	// OnResourcesChanged receives extension/resources/changed.
	OnResourcesChanged func(ctx context.Context, paths []string)

	// Providers serve extension/provider/catalog and streams.
	Providers []Provider

	// Actions are the UI actions (extension/ui/action), declared at initialize.
	Actions []Action
	// OnSubmit receives form submissions (extension/ui/submit).
	OnSubmit func(ctx context.Context, s Submission) error

	// OnInitialized runs in its own goroutine right after
	// extension/initialized: a good place to publish a first status. Its
	// context ends when Serve returns.
	OnInitialized func(ctx context.Context, host *Host)
	// OnShutdown runs on extension/shutdown, bounded by the host's timeout.
	OnShutdown func(ctx context.Context)

	// Logger receives diagnostics (default: JSON on stderr; stdout belongs to
	// the protocol).
	Logger *slog.Logger
}

// InterceptFunc answers one extension/intercept call.
type InterceptFunc func(ctx context.Context, call *InterceptCall) (Decision, error)

// InterceptCall is one interception. Its context carries the host's timeout
// as a deadline.
type InterceptCall struct {
	Point   protocol.HookPoint
	Seq     int64
	Timeout time.Duration // 0: no timeout
	// Payload is the point's payload, rehydrated when the host sent it as a
	// content ref.
	Payload json.RawMessage
	Host    *Host
}

// Decode strictly decodes the payload into v (unknown fields are errors).
func (c *InterceptCall) Decode(v any) error { return protocol.DecodeStrict(c.Payload, v) }

// Decision is an interceptor's answer. The zero Decision is continue.
type Decision struct {
	Kind   protocol.Decision
	Reason string
	// Replacement is the new payload of a replace decision, encoded with
	// json.Marshal (a json.RawMessage passes through).
	Replacement any
}

// Continue passes the payload along unchanged.
func Continue() Decision { return Decision{Kind: protocol.DecisionContinue} }

// Block aborts the operation with a reason shown to the user.
func Block(reason string) Decision {
	return Decision{Kind: protocol.DecisionBlock, Reason: reason}
}

// Replace substitutes the payload; the host re-validates it.
func Replace(v any) Decision { return Decision{Kind: protocol.DecisionReplace, Replacement: v} }

// Allow grants a permission (legal only at permission.decision).
func Allow(reason string) Decision {
	return Decision{Kind: protocol.DecisionAllow, Reason: reason}
}

// Deny refuses a permission (legal only at permission.decision).
func Deny(reason string) Decision {
	return Decision{Kind: protocol.DecisionDeny, Reason: reason}
}

// Event is one extension/event observation.
type Event struct {
	Point   protocol.HookPoint
	Payload json.RawMessage // rehydrated
}

// Decode strictly decodes the payload into v.
func (e Event) Decode(v any) error { return protocol.DecodeStrict(e.Payload, v) }

// Action is a UI action, invoked as /<plugin>:<ID>. The returned message is
// shown to the user; an error answers accepted:false.
type Action struct {
	ID      string // ^[a-z0-9-]+$, listed as a manifest provides entry of kind uiaction
	Label   string
	Handler func(ctx context.Context, a ActionContext) (message string, err error)
}

// ActionContext describes one action invocation.
type ActionContext struct {
	ActionID   string
	SessionID  string
	Generation int64
	Args       map[string]string
	Host       *Host
}

// Submission is one form submission.
type Submission struct {
	SurfaceID  string
	SessionID  string
	Generation int64
	Values     map[string]any // confirm: bool, input/select: string, multiselect: []any of strings
	Host       *Host
}

// check reports author mistakes before anything is read from the host.
func (p *Plugin) check() error {
	if p == nil {
		return errors.New("sdk: nil Plugin")
	}
	if !protocol.ValidPluginName(p.Name) {
		return fmt.Errorf("sdk: plugin name %q must match %s", p.Name, protocol.PluginNamePattern)
	}
	if p.Version == "" {
		return errors.New("sdk: plugin version is required")
	}
	for pt, f := range p.Interceptors {
		if pt != AnyPoint && !pt.Valid() {
			return fmt.Errorf("sdk: Interceptors: unknown hook point %q", pt)
		}
		if f == nil {
			return fmt.Errorf("sdk: Interceptors[%q] is nil", pt)
		}
	}
	for _, pt := range append(slices.Clone(p.Subscriptions), p.ObservedPoints...) {
		if !pt.Valid() {
			return fmt.Errorf("sdk: unknown hook point %q", pt)
		}
	}
	for i, pr := range p.Providers {
		if pr == nil {
			return fmt.Errorf("sdk: Providers[%d] is nil", i)
		}
		for _, d := range pr.Descriptors() {
			if _, ok := protocol.ProviderOfRef(p.Name, d.Ref); !ok {
				return fmt.Errorf("sdk: provider ref %q must be %s<provider>", d.Ref, protocol.ProviderRefPrefix(p.Name))
			}
		}
	}
	seen := map[string]bool{}
	for _, a := range p.Actions {
		if !protocol.ValidActionID(a.ID) {
			return fmt.Errorf("sdk: action id %q must match %s", a.ID, protocol.ActionIDPattern)
		}
		if seen[a.ID] {
			return fmt.Errorf("sdk: duplicate action id %q", a.ID)
		}
		seen[a.ID] = true
		if a.Handler == nil {
			return fmt.Errorf("sdk: action %q has no Handler", a.ID)
		}
	}
	return nil
}

// subscriptions are the declared points: Subscriptions, or the derived set in
// frozen turn order.
func (p *Plugin) subscriptions() []string {
	want := map[protocol.HookPoint]bool{}
	if p.Subscriptions != nil {
		for _, pt := range p.Subscriptions {
			want[pt] = true
		}
	} else {
		for pt := range p.Interceptors {
			want[pt] = true
		}
		for _, pt := range p.ObservedPoints {
			want[pt] = true
		}
	}
	var out []string
	for _, pt := range protocol.HookPoints() {
		if want[pt] {
			out = append(out, string(pt))
		}
	}
	return out
}

// descriptors lists the descriptors of every provider (never nil).
func (p *Plugin) descriptors() []protocol.ProviderDescriptor {
	out := []protocol.ProviderDescriptor{}
	for _, pr := range p.Providers {
		out = append(out, pr.Descriptors()...)
	}
	return out
}

func (p *Plugin) action(id string) *Action {
	for i := range p.Actions {
		if p.Actions[i].ID == id {
			return &p.Actions[i]
		}
	}
	return nil
}
