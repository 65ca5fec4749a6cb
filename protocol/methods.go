package protocol

import (
	"reflect"
	"sort"
)

// Method names of Extension Protocol v2.
const (
	MethodInitialize         = "extension/initialize"
	MethodInitialized        = "extension/initialized"
	MethodShutdown           = "extension/shutdown"
	MethodIntercept          = "extension/intercept"
	MethodEvent              = "extension/event"
	MethodResourcesChanged   = "extension/resources/changed"
	MethodProviderCatalog    = "extension/provider/catalog"
	MethodStreamOpen         = "extension/provider/stream/open"
	MethodStreamChunk        = "extension/provider/stream/chunk"
	MethodStreamEnd          = "extension/provider/stream/end"
	MethodStreamCancel       = "extension/provider/stream/cancel"
	MethodUIAction           = "extension/ui/action"
	MethodUISubmit           = "extension/ui/submit"
	MethodContentRead        = "host/content/read"
	MethodUIPublish          = "host/ui/publish"
	MethodUIRequest          = "host/ui/request"
	MethodBrowserTabList     = "host/browser/tab/list"
	MethodBrowserTabOpen     = "host/browser/tab/open"
	MethodBrowserTabSnapshot = "host/browser/tab/snapshot"
	MethodBrowserTabAct      = "host/browser/tab/act"
	MethodBrowserTabWait     = "host/browser/tab/wait"
)

// Direction says who sends a method and whether it expects an answer.
type Direction string

// Method directions.
const (
	HostToExtensionRequest      Direction = "host_to_extension_request"
	HostToExtensionNotification Direction = "host_to_extension_notification"
	ExtensionToHostRequest      Direction = "extension_to_host_request"
	ExtensionToHostNotification Direction = "extension_to_host_notification"
)

// Class groups methods by concern.
type Class string

// Method classes.
const (
	ClassLifecycle   Class = "lifecycle"
	ClassIntercept   Class = "intercept"
	ClassObservation Class = "observation"
	ClassProvider    Class = "provider"
	ClassUI          Class = "ui"
	ClassContent     Class = "content"
	ClassBrowser     Class = "browser"
)

// MethodSpec is one row of the method table.
type MethodSpec struct {
	Name         string
	Direction    Direction
	Class        Class
	Notification bool
	Params       reflect.Type
	Result       reflect.Type // nil for notifications
}

func spec[P any](name string, dir Direction, class Class) MethodSpec {
	return MethodSpec{Name: name, Direction: dir, Class: class, Notification: true, Params: reflect.TypeFor[P]()}
}

func call[P, R any](name string, dir Direction, class Class) MethodSpec {
	return MethodSpec{Name: name, Direction: dir, Class: class, Params: reflect.TypeFor[P](), Result: reflect.TypeFor[R]()}
}

var methodTable = func() map[string]MethodSpec {
	specs := []MethodSpec{
		call[InitializeParams, InitializeResult](MethodInitialize, HostToExtensionRequest, ClassLifecycle),
		spec[InitializedParams](MethodInitialized, HostToExtensionNotification, ClassLifecycle),
		call[ShutdownParams, ShutdownResult](MethodShutdown, HostToExtensionRequest, ClassLifecycle),
		call[InterceptParams, InterceptResult](MethodIntercept, HostToExtensionRequest, ClassIntercept),
		spec[EventParams](MethodEvent, HostToExtensionNotification, ClassObservation),
		spec[ResourcesChangedParams](MethodResourcesChanged, HostToExtensionNotification, ClassObservation),
		call[ProviderCatalogParams, ProviderCatalogResult](MethodProviderCatalog, HostToExtensionRequest, ClassProvider),
		call[StreamOpenParams, StreamOpenResult](MethodStreamOpen, HostToExtensionRequest, ClassProvider),
		spec[StreamChunkParams](MethodStreamChunk, ExtensionToHostNotification, ClassProvider),
		spec[StreamEndParams](MethodStreamEnd, ExtensionToHostNotification, ClassProvider),
		call[StreamCancelParams, StreamCancelResult](MethodStreamCancel, HostToExtensionRequest, ClassProvider),
		call[UIActionParams, UIActionResult](MethodUIAction, HostToExtensionRequest, ClassUI),
		call[UISubmitParams, UISubmitResult](MethodUISubmit, HostToExtensionRequest, ClassUI),
		call[ContentReadParams, ContentReadResult](MethodContentRead, ExtensionToHostRequest, ClassContent),
		call[UIPublishParams, UIPublishResult](MethodUIPublish, ExtensionToHostRequest, ClassUI),
		call[UIRequestParams, UIRequestResult](MethodUIRequest, ExtensionToHostRequest, ClassUI),
		call[BrowserTabListParams, BrowserTabListResult](MethodBrowserTabList, ExtensionToHostRequest, ClassBrowser),
		call[BrowserTabOpenParams, BrowserTabOpenResult](MethodBrowserTabOpen, ExtensionToHostRequest, ClassBrowser),
		call[BrowserTabSnapshotParams, BrowserTabSnapshotResult](MethodBrowserTabSnapshot, ExtensionToHostRequest, ClassBrowser),
		call[BrowserTabActParams, BrowserTabActResult](MethodBrowserTabAct, ExtensionToHostRequest, ClassBrowser),
		call[BrowserTabWaitParams, BrowserTabWaitResult](MethodBrowserTabWait, ExtensionToHostRequest, ClassBrowser),
	}
	m := make(map[string]MethodSpec, len(specs))
	for _, s := range specs {
		m[s.Name] = s
	}
	return m
}()

// LookupMethod returns the spec of a v2 method.
func LookupMethod(name string) (MethodSpec, bool) {
	s, ok := methodTable[name]
	return s, ok
}

// Methods returns the method table sorted by name.
func Methods() []MethodSpec {
	out := make([]MethodSpec, 0, len(methodTable))
	for _, s := range methodTable {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
