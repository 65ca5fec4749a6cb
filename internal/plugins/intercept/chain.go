package intercept

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/content"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Caller is what the chain needs of a sidecar client (*sidecar.Client).
type Caller interface {
	Call(ctx context.Context, method string, params, result any) error
	Notify(ctx context.Context, method string, params any) error
	Content() *content.Store
}

// unresponsive is implemented by a Caller (*sidecar.Client) that can skip
// the graceful parts of its shutdown once it let an intercept time out.
type unresponsive interface{ MarkUnresponsive() }

// Member is one plugin in the chain.
type Member struct {
	Plugin   string
	Priority int
	Order    int  // registration order, the last tie-breaker
	Required bool // manifest required: true (slot owners are always required)
	// Points the plugin subscribed to at initialize.
	Points []protocol.HookPoint
	// Slots the plugin owns.
	Slots []string
	// Timeout returns the intercept timeout of a point.
	Timeout func(protocol.HookPoint) time.Duration
	Client  Caller

	seq atomic.Int64
}

func (m *Member) required() bool { return m.Required || len(m.Slots) > 0 }

func (m *Member) subscribed(p protocol.HookPoint) bool {
	for _, x := range m.Points {
		if x == p {
			return true
		}
	}
	return false
}

// Verdict is how the extension phase ended.
type Verdict string

// Verdicts.
const (
	Continue Verdict = "continue" // possibly with a replaced payload
	Blocked  Verdict = "block"
	Allowed  Verdict = "allow"
	Denied   Verdict = "deny"
)

// Result of running a point.
type Result struct {
	Payload  json.RawMessage // the final payload (validated)
	Verdict  Verdict
	Replaced bool
	Reason   string // redacted; for block, allow, deny
	Plugin   string // who blocked, allowed or denied
	// Audit is set when a plugin allowed over a host deny.
	Audit *AuditEntry
	// Degraded lists the optional plugins that failed during this run and
	// are skipped for the rest of the generation: each appears once per
	// generation, so a front end can tell the user once.
	Degraded []Degradation
}

// Degradation is an optional plugin taken out of the chain for the rest of
// its generation: the point where it failed and why (redacted).
type Degradation struct {
	Plugin string
	Point  protocol.HookPoint
	Reason string
}

func (d Degradation) String() string {
	return fmt.Sprintf("%s failed at %s and is skipped until the plugins restart: %s", d.Plugin, d.Point, d.Reason)
}

// Decode decodes the final payload into v.
func (r *Result) Decode(v any) error { return json.Unmarshal(r.Payload, v) }

// AuditEntry records a full-trust allow over a host deny.
type AuditEntry struct {
	Time            time.Time `json:"time"`
	Plugin          string    `json:"plugin"`
	Tool            string    `json:"tool"`
	ArgumentsSHA256 string    `json:"argumentsSha256"`
	Reason          string    `json:"reason,omitempty"`
}

// FailedError is an operation failed by a required plugin (or slot owner):
// an error, a timeout or a protocol violation.
type FailedError struct {
	Plugin string
	Point  protocol.HookPoint
	Err    error
}

func (e *FailedError) Error() string {
	return fmt.Sprintf("%s failed at %s: %s", e.Plugin, e.Point, redact.String(e.Err.Error()))
}

func (e *FailedError) Unwrap() error { return e.Err }

// Call is one run of a point.
type Call struct {
	Point   protocol.HookPoint
	Payload any // a DTO of the point, or json.RawMessage
	// ProviderRef selects the provider:<ref> slot at provider points.
	ProviderRef string
}

// Options configure a chain.
type Options struct {
	Logger *slog.Logger
	// EventQueue is the per-plugin observation queue (default 16).
	EventQueue int
}

// Chain is the frozen interception chain of one generation.
type Chain struct {
	members []*Member
	owners  map[string]*Member // slot → owner
	log     *slog.Logger

	// degraded holds plugin → Degradation: optional plugins whose circuit
	// opened. They are not asked again in this generation, so one broken
	// plugin costs a turn at most one timeout.
	degraded sync.Map

	events   map[string]chan protocol.EventParams
	dropWarn sync.Map
	stop     chan struct{}
	wg       sync.WaitGroup
	closed   atomic.Bool
}

// NewChain freezes members into a chain. Two owners of one slot fail
// activation with an error naming both.
func NewChain(members []*Member, opts Options) (*Chain, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.EventQueue <= 0 {
		opts.EventQueue = 16
	}
	sorted := append([]*Member(nil), members...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if a.Priority != b.Priority {
			return a.Priority < b.Priority
		}
		if a.Plugin != b.Plugin {
			return a.Plugin < b.Plugin
		}
		return a.Order < b.Order
	})
	c := &Chain{members: sorted, owners: map[string]*Member{}, log: opts.Logger,
		events: map[string]chan protocol.EventParams{}, stop: make(chan struct{})}
	for _, m := range sorted {
		for _, s := range m.Slots {
			if prev, ok := c.owners[s]; ok {
				return nil, protocol.Errorf(protocol.ReasonActivationFailed,
					"slot %s is claimed by both %s and %s", s, prev.Plugin, m.Plugin)
			}
			c.owners[s] = m
		}
	}
	for _, m := range sorted {
		q := make(chan protocol.EventParams, opts.EventQueue)
		c.events[m.Plugin] = q
		c.wg.Add(1)
		go c.deliver(m, q)
	}
	return c, nil
}

// Close stops event delivery. Queued observations are dropped.
func (c *Chain) Close() {
	if c.closed.CompareAndSwap(false, true) {
		close(c.stop)
		c.wg.Wait()
	}
}

// Owner returns the owner of a slot.
func (c *Chain) Owner(slot string) (string, bool) {
	m, ok := c.owners[slot]
	if !ok {
		return "", false
	}
	return m.Plugin, true
}

// slotsFor lists the slots with a say at a point, named slot first.
func slotsFor(call Call, payload json.RawMessage) []string {
	var named string
	switch call.Point {
	case protocol.HookSystemPromptBuild:
		named = "system_prompt"
	case protocol.HookContextPrepare:
		named = "context"
	case protocol.HookProviderRequest:
		named = "provider_request"
	case protocol.HookProviderResponse:
		named = "provider_response"
	case protocol.HookCompactionPrepare, protocol.HookCompactionComplete:
		named = "compaction"
	case protocol.HookSessionStart, protocol.HookSessionEnd, protocol.HookSessionLoad,
		protocol.HookSessionSave, protocol.HookSessionRotate:
		named = "session_policy"
	case protocol.HookPermissionDecision:
		named = "permission"
	case protocol.HookFrontendEvent:
		named = "frontend_events"
	}
	var slots []string
	if named != "" {
		slots = append(slots, named)
	}
	switch call.Point {
	case protocol.HookToolBefore, protocol.HookToolAfter, protocol.HookPermissionDecision:
		var p struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(payload, &p) == nil && p.Name != "" {
			slots = append(slots, "tool:"+p.Name)
		}
	case protocol.HookProviderRequest, protocol.HookProviderResponse:
		if call.ProviderRef != "" {
			slots = append(slots, "provider:"+call.ProviderRef)
		}
	}
	return slots
}

// Run runs the chain and then the slot owners for one point.
func (c *Chain) Run(ctx context.Context, call Call) (*Result, error) {
	payload, err := encodePayload(call)
	if err != nil {
		return nil, err
	}
	if len(payload) > protocol.ContentRefObjectBytes {
		// Too large for any plugin to receive: the operation fails whatever
		// the plugins' class.
		return nil, protocol.Errorf(protocol.ReasonFrameTooLarge,
			"%s payload of %d bytes exceeds the %d byte content limit", call.Point, len(payload), protocol.ContentRefObjectBytes)
	}
	res := &Result{Payload: payload, Verdict: Continue}
	for _, m := range c.members {
		if !m.subscribed(call.Point) || c.isDegraded(m.Plugin) {
			continue
		}
		done, err := c.step(ctx, m, call, res, false)
		if err != nil {
			return nil, err
		}
		if done {
			return res, nil
		}
	}
	if len(c.owners) == 0 {
		return res, nil // no slot owners: skip decoding the payload for slot names
	}
	if err := c.askOwners(ctx, call, res); err != nil {
		return nil, err
	}
	return res, nil
}

// askOwners gives the owners of the slots covering the call their final say,
// named slot first; an owner's block is its veto and ends the run.
func (c *Chain) askOwners(ctx context.Context, call Call, res *Result) error {
	for _, slot := range slotsFor(call, res.Payload) {
		owner, ok := c.owners[slot]
		if !ok {
			continue // an unowned slot keeps the host default
		}
		done, err := c.step(ctx, owner, call, res, true)
		if err != nil || done {
			return err
		}
	}
	return nil
}

// RunOwners runs only the slot owners of a point, skipping the interceptor
// chain: how the Reasonix host dispatches the session points, which plugins
// that merely subscribe to them see as extension/event observations only.
// An owner's block is the operation's veto (Verdict Blocked); its error,
// timeout or violation fails the call (owners are always required).
func (c *Chain) RunOwners(ctx context.Context, call Call) (*Result, error) {
	payload, err := encodePayload(call)
	if err != nil {
		return nil, err
	}
	res := &Result{Payload: payload, Verdict: Continue}
	if err := c.askOwners(ctx, call, res); err != nil {
		return nil, err
	}
	return res, nil
}

// step asks one member. It reports done when the extension phase ended
// (block, allow, deny).
func (c *Chain) step(ctx context.Context, m *Member, call Call, res *Result, asOwner bool) (bool, error) {
	answer, err := c.ask(ctx, m, call.Point, res.Payload)
	if err == nil {
		var done bool
		done, err = c.apply(m, call.Point, answer, res, asOwner)
		if err == nil {
			return done, nil
		}
	}
	if asOwner || m.required() {
		return false, &FailedError{Plugin: m.Plugin, Point: call.Point, Err: err}
	}
	if u, ok := m.Client.(unresponsive); ok && protocol.ReasonOf(err) == protocol.ReasonInterceptTimeout {
		u.MarkUnresponsive()
	}
	d := Degradation{Plugin: m.Plugin, Point: call.Point, Reason: redact.String(err.Error())}
	if _, seen := c.degraded.LoadOrStore(m.Plugin, d); !seen {
		c.log.Warn("optional plugin failed; skipped for the rest of the generation", "plugin", m.Plugin,
			"point", call.Point, "error", d.Reason)
		res.Degraded = append(res.Degraded, d)
	}
	return false, nil
}

func (c *Chain) isDegraded(plugin string) bool {
	_, ok := c.degraded.Load(plugin)
	return ok
}

// Degraded returns the plugins whose circuit is open in this chain, by name.
func (c *Chain) Degraded() map[string]Degradation {
	out := map[string]Degradation{}
	c.degraded.Range(func(k, v any) bool {
		out[k.(string)] = v.(Degradation)
		return true
	})
	return out
}

// ask sends one extension/intercept and returns the decoded answer with any
// replacement resolved.
func (c *Chain) ask(ctx context.Context, m *Member, point protocol.HookPoint, payload json.RawMessage) (*protocol.InterceptResult, error) {
	timeout := m.Timeout(point)
	store := m.Client.Content()
	inline, ext, err := store.Externalize(payload)
	if err != nil {
		return nil, err
	}
	params := &protocol.InterceptParams{ // encoded by its AppendJSON
		Event:         point,
		Seq:           m.seq.Add(1),
		TimeoutMillis: timeout.Milliseconds(),
		Payload:       inline,
		Externalized:  ext,
	}
	callCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var raw json.RawMessage
	if err := m.Client.Call(callCtx, protocol.MethodIntercept, params, &raw); err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			return nil, protocol.Errorf(protocol.ReasonInterceptTimeout,
				"%s did not answer %s within %s", m.Plugin, point, timeout)
		}
		return nil, err
	}
	var answer protocol.InterceptResult
	if err := protocol.DecodeStrict(raw, &answer); err != nil {
		return nil, protocol.Errorf(protocol.ReasonProtocolError, "intercept result: %v", err)
	}
	if answer.Decision == protocol.DecisionReplace {
		replacement, err := store.ResolveReplacement(&answer)
		if err != nil {
			return nil, err
		}
		answer.Replacement = replacement
	}
	return &answer, nil
}

// apply folds one answer into the result.
func (c *Chain) apply(m *Member, point protocol.HookPoint, a *protocol.InterceptResult, res *Result, asOwner bool) (bool, error) {
	violation := func(format string, args ...any) error {
		return protocol.Errorf(protocol.ReasonProtocolError, format, args...)
	}
	switch a.Decision {
	case protocol.DecisionContinue:
		return false, nil
	case protocol.DecisionReplace:
		if len(a.Replacement) == 0 {
			return false, violation("replace without a replacement")
		}
		if _, err := protocol.DecodeHookPayload(point, a.Replacement); err != nil {
			return false, violation("replacement rejected: %v", err)
		}
		if point == protocol.HookPermissionDecision && hostDecisionOf(a.Replacement) != hostDecisionOf(res.Payload) {
			// As in the Reasonix host, a replacement here only changes what
			// observers see; the ruling is allow, deny or block. Saying
			// otherwise is logged, since it looks like an attempt.
			c.log.Warn("a permission.decision replacement changed hostDecision; the host ignores it",
				"plugin", m.Plugin)
		}
		// Strictly decoded and validated: the bytes are used as they are,
		// without a second encoding of what may be megabytes.
		res.Payload, res.Replaced = a.Replacement, true
		return false, nil
	case protocol.DecisionBlock:
		// A slot owner's block is its veto, as in the Reasonix host's
		// strategy dispatch: the operation stops with its reason.
		res.Verdict, res.Plugin, res.Reason = Blocked, m.Plugin, redact.String(a.Reason)
		if res.Reason == "" {
			res.Reason = "blocked by " + m.Plugin
		}
		return true, nil
	case protocol.DecisionAllow, protocol.DecisionDeny:
		if asOwner {
			return false, violation("a slot owner cannot %s; it may continue or replace", a.Decision)
		}
		if point != protocol.HookPermissionDecision {
			return false, violation("%s is only legal at permission.decision, not %s", a.Decision, point)
		}
		res.Plugin, res.Reason = m.Plugin, redact.String(a.Reason)
		if a.Decision == protocol.DecisionDeny {
			res.Verdict = Denied
			return true, nil
		}
		res.Verdict = Allowed
		var p protocol.PermissionPayload
		if json.Unmarshal(res.Payload, &p) == nil && p.HostDecision == protocol.HostDeny {
			sum := sha256.Sum256([]byte(p.Arguments))
			res.Audit = &AuditEntry{Time: time.Now().UTC(), Plugin: m.Plugin, Tool: p.Name,
				ArgumentsSHA256: hex.EncodeToString(sum[:]), Reason: res.Reason}
			c.log.Warn("audit: plugin allowed a call the host denied", "plugin", m.Plugin,
				"tool", p.Name, "argumentsSha256", res.Audit.ArgumentsSHA256, "reason", res.Reason)
		}
		return true, nil
	}
	return false, violation("unknown decision %q", a.Decision)
}

func hostDecisionOf(payload json.RawMessage) string {
	var p protocol.PermissionPayload
	_ = json.Unmarshal(payload, &p)
	return p.HostDecision
}

func encodePayload(call Call) (json.RawMessage, error) {
	switch p := call.Payload.(type) {
	case json.RawMessage:
		// Raw JSON (a replacement, a test, a big payload) is checked
		// strictly: a bug here must not reach a plugin.
		if _, err := protocol.DecodeHookPayload(call.Point, p); err != nil {
			return nil, err
		}
		return p, nil
	case protocol.HookPayload:
		// The host's own DTO only needs its rules checked.
		if err := p.Validate(call.Point); err != nil {
			return nil, fmt.Errorf("%s payload: %w", call.Point, err)
		}
		b, err := json.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("encode %s payload: %w", call.Point, err)
		}
		return b, nil
	}
	return nil, fmt.Errorf("%s payload: unsupported type %T", call.Point, call.Payload)
}

// Observe fans an observation out to the point's subscribers and the owners
// of slots covering it, once per plugin, without ever blocking: a full
// per-plugin queue drops the event and warns once for that plugin.
func (c *Chain) Observe(call Call) {
	if c.closed.Load() || !c.observed(call.Point) {
		return
	}
	payload, err := encodePayload(call)
	if err != nil {
		c.log.Warn("observation not sent", "point", call.Point, "error", err)
		return
	}
	targets := map[string]bool{}
	for _, m := range c.members {
		if m.subscribed(call.Point) {
			targets[m.Plugin] = true
		}
	}
	for _, slot := range slotsFor(call, payload) {
		if owner, ok := c.owners[slot]; ok {
			targets[owner.Plugin] = true
		}
	}
	for plugin := range targets {
		if c.isDegraded(plugin) {
			continue // a plugin that stopped answering may have stopped reading too
		}
		select {
		case c.events[plugin] <- protocol.EventParams{Event: call.Point, Payload: payload}:
		default:
			if _, seen := c.dropWarn.LoadOrStore(plugin, struct{}{}); !seen {
				c.log.Warn("observation queue full; dropping events", "plugin", plugin, "point", call.Point)
			}
		}
	}
}

// observed reports whether anyone could receive an observation of point,
// so unobserved points cost nothing.
func (c *Chain) observed(point protocol.HookPoint) bool {
	if len(c.owners) > 0 {
		return true
	}
	for _, m := range c.members {
		if m.subscribed(point) {
			return true
		}
	}
	return false
}

func (c *Chain) deliver(m *Member, q chan protocol.EventParams) {
	defer c.wg.Done()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-c.stop
		cancel()
	}()
	for {
		select {
		case <-c.stop:
			return
		case ev := <-q:
			inline, ext, err := m.Client.Content().Externalize(ev.Payload)
			if err != nil {
				c.log.Warn("observation not sent", "plugin", m.Plugin, "error", err)
				continue
			}
			ev.Payload, ev.Externalized = inline, ext
			if err := m.Client.Notify(ctx, protocol.MethodEvent, &ev); err != nil && ctx.Err() == nil {
				c.log.Debug("observation not delivered", "plugin", m.Plugin, "error", redact.String(err.Error()))
			}
		}
	}
}

// Describe is a short human description of the chain order for a point.
func (c *Chain) Describe(point protocol.HookPoint) string {
	var names []string
	for _, m := range c.members {
		if m.subscribed(point) {
			names = append(names, fmt.Sprintf("%s(%d)", m.Plugin, m.Priority))
		}
	}
	return strings.Join(names, " → ")
}
