package protocol

// The browser methods are part of the frozen v2 surface. This desktop host has
// no browser companion and answers every host/browser/tab/* call with
// browser_unavailable; the DTOs exist so the schema is complete.

// BrowserTab describes one tab.
type BrowserTab struct {
	TabID      string `json:"tabId" schema:"minLength=1"`
	URL        string `json:"url"`
	Title      string `json:"title"`
	Active     bool   `json:"active"`
	Generation int64  `json:"generation"`
}

// BrowserTabListParams are the (empty) params of host/browser/tab/list.
type BrowserTabListParams struct{}

// BrowserTabListResult lists tabs.
type BrowserTabListResult struct {
	Tabs []BrowserTab `json:"tabs"`
}

// BrowserTabOpenParams open a tab.
type BrowserTabOpenParams struct {
	URL         string         `json:"url" schema:"minLength=1"`
	Disposition TabDisposition `json:"disposition"`
}

// BrowserTabOpenResult answers host/browser/tab/open.
type BrowserTabOpenResult struct {
	Tab BrowserTab `json:"tab"`
}

// BrowserTabSnapshotParams ask for a text snapshot of a tab.
type BrowserTabSnapshotParams struct {
	TabID    string `json:"tabId" schema:"minLength=1"`
	MaxChars int64  `json:"maxChars,omitempty" schema:"minimum=1"`
}

// BrowserTabSnapshotResult is a tab snapshot.
type BrowserTabSnapshotResult struct {
	Tab      BrowserTab `json:"tab"`
	Origin   string     `json:"origin"`
	Snapshot string     `json:"snapshot"`
}

// BrowserTabActParams act on a tab.
type BrowserTabActParams struct {
	TabID          string        `json:"tabId" schema:"minLength=1"`
	ExpectedOrigin string        `json:"expectedOrigin" schema:"minLength=1"`
	Action         BrowserAction `json:"action"`
	Ref            string        `json:"ref,omitempty"`
	Text           string        `json:"text,omitempty"`
	Key            string        `json:"key,omitempty"`
	Value          string        `json:"value,omitempty"`
	Delta          int64         `json:"delta,omitempty"`
}

// BrowserTabActResult answers host/browser/tab/act.
type BrowserTabActResult struct {
	Tab BrowserTab `json:"tab"`
}

// BrowserTabWaitParams wait for a tab condition.
type BrowserTabWaitParams struct {
	TabID         string    `json:"tabId" schema:"minLength=1"`
	WaitUntil     WaitUntil `json:"waitUntil"`
	TimeoutMillis int64     `json:"timeoutMillis,omitempty" schema:"minimum=1,maximum=30000"`
}

// BrowserTabWaitResult answers host/browser/tab/wait.
type BrowserTabWaitResult struct {
	Tab BrowserTab `json:"tab"`
}
