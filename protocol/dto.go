package protocol

import "encoding/json"

// Struct tags drive both the canonical schema and the strict decoder:
//   - a json field without omitempty is required;
//   - `schema:"..."` adds constraints: minLength=N, minimum=N, maximum=N,
//     externalizable (payload fields that may travel as a content ref);
//   - string types implementing Enum restrict the value set.
// Keep the tags exact: the generated schema's hash is pinned.

// ---- lifecycle ----

// SessionContext identifies the session and runtime generation a sidecar serves.
type SessionContext struct {
	SessionID     string `json:"sessionId" schema:"minLength=1"`
	WorkspaceRoot string `json:"workspaceRoot" schema:"minLength=1"`
	Generation    int64  `json:"generation"`
	Epoch         string `json:"epoch,omitempty"`
}

// HostCapabilities tells the sidecar what the host supports.
type HostCapabilities struct {
	ContentRefs             bool   `json:"contentRefs"`
	UIHost                  UIHost `json:"uiHost"`
	ProtocolVersion         string `json:"protocolVersion" schema:"minLength=1"`
	DependencySchemaVersion int    `json:"dependencySchemaVersion,omitempty" schema:"minimum=0"`
}

// CapabilityWire is a provided capability (manifest `provides`).
type CapabilityWire struct {
	Namespace  string `json:"namespace" schema:"minLength=1"`
	Kind       string `json:"kind" schema:"minLength=1"`
	ID         string `json:"id" schema:"minLength=1"`
	Version    string `json:"version,omitempty"`
	SchemaHash string `json:"schemaHash,omitempty"`
}

// RequirementWire is a required capability (manifest `requires`).
type RequirementWire struct {
	Namespace    string `json:"namespace" schema:"minLength=1"`
	Kind         string `json:"kind" schema:"minLength=1"`
	ID           string `json:"id" schema:"minLength=1"`
	Version      string `json:"version,omitempty"`
	SchemaHash   string `json:"schemaHash,omitempty"`
	VersionRange string `json:"versionRange,omitempty"`
	Optional     bool   `json:"optional,omitempty"`
}

// ManifestExpectation is what the host will accept from this sidecar: the
// manifest's declaration. The sidecar's answer must be a subset of it.
type ManifestExpectation struct {
	Intercepts   []string          `json:"intercepts,omitempty"`
	Replaces     []string          `json:"replaces,omitempty"`
	Providers    []string          `json:"providers,omitempty"`
	UIActions    []string          `json:"uiActions,omitempty"`
	Capabilities []string          `json:"capabilities,omitempty"`
	Requires     []RequirementWire `json:"requires,omitempty"`
	Provides     []CapabilityWire  `json:"provides,omitempty"`
}

// InitializeParams are the params of extension/initialize. Every wire
// struct's field order is the real Reasonix host's, so the frames this host
// writes are byte for byte the ones a Reasonix plugin sees there.
type InitializeParams struct {
	ProtocolVersion         string              `json:"protocolVersion" schema:"minLength=1"`
	ProtocolID              string              `json:"protocolId" schema:"minLength=1"`
	Manifest                ManifestExpectation `json:"manifest"`
	Session                 SessionContext      `json:"session"`
	Capabilities            HostCapabilities    `json:"capabilities"`
	DependencySchemaVersion int                 `json:"dependencySchemaVersion,omitempty" schema:"minimum=0"`
}

// UIActionDecl declares one UI action a sidecar handles.
type UIActionDecl struct {
	ActionID string `json:"actionId" schema:"minLength=1"`
	Label    string `json:"label,omitempty"`
}

// InitializeResult is the sidecar's declaration.
type InitializeResult struct {
	Name               string               `json:"name" schema:"minLength=1"`
	Version            string               `json:"version" schema:"minLength=1"`
	ProtocolVersion    string               `json:"protocolVersion" schema:"minLength=1"`
	StateSchemaVersion int                  `json:"stateSchemaVersion" schema:"minimum=0"`
	ComponentID        string               `json:"componentId,omitempty"`
	Subscriptions      []string             `json:"subscriptions,omitempty"`
	Replaces           []string             `json:"replaces,omitempty"`
	Providers          []ProviderDescriptor `json:"providers,omitempty"`
	UIActions          []UIActionDecl       `json:"uiActions,omitempty"`
	Provides           []CapabilityWire     `json:"provides,omitempty"`
	Requires           []RequirementWire    `json:"requires,omitempty"`
}

// InitializedParams are the (empty) params of extension/initialized.
type InitializedParams struct{}

// ShutdownParams are the params of extension/shutdown.
type ShutdownParams struct {
	TimeoutMillis int64 `json:"timeoutMillis" schema:"minimum=0"`
}

// ShutdownResult answers extension/shutdown.
type ShutdownResult struct {
	Accepted bool `json:"accepted"`
}

// ResourcesChangedParams notifies a sidecar that workspace resources changed.
type ResourcesChangedParams struct {
	Paths []string `json:"paths"`
}

// ---- interception ----

// ExternalizedField describes a payload field that travels as a content ref.
type ExternalizedField struct {
	JSONPointer string `json:"jsonPointer" schema:"minLength=1"`
	ContentRef  string `json:"contentRef" schema:"minLength=1"`
	TotalBytes  int64  `json:"totalBytes" schema:"minimum=0"`
	SHA256      string `json:"sha256"`
}

// InterceptParams are the params of extension/intercept.
type InterceptParams struct {
	Event         HookPoint           `json:"event"`
	Seq           int64               `json:"seq" schema:"minimum=1"`
	Payload       json.RawMessage     `json:"payload" schema:"externalizable"`
	TimeoutMillis int64               `json:"timeoutMillis" schema:"minimum=0"`
	Externalized  []ExternalizedField `json:"externalized,omitempty"`
}

// InterceptResult is an interceptor's answer.
type InterceptResult struct {
	Decision     Decision            `json:"decision"`
	Reason       string              `json:"reason,omitempty"`
	Replacement  json.RawMessage     `json:"replacement,omitempty" schema:"externalizable"`
	Externalized []ExternalizedField `json:"externalized,omitempty"`
}

// EventParams are the params of the extension/event observation.
type EventParams struct {
	Event        HookPoint           `json:"event"`
	Payload      json.RawMessage     `json:"payload" schema:"externalizable"`
	Externalized []ExternalizedField `json:"externalized,omitempty"`
}

// ---- content ----

// ContentReadParams are the params of host/content/read.
type ContentReadParams struct {
	ContentRef string `json:"contentRef" schema:"minLength=1"`
	Offset     int64  `json:"offset" schema:"minimum=0"`
}

// ContentReadResult is one page of a content object.
type ContentReadResult struct {
	ContentRef string          `json:"contentRef" schema:"minLength=1"`
	Offset     int64           `json:"offset" schema:"minimum=0"`
	NextOffset int64           `json:"nextOffset,omitempty" schema:"minimum=0"`
	TotalBytes int64           `json:"totalBytes" schema:"minimum=0"`
	SHA256     string          `json:"sha256"`
	Encoding   ContentEncoding `json:"encoding"`
	DataBase64 string          `json:"dataBase64"`
}

// ---- UI ----

// UIPublishParams are the params of host/ui/publish. Payload is decoded by
// kind into StatusPayload, CardPayload, FormPayload or NotificationPayload.
type UIPublishParams struct {
	Kind       PublishKind     `json:"kind"`
	SurfaceID  string          `json:"surfaceId" schema:"minLength=1"`
	SessionID  string          `json:"sessionId" schema:"minLength=1"`
	Generation int64           `json:"generation"`
	Payload    json.RawMessage `json:"payload"`
}

// UIPublishResult answers host/ui/publish.
type UIPublishResult struct {
	Accepted bool `json:"accepted"`
}

// UIRequestParams are the params of host/ui/request. Payload is form-shaped
// (FormPayload); a payload with one field keyed "value" is the simple prompt.
type UIRequestParams struct {
	Kind       RequestKind     `json:"kind"`
	SurfaceID  string          `json:"surfaceId" schema:"minLength=1"`
	SessionID  string          `json:"sessionId" schema:"minLength=1"`
	Generation int64           `json:"generation"`
	Payload    json.RawMessage `json:"payload"`
}

// UIRequestResult answers host/ui/request.
type UIRequestResult struct {
	Cancelled bool           `json:"cancelled"`
	Values    map[string]any `json:"values,omitempty"`
}

// UIActionParams are the params of extension/ui/action.
type UIActionParams struct {
	ActionID   string            `json:"actionId" schema:"minLength=1"`
	SessionID  string            `json:"sessionId" schema:"minLength=1"`
	Generation int64             `json:"generation"`
	Args       map[string]string `json:"args,omitempty"`
}

// UIActionResult answers extension/ui/action.
type UIActionResult struct {
	Accepted bool   `json:"accepted"`
	Message  string `json:"message,omitempty"`
}

// UISubmitParams are the params of extension/ui/submit.
type UISubmitParams struct {
	SurfaceID  string         `json:"surfaceId" schema:"minLength=1"`
	SessionID  string         `json:"sessionId" schema:"minLength=1"`
	Generation int64          `json:"generation"`
	Values     map[string]any `json:"values"`
}

// UISubmitResult answers extension/ui/submit.
type UISubmitResult struct {
	Accepted bool `json:"accepted"`
}
