package headless

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/foundation/textdiff"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// The `chat --json` events: one JSON object per line, every member name
// camelCase, every kind snake_case. docs/chat-events.schema.json is their
// documented schema; a test validates every line real chats print against
// it. These types are the only shapes written: no core struct is marshalled
// as it is.

// Event kinds only the terminal front end emits (the others are
// agent.EventKind values).
const (
	KindSurfaceRemoved  = "surface_removed"
	KindSurfacesCleared = "surfaces_cleared"
	KindPrompt          = "prompt"
	KindPromptClosed    = "prompt_closed"
	KindApprovalRequest = "approval_request"
	KindApproval        = "approval"
	KindActions         = "actions"
	KindActionResult    = "action_result"
	KindCommandOutput   = "command_output"
	KindForms           = "forms"
	KindFormSubmitted   = "form_submitted"
	KindSessions        = "sessions"
	KindDoctor          = "doctor"
	KindError           = "error"
	KindRewinds         = "rewinds"
	KindRewound         = "rewound"
)

// jsonEvent is one line of `chat --json`. Kind says which of the other
// members are set.
type jsonEvent struct {
	Kind      string                  `json:"kind"`
	SessionID string                  `json:"sessionId,omitempty"`
	Text      string                  `json:"text,omitempty"`
	Signature string                  `json:"signature,omitempty"`
	Call      *jsonCall               `json:"call,omitempty"`
	Usage     *protocol.ProviderUsage `json:"usage,omitempty"`
	// Cost is a usage event's price (nil when the core priced nothing).
	Cost  *agent.Cost `json:"cost,omitempty"`
	Error string      `json:"error,omitempty"`
	// End is how a turn ended, typed (turn_done, turn_failed).
	End     *agent.TurnEnd `json:"end,omitempty"`
	Surface *jsonSurface   `json:"surface,omitempty"`
	// Generation is the newly bound generation of surfaces_cleared.
	Generation int64         `json:"generation,omitempty"`
	Plugins    []jsonPlugin  `json:"plugins,omitzero"`
	Prompt     *jsonPrompt   `json:"prompt,omitempty"`
	Approval   *jsonApproval `json:"approval,omitempty"`
	// Command is what the user typed; Result is the command's answer.
	Command string      `json:"command,omitempty"`
	Result  *jsonResult `json:"result,omitempty"`
	// Todos is the whole todo list on todo events (empty when cleared).
	Todos []jsonTodo `json:"todos,omitzero"`
}

// jsonTodo is one item of the model's todo list.
type jsonTodo struct {
	Content    string `json:"content"`
	Status     string `json:"status"` // pending, in_progress, completed
	ActiveForm string `json:"activeForm,omitempty"`
}

// jsonCall is a tool call card's state.
type jsonCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments,omitempty"`
	State     string `json:"state"`
	Result    string `json:"result,omitempty"`
	Reason    string `json:"reason,omitempty"`
	// Progress is set on tool_progress only.
	Progress *agent.ToolProgress `json:"progress,omitempty"`
	// Diff is what a file-changing call writes (from pending on).
	Diff []textdiff.File `json:"diff,omitempty"`
}

// jsonSurface is a surface and where it belongs. Exactly one payload is
// set on surface events; none on surface_removed.
type jsonSurface struct {
	Plugin       string                        `json:"plugin"`
	SurfaceID    string                        `json:"surfaceId"`
	SessionID    string                        `json:"sessionId"`
	Generation   int64                         `json:"generation"`
	Kind         protocol.PublishKind          `json:"kind"`
	Version      uint64                        `json:"version,omitempty"`
	Submit       string                        `json:"submit,omitempty"` // forms: idle, pending, sent
	Status       *protocol.StatusPayload       `json:"status,omitempty"`
	Card         *protocol.CardPayload         `json:"card,omitempty"`
	Form         *protocol.FormPayload         `json:"form,omitempty"`
	Notification *protocol.NotificationPayload `json:"notification,omitempty"`
}

type jsonPlugin struct {
	Name       string   `json:"name"`
	Version    string   `json:"version,omitempty"`
	State      string   `json:"state"`
	Generation int64    `json:"generation,omitempty"`
	Required   bool     `json:"required,omitempty"`
	Intercepts []string `json:"intercepts,omitempty"`
	Replaces   []string `json:"replaces,omitempty"`
	Providers  []string `json:"providers,omitempty"`
	Actions    []string `json:"actions,omitempty"`
	Failure    string   `json:"failure,omitempty"`
}

// jsonPrompt is a plugin's host/ui/request: on prompt events its question,
// on prompt_closed whether it was answered.
type jsonPrompt struct {
	Plugin    string               `json:"plugin"`
	SurfaceID string               `json:"surfaceId,omitempty"`
	Kind      protocol.RequestKind `json:"kind"`
	Title     string               `json:"title,omitempty"`
	Message   string               `json:"message,omitempty"`
	Fields    []protocol.FormField `json:"fields,omitempty"`
	Cancelled *bool                `json:"cancelled,omitempty"` // prompt_closed only
}

type jsonApproval struct {
	CallID    string `json:"callId,omitempty"`
	Tool      string `json:"tool"`
	Arguments string `json:"arguments,omitempty"`
	// Covers and OnceOnly are on approval_request only: what "session" and
	// "always" would allow, or (onceOnly) why only once is possible.
	Covers   string `json:"covers,omitempty"`
	OnceOnly bool   `json:"onceOnly,omitempty"`
	// Diff is what approving writes (approval_request only).
	Diff     []textdiff.File `json:"diff,omitempty"`
	Decision string          `json:"decision,omitempty"` // deny, once, session, always; not on approval_request
}

// jsonResult answers a command: an action's result, an extension
// command's output (with its renderer when it names a declared one), a
// submitted form, or a listing (/actions, /forms, /sessions). The schema
// says which members each kind carries.
type jsonResult struct {
	Accepted *bool           `json:"accepted,omitempty"`
	Message  string          `json:"message,omitempty"`
	Output   string          `json:"output,omitempty"`
	Renderer *jsonRenderer   `json:"renderer,omitempty"`
	Data     json.RawMessage `json:"data,omitempty"`
	Plugin   string          `json:"plugin,omitempty"`
	Surface  string          `json:"surfaceId,omitempty"`
	// The doctor's verdict (its report is Output).
	OK       *bool    `json:"ok,omitempty"`
	Problems []string `json:"problems,omitzero"`
	// Listings: present (maybe empty) on their kind only.
	Actions  []jsonAction   `json:"actions,omitzero"`
	Commands []jsonCommand  `json:"commands,omitzero"`
	Sessions []jsonSession  `json:"sessions,omitzero"`
	Forms    []jsonFormItem `json:"forms,omitzero"`
	Rewinds  []jsonRewind   `json:"rewinds,omitzero"`
	// What /rewind <n> did: the files written back, and for a
	// conversation rewind the message it took back.
	Restored []string `json:"restored,omitzero"`
	Draft    string   `json:"draft,omitempty"`
}

// jsonRewind is one of the user's messages /rewind lists, with what
// rewinding to it does.
type jsonRewind struct {
	MessageIndex  int             `json:"messageIndex"`
	Message       string          `json:"message"`
	Files         []textdiff.File `json:"files"`
	Conflicts     []string        `json:"conflicts,omitzero"`
	DropsMessages int             `json:"dropsMessages"`
	Untracked     []string        `json:"untracked,omitzero"`
}

type jsonRenderer struct {
	Extension string `json:"extension"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
}

type jsonAction struct {
	Name   string `json:"name"`
	Plugin string `json:"plugin"`
	ID     string `json:"id"`
	Label  string `json:"label"`
}

type jsonCommand struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

type jsonSession struct {
	ID        string `json:"id"`
	Title     string `json:"title,omitempty"`
	Model     string `json:"model,omitempty"`
	Workspace string `json:"workspace,omitempty"`
	Updated   string `json:"updated"` // RFC 3339
	Current   bool   `json:"current,omitempty"`
	// Pinned chats are listed first; then by LastMessageAt (RFC 3339),
	// which only a new message moves.
	Pinned        bool   `json:"pinned,omitempty"`
	LastMessageAt string `json:"lastMessageAt,omitempty"`
}

type jsonFormItem struct {
	Key    string               `json:"key"` // what /form takes: <plugin>/<surfaceId>
	Plugin string               `json:"plugin"`
	Title  string               `json:"title,omitempty"`
	Submit string               `json:"submit"`
	Fields []protocol.FormField `json:"fields"`
}

// coreEvent maps a core event to its line; ok is false for events that
// print nothing (the first surfaces_cleared, before any surface was shown).
func (f *Frontend) coreEvent(ev agent.Event) (jsonEvent, bool) {
	out := jsonEvent{Kind: string(ev.Kind), SessionID: ev.SessionID}
	switch ev.Kind {
	case agent.EventText, agent.EventReasoning, agent.EventUserMessage, agent.EventNotice, agent.EventCompacted:
		// A chunk is redacted on its own (the terminal's line redactor
		// needs the lines around it; a script gets each chunk as it came).
		out.Text, out.Signature = redact.String(ev.Text), ev.Signature
	case agent.EventToolCall, agent.EventToolProgress:
		if c := ev.Call; c != nil {
			out.Call = &jsonCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments, State: string(c.State), Result: c.Result, Reason: c.Reason,
				Progress: c.Progress, Diff: c.Diff}
		} else {
			return jsonEvent{}, false
		}
	case agent.EventUsage:
		out.Usage, out.Cost = ev.Usage, ev.Cost
	case agent.EventTodo:
		out.Todos = make([]jsonTodo, 0, len(ev.Todos))
		for _, it := range ev.Todos {
			out.Todos = append(out.Todos, jsonTodo{Content: redact.String(it.Content), Status: it.Status, ActiveForm: redact.String(it.ActiveForm)})
		}
	case agent.EventTurnFailed:
		out.Error, out.End = ev.Error, ev.End
	case agent.EventTurnDone:
		out.End = ev.End
	case agent.EventPlugins:
		out.Plugins = plugins(ev.Plugins)
		if out.Plugins == nil {
			out.Plugins = []jsonPlugin{}
		}
	case agent.EventSurface:
		return f.surfaceEvent(ev.Surface)
	case agent.EventTurnStarted, agent.EventSession:
	default:
		return jsonEvent{}, false // a kind this schema does not know yet is not printed half-described
	}
	return out, true
}

// surfaceEvent maps a store change; a clear before anything was shown is
// dropped (it is the core binding its first generation).
func (f *Frontend) surfaceEvent(ch *surfaces.Change) (jsonEvent, bool) {
	if ch == nil {
		return jsonEvent{}, false
	}
	switch ch.Kind {
	case surfaces.Published:
		f.shownSurface = true
		return jsonEvent{Kind: string(agent.EventSurface), Surface: surfaceOf(ch.Surface, true)}, true
	case surfaces.Removed:
		return jsonEvent{Kind: KindSurfaceRemoved, Surface: surfaceOf(ch.Surface, false)}, true
	case surfaces.Cleared:
		if !f.shownSurface {
			return jsonEvent{}, false
		}
		f.shownSurface = false
		return jsonEvent{Kind: KindSurfacesCleared, Generation: ch.Generation}, true
	}
	return jsonEvent{}, false
}

func surfaceOf(s surfaces.Surface, payload bool) *jsonSurface {
	out := &jsonSurface{Plugin: s.Key.Plugin, SurfaceID: s.Key.SurfaceID, SessionID: s.Key.SessionID,
		Generation: s.Key.Generation, Kind: s.Kind}
	if !payload {
		return out
	}
	out.Version = s.Version
	out.Status, out.Card, out.Form, out.Notification = s.Status, s.Card, s.Form, s.Notification
	if s.Form != nil {
		out.Submit = s.Submit.String()
	}
	return out
}

func plugins(in []agent.PluginInfo) []jsonPlugin {
	var out []jsonPlugin
	for _, p := range in {
		out = append(out, jsonPlugin{Name: p.Name, Version: p.Version, State: p.State, Generation: p.Generation,
			Required: p.Required, Intercepts: p.Intercepts, Replaces: p.Replaces, Providers: p.Providers,
			Actions: p.Actions, Failure: p.Failure})
	}
	return out
}

func sessionsOf(list []agent.Summary, current string) []jsonSession {
	out := make([]jsonSession, 0, len(list))
	for _, s := range list {
		js := jsonSession{ID: s.ID, Title: s.Title, Model: s.Model, Workspace: s.Workspace,
			Updated: s.Updated.UTC().Format(time.RFC3339), Current: s.ID == current, Pinned: s.Pinned}
		if !s.LastMessageAt.IsZero() {
			js.LastMessageAt = s.LastMessageAt.UTC().Format(time.RFC3339)
		}
		out = append(out, js)
	}
	return out
}

// writeJSON prints one event line; the caller holds f.mu.
func (f *Frontend) writeJSON(ev jsonEvent) {
	b, err := json.Marshal(ev)
	if err != nil { // only a plugin value json cannot encode (a NaN progress) gets here
		b, _ = json.Marshal(jsonEvent{Kind: KindError, Error: fmt.Sprintf("event %s not encodable: %v", ev.Kind, err)})
	}
	fmt.Fprintf(f.opts.Out, "%s\n", b)
}

// progressLine is a running call's progress on the terminal:
// "[tool] name — 2/5 step two".
func progressLine(name string, p *agent.ToolProgress) string {
	line := i18n.T("[tool] %s — %g", safe(name), p.Progress)
	if p.Total > 0 {
		line += fmt.Sprintf("/%g", p.Total)
	}
	if p.Message != "" {
		line += " " + safe(p.Message)
	}
	return line
}
