package desktop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/forms"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// harness is a window on Fyne's test driver. The test goroutine acts as
// the UI goroutine inside h.ui (the bridge's lock), like the bridge's pump.
type harness struct {
	t      testing.TB
	d      *UI
	layout agent.Layout

	mu     sync.Mutex
	opened []string // URLs the app was asked to open
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	layout := agent.Layout{Root: t.TempDir()}
	if err := layout.EnsureDirs(); err != nil {
		t.Fatal(err)
	}
	return newHarnessAt(t, layout)
}

// newHarnessAt is a window on the data directory layout (a second start).
func newHarnessAt(t testing.TB, layout agent.Layout) *harness {
	t.Helper()
	a := test.NewTempApp(t)
	h := &harness{t: t, layout: layout}
	h.d = newUI(Options{App: a, Layout: layout, Version: "test"})
	h.d.hasCJKFont = func() bool { return true } // the tests' fonts are not the machine's
	h.d.openURL = func(u *url.URL) error {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.opened = append(h.opened, u.String())
		return nil
	}
	t.Cleanup(h.d.Close)
	h.ui(func() { h.d.win.Show() })
	return h
}

// ui runs fn as UI work.
func (h *harness) ui(fn func()) { h.d.b.OnUI(fn) }

// waitFor checks cond as UI work until it holds (testutil.Eventually:
// the core's sidecars are other processes, there is no event to wait on).
func (h *harness) waitFor(what string, cond func() bool) {
	h.t.Helper()
	testutil.Eventually(h.t, what, func() (ok bool) {
		h.ui(func() { ok = cond() })
		return ok
	})
}

func (h *harness) openedURLs() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.opened...)
}

// topDialog is the canvas's top overlay (an open dialog or popup).
func (h *harness) topOverlay() fyne.CanvasObject {
	return h.d.win.Canvas().Overlays().Top()
}

// overlayButton is the button labelled text in an open dialog or popup.
func overlayButton(t testing.TB, top fyne.CanvasObject, text string) *widget.Button {
	t.Helper()
	if b := visibleButton(top, text); b != nil {
		return b
	}
	t.Fatalf("no %q button on top", text)
	return nil
}

// overlayHas is the visible button labelled text on w's open dialog, or nil.
func overlayHas(w fyne.Window, text string) *widget.Button {
	return visibleButton(w.Canvas().Overlays().Top(), text)
}

// visibleButton is the visible button labelled text in top, or nil.
func visibleButton(top fyne.CanvasObject, text string) *widget.Button {
	if top == nil {
		return nil
	}
	for _, o := range test.LaidOutObjects(top) {
		if b, ok := o.(*widget.Button); ok && b.Text == text && b.Visible() {
			return b
		}
		// A dialog's button with a focus ring: its Button taps as it does.
		if b, ok := o.(*forms.Button); ok && b.Text == text && b.Visible() {
			return &b.Button
		}
	}
	return nil
}

type promptResult struct {
	values    map[string]any
	cancelled bool
}

// --- a real core with real example plugins ---

func (h *harness) install(name string) {
	h.t.Helper()
	store, err := agent.OpenPlugins(h.layout)
	if err != nil {
		h.t.Fatal(err)
	}
	pv, err := store.PreviewInstall(agent.InstallRequest{Source: testutil.ExamplePlugin(h.t, name), Link: true})
	if err != nil {
		h.t.Fatal(err)
	}
	if _, err := store.Install(pv); err != nil {
		h.t.Fatal(err)
	}
}

// openCore opens the agent core on the harness's data dir, with the window
// as its front end, and attaches it.
func (h *harness) openCore() *agent.Core {
	h.t.Helper()
	c, err := agent.Open(context.Background(), agent.Config{Layout: h.layout, Workspace: h.t.TempDir(),
		UIHost: protocol.UIHostDesktop, Frontend: h.d, OnFrame: h.d.OnFrame})
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { c.Close(context.Background()) })
	h.d.Attach(c)
	return c
}

// openHello opens the core with hello-surfaces installed and waits for its
// initial status, card and form. The first publishes of a generation are
// bound before its sidecars get extension/initialized, so they always
// arrive: a missing surface is a failure, not a race to retry.
func (h *harness) openHello() *agent.Core {
	h.t.Helper()
	c := h.openCore()
	h.waitFor("hello-surfaces' initial surfaces", func() bool {
		return h.d.surfaceView("hello-surfaces", "hello-card") != nil &&
			h.d.surfaceView("hello-surfaces", "hello-form") != nil &&
			strings.Contains(h.d.status.Text(), "hello-surfaces ready")
	})
	return c
}

// --- a fake core around a real surfaces store ---

type fakeCore struct {
	store   *surfaces.Store
	mu      sync.Mutex
	invoked []string
	submits []map[string]any
	perms   agent.Permissions
	exts    []agent.ExtensionStatus
	cmdOut  string // what RunCommand answers ("" : no commands)
	// Stop and rewind (rewind_test.go): the calls stopped, the session's
	// messages, the plan PlanRewind answers and the rewinds asked.
	stopped    []string
	messages   []protocol.ProviderMessage
	rewindPlan agent.RewindPlan
	rewound    []string
	rewindCmd  *agent.CommandResult // what /rewind answers (nil: unknown)
	// market answers the Discover view (market_test.go); nil: no market.
	market agent.MarketAdmin
}

const (
	fakeSession = "s1"
	fakeGen     = int64(1)
)

func newFakeCore(t testing.TB, d *UI) *fakeCore {
	f := newDetachedFakeCore(t, d)
	d.Attach(f)
	return f
}

// newDetachedFakeCore is a fake core not attached yet (a test wraps it).
func newDetachedFakeCore(t testing.TB, d *UI) *fakeCore {
	f := &fakeCore{store: surfaces.NewStore(func(p string) surfaces.PluginState { return surfaces.PluginActive })}
	f.store.Bind(surfaces.Binding{SessionID: fakeSession, Generation: fakeGen})
	unsubscribe := f.store.Subscribe(func(ch surfaces.Change) { d.Emit(agent.Event{Kind: agent.EventSurface, Surface: &ch}) })
	t.Cleanup(unsubscribe)
	return f
}

// publish stores one surface the way host/ui/publish does.
func (f *fakeCore) publish(t testing.TB, plugin, kind, id, payload string) {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{"kind": kind, "surfaceId": id, "sessionId": fakeSession,
		"generation": fakeGen, "payload": json.RawMessage(payload)})
	res, err := f.store.Publish(plugin, raw)
	if err != nil || !res.Accepted {
		t.Fatalf("publish %s %s: %v %v", kind, id, res, err)
	}
}

// prompt admits a host/ui/request the way the core does.
func (f *fakeCore) prompt(t testing.TB, plugin, kind, payload string) *surfaces.Prompt {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{"kind": kind, "surfaceId": "ask", "sessionId": fakeSession,
		"generation": fakeGen, "payload": json.RawMessage(payload)})
	p, early, err := f.store.AdmitRequest(plugin, raw)
	if err != nil || early != nil {
		t.Fatalf("admit %s: %v %v", kind, early, err)
	}
	return p
}

func (f *fakeCore) SendAll(context.Context, string) error { return nil }
func (f *fakeCore) SendWithAttachments(context.Context, string, []agent.Attachment) error {
	return nil
}
func (f *fakeCore) Completions() []agent.CommandInfo { return nil }

// The fake keeps no versions: there is nothing to ask again.
func (f *fakeCore) Regenerate(context.Context) error       { return agent.ErrNothingToRegenerate }
func (f *fakeCore) EditLast(context.Context, string) error { return agent.ErrNothingToRegenerate }
func (f *fakeCore) ShowVersion(context.Context, int) error { return agent.ErrNothingToRegenerate }
func (f *fakeCore) LastReplyVersion() (shown, total int)   { return 0, 0 }
func (f *fakeCore) Retry(context.Context) error            { return agent.ErrNothingToRetry }
func (f *fakeCore) Stop()                                  {}
func (f *fakeCore) StopCall(id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopped = append(f.stopped, id)
	return true
}
func (f *fakeCore) PlanRewind(_ context.Context, i int) (agent.RewindPlan, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := f.rewindPlan
	p.MessageIndex = i
	return p, nil
}
func (f *fakeCore) Rewind(_ context.Context, i int, mode agent.RewindMode, force bool) (agent.RewindResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rewound = append(f.rewound, fmt.Sprintf("%d %s %v", i, mode, force))
	if mode != agent.RewindCode && i < len(f.messages) {
		f.messages = f.messages[:i]
	}
	return agent.RewindResult{Restored: []string{"a.txt"}, Draft: "draft of " + strconv.Itoa(i)}, nil
}
func (f *fakeCore) Session() agent.Session {
	f.mu.Lock()
	defer f.mu.Unlock()
	return agent.Session{ID: fakeSession, Messages: slices.Clone(f.messages)}
}
func (f *fakeCore) Sessions() []agent.Summary                           { return nil }
func (f *fakeCore) NewSession(context.Context, string) error            { return nil }
func (f *fakeCore) LoadSession(context.Context, string) error           { return nil }
func (f *fakeCore) Models(context.Context) ([]providers.Model, []error) { return nil, nil }
func (f *fakeCore) SetModel(context.Context, string, string) error      { return nil }
func (f *fakeCore) Plugins() []agent.PluginInfo                         { return nil }
func (f *fakeCore) Reload(context.Context) error                        { return nil }
func (f *fakeCore) SurfaceList() []surfaces.Surface                     { return f.store.Surfaces() }
func (f *fakeCore) PromptStale(p *surfaces.Prompt) bool                 { return f.store.Stale(p) }

// The fake has no package store: plugin commands fail (the plugin manager
// tests that run them use a real core).
var errNoStore = errors.New("the fake core has no plugin store")

func (f *fakeCore) PreviewPluginInstall(context.Context, agent.InstallRequest) (agent.InstallPreview, error) {
	return agent.InstallPreview{}, errNoStore
}
func (f *fakeCore) InstallPlugin(context.Context, agent.InstallPreview) (agent.PluginRecord, error) {
	return agent.PluginRecord{}, errNoStore
}
func (f *fakeCore) RemovePlugin(context.Context, string) error           { return errNoStore }
func (f *fakeCore) SetPluginEnabled(context.Context, string, bool) error { return errNoStore }
func (f *fakeCore) RestartPlugin(context.Context, string) error          { return errNoStore }
func (f *fakeCore) PluginManifest(string) (agent.PluginManifest, error) {
	return agent.PluginManifest{}, errNoStore
}
func (f *fakeCore) PluginDoctor(context.Context, string) (agent.DoctorReport, error) {
	return agent.DoctorReport{}, errNoStore
}
func (f *fakeCore) PluginOrigin(string) (agent.PluginOrigin, error) {
	return agent.PluginOrigin{}, errNoStore
}
func (f *fakeCore) PreviewPluginUpdate(context.Context, string) (agent.InstallPreview, error) {
	return agent.InstallPreview{}, errNoStore
}
func (f *fakeCore) DiscardPluginPreview(agent.InstallPreview)             {}
func (f *fakeCore) MigratePlugin(context.Context, string) (string, error) { return "", errNoStore }
func (f *fakeCore) ExportSession(string, string) ([]byte, error)          { return nil, errNoStore }
func (f *fakeCore) Actions() []surfaces.Action                            { return nil }
func (f *fakeCore) Commands() []agent.Command                             { return nil }
func (f *fakeCore) RunCommand(context.Context, string) (string, error) {
	if f.cmdOut != "" {
		return f.cmdOut, nil
	}
	return "", errors.New("no commands")
}
func (f *fakeCore) SearchSessions(string) []agent.Summary               { return nil }
func (f *fakeCore) RenameSession(context.Context, string, string) error { return nil }
func (f *fakeCore) TrashSession(context.Context, string) error          { return nil }
func (f *fakeCore) RestoreSession(string) error                         { return nil }
func (f *fakeCore) PinSession(string, bool) error                       { return errNoStore }
func (f *fakeCore) SearchSessionText(context.Context, string, int) []agent.SessionHit {
	return nil
}
func (f *fakeCore) ImportSession(context.Context, []byte) (string, error) { return "", errNoStore }
func (f *fakeCore) SavedSession(string) (*agent.Session, error)           { return nil, errors.New("none") }
func (f *fakeCore) SavedStamp(string) (agent.SessionStamp, error) {
	return agent.SessionStamp{}, agent.ErrNoSession
}
func (f *fakeCore) ExtensionStatus() []agent.ExtensionStatus { return f.exts }
func (f *fakeCore) Permissions() agent.Permissions {
	f.mu.Lock()
	defer f.mu.Unlock()
	return agent.Permissions{Always: slices.Clone(f.perms.Always), Session: slices.Clone(f.perms.Session)}
}
func (f *fakeCore) RevokeAlways(r agent.Rule) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.perms.Always = slices.DeleteFunc(f.perms.Always, func(x agent.Rule) bool { return x == r })
	return nil
}
func (f *fakeCore) RevokeSession(_ context.Context, tool string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.perms.Session = slices.DeleteFunc(f.perms.Session, func(x string) bool { return x == tool })
	return nil
}
func (f *fakeCore) InvokeAction(_ context.Context, name string, _ map[string]string) (protocol.UIActionResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.invoked = append(f.invoked, name)
	return protocol.UIActionResult{}, nil
}
func (f *fakeCore) SubmitForm(_ context.Context, key surfaces.Key, values map[string]any) error {
	if _, err := f.store.BeginSubmit(key, values); err != nil {
		return err
	}
	f.mu.Lock()
	f.submits = append(f.submits, values)
	f.mu.Unlock()
	return f.store.SetSubmitState(key, surfaces.SubmitSent)
}

// cardView finds the panel's view of a surface by plugin and id (UI work).
func (d *UI) surfaceView(plugin, id string) *surfaceView {
	for k, v := range d.panel.views {
		if k.Plugin == plugin && k.SurfaceID == id {
			return v
		}
	}
	return nil
}
