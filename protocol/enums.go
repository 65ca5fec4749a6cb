package protocol

// HookPoint is one of the 17 frozen interception points.
type HookPoint string

// The frozen hook points.
const (
	HookInputReceive       HookPoint = "input.receive"
	HookAgentBeforeStart   HookPoint = "agent.before_start"
	HookSystemPromptBuild  HookPoint = "system_prompt.build"
	HookContextPrepare     HookPoint = "context.prepare"
	HookProviderRequest    HookPoint = "provider.request"
	HookProviderResponse   HookPoint = "provider.response"
	HookToolBefore         HookPoint = "tool.before"
	HookToolAfter          HookPoint = "tool.after"
	HookPermissionDecision HookPoint = "permission.decision"
	HookCompactionPrepare  HookPoint = "compaction.prepare"
	HookCompactionComplete HookPoint = "compaction.complete"
	HookSessionStart       HookPoint = "session.start"
	HookSessionEnd         HookPoint = "session.end"
	HookSessionLoad        HookPoint = "session.load"
	HookSessionSave        HookPoint = "session.save"
	HookSessionRotate      HookPoint = "session.rotate"
	HookFrontendEvent      HookPoint = "frontend.event"
)

// HookPoints lists the 17 frozen points in turn order.
func HookPoints() []HookPoint {
	return []HookPoint{
		HookInputReceive, HookAgentBeforeStart, HookSystemPromptBuild, HookContextPrepare,
		HookProviderRequest, HookProviderResponse, HookToolBefore, HookToolAfter,
		HookPermissionDecision, HookCompactionPrepare, HookCompactionComplete,
		HookSessionStart, HookSessionEnd, HookSessionLoad, HookSessionSave, HookSessionRotate,
		HookFrontendEvent,
	}
}

// Valid reports whether p is a frozen hook point.
func (p HookPoint) Valid() bool { return contains(HookPoints(), p) }

// EnumValues implements Enum.
func (HookPoint) EnumValues() []string { return stringsOf(HookPoints()) }

// Decision is an interceptor's answer.
type Decision string

// Interceptor decisions. Allow and deny are legal only at permission.decision.
const (
	DecisionContinue Decision = "continue"
	DecisionBlock    Decision = "block"
	DecisionReplace  Decision = "replace"
	DecisionAllow    Decision = "allow"
	DecisionDeny     Decision = "deny"
)

// EnumValues implements Enum.
func (Decision) EnumValues() []string {
	return stringsOf([]Decision{DecisionAllow, DecisionBlock, DecisionContinue, DecisionDeny, DecisionReplace})
}

// ChunkType is the type of a provider stream chunk.
type ChunkType string

// Provider chunk types.
const (
	ChunkText              ChunkType = "text"
	ChunkReasoning         ChunkType = "reasoning"
	ChunkToolCallStart     ChunkType = "tool_call_start"
	ChunkToolCallArgsDelta ChunkType = "tool_call_args_delta"
	ChunkToolCall          ChunkType = "tool_call"
	ChunkUsage             ChunkType = "usage"
	ChunkDone              ChunkType = "done"
	ChunkError             ChunkType = "error"
)

// EnumValues implements Enum.
func (ChunkType) EnumValues() []string {
	return stringsOf([]ChunkType{ChunkDone, ChunkError, ChunkReasoning, ChunkText, ChunkToolCall, ChunkToolCallArgsDelta, ChunkToolCallStart, ChunkUsage})
}

// ProviderErrorCode classifies a provider stream error.
type ProviderErrorCode string

// Provider error codes (a subset of the error table's reasons).
const (
	ProviderErrorFailed      ProviderErrorCode = "provider_failed"
	ProviderErrorInterrupted ProviderErrorCode = "provider_interrupted"
)

// EnumValues implements Enum.
func (ProviderErrorCode) EnumValues() []string {
	return []string{string(ProviderErrorFailed), string(ProviderErrorInterrupted)}
}

// UIHost names the front end the host runs.
type UIHost string

// UI hosts. This desktop host sends desktop or headless.
const (
	UIHostACP      UIHost = "acp"
	UIHostDesktop  UIHost = "desktop"
	UIHostHeadless UIHost = "headless"
	UIHostTUI      UIHost = "tui"
)

// EnumValues implements Enum.
func (UIHost) EnumValues() []string {
	return stringsOf([]UIHost{UIHostACP, UIHostDesktop, UIHostHeadless, UIHostTUI})
}

// MessageRole is the role of a provider message.
type MessageRole string

// Message roles.
const (
	RoleSystem    MessageRole = "system"
	RoleUser      MessageRole = "user"
	RoleAssistant MessageRole = "assistant"
	RoleTool      MessageRole = "tool"
)

// EnumValues implements Enum.
func (MessageRole) EnumValues() []string {
	return stringsOf([]MessageRole{RoleAssistant, RoleSystem, RoleTool, RoleUser})
}

// ContentEncoding is the encoding of host/content/read data.
type ContentEncoding string

// EncodingUTF8 is the only content encoding of v2.
const EncodingUTF8 ContentEncoding = "utf8"

// EnumValues implements Enum.
func (ContentEncoding) EnumValues() []string { return []string{string(EncodingUTF8)} }

// PublishKind is the kind of a host/ui/publish surface.
type PublishKind string

// Surface kinds.
const (
	PublishStatus       PublishKind = "status"
	PublishCard         PublishKind = "card"
	PublishForm         PublishKind = "form"
	PublishNotification PublishKind = "notification"
)

// EnumValues implements Enum.
func (PublishKind) EnumValues() []string {
	return stringsOf([]PublishKind{PublishCard, PublishForm, PublishNotification, PublishStatus})
}

// RequestKind is the kind of a host/ui/request prompt.
type RequestKind string

// Prompt kinds.
const (
	RequestConfirm     RequestKind = "confirm"
	RequestInput       RequestKind = "input"
	RequestSelect      RequestKind = "select"
	RequestMultiselect RequestKind = "multiselect"
)

// EnumValues implements Enum.
func (RequestKind) EnumValues() []string {
	return stringsOf([]RequestKind{RequestConfirm, RequestInput, RequestMultiselect, RequestSelect})
}

// BrowserAction is an action of host/browser/tab/act.
type BrowserAction string

// EnumValues implements Enum.
func (BrowserAction) EnumValues() []string {
	return []string{"click", "hover", "press", "scroll", "select", "type"}
}

// TabDisposition is where host/browser/tab/open opens a tab.
type TabDisposition string

// EnumValues implements Enum.
func (TabDisposition) EnumValues() []string { return []string{"background", "foreground"} }

// WaitUntil is the condition of host/browser/tab/wait.
type WaitUntil string

// EnumValues implements Enum.
func (WaitUntil) EnumValues() []string {
	return []string{"dom_content_loaded", "load", "navigation", "network_idle"}
}

// Enum is implemented by string types whose values are a closed set. The
// schema generator and the strict decoder both read the set from here.
type Enum interface {
	EnumValues() []string
}

func contains[T comparable](list []T, v T) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func stringsOf[T ~string](list []T) []string {
	out := make([]string, len(list))
	for i, v := range list {
		out[i] = string(v)
	}
	return out
}
