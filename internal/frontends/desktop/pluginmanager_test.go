package desktop

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/markdown"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// findButton finds the button labelled text under o (a dialog's popup).
func findButton(o fyne.CanvasObject, text string) *widget.Button {
	if b, ok := o.(*widget.Button); ok && b.Text == text {
		return b
	}
	var kids []fyne.CanvasObject
	switch x := o.(type) {
	case *fyne.Container:
		kids = x.Objects
	case fyne.Widget:
		kids = test.WidgetRenderer(x).Objects()
	}
	for _, k := range kids {
		if b := findButton(k, text); b != nil {
			return b
		}
	}
	return nil
}

// windowNamed is the open window titled title, or nil.
func (h *harness) windowNamed(title string) fyne.Window {
	for _, w := range h.d.opts.App.Driver().AllWindows() {
		if w.Title() == title {
			return w
		}
	}
	return nil
}

// shownText is the text of every label and rich text laid out in w.
func shownText(w fyne.Window) string {
	var b strings.Builder
	for _, o := range test.LaidOutObjects(w.Content()) {
		switch x := o.(type) {
		case *widget.Label:
			b.WriteString(x.Text + "\n")
		case *widget.RichText:
			if x.Visible() {
				b.WriteString(markdown.PlainText(x.Segments) + "\n")
			}
		case transcriptText:
			if x.Visible() {
				b.WriteString(markdown.PlainText(x.RichTextWidget().Segments) + "\n")
			}
		}
	}
	return b.String()
}

func (h *harness) pluginState(name string) string {
	for _, p := range h.d.state.Plugins() {
		if p.Name == name {
			return p.State
		}
	}
	return ""
}

// The plugin manager drives a real core with real plugins: the FULL TRUST
// block, the doctor, disable and enable, install through the preview,
// restart and remove all go through the core's API and land in the store.
func TestPluginManagerThroughTheCore(t *testing.T) {
	h := newHarness(t)
	h.install("echo-provider")
	h.openCore()
	h.waitFor("echo-provider active", func() bool { return h.pluginState("echo-provider") == agent.PluginActive })
	var w fyne.Window
	button := func(text string) *widget.Button {
		t.Helper()
		b := findButton(w.Content(), text)
		if b == nil {
			t.Fatalf("no %q button in the manager", text)
		}
		return b
	}
	h.ui(func() {
		h.d.showPluginManager()
		w = h.windowNamed("Plugins")
	})
	h.waitFor("the FULL TRUST block", func() bool { return strings.Contains(shownText(w), "FULL TRUST") })
	h.ui(func() {
		text := shownText(w)
		for _, want := range []string{"echo-provider", "command:", "runs outside any sandbox"} {
			if !strings.Contains(text, want) {
				t.Errorf("details lack %q:\n%s", want, text)
			}
		}
		test.Tap(button("Doctor"))
	})
	var doctor string
	h.waitFor("the doctor", func() bool {
		if dw := h.windowNamed("Doctor: echo-provider"); dw != nil {
			doctor = shownText(dw)
		}
		return doctor != ""
	})
	for _, want := range []string{"running:     Active in generation 1", "handshake:   ok", "plugin/echo-provider/echo/echo-1", "doctor: all checks passed"} {
		if !strings.Contains(doctor, want) {
			t.Errorf("doctor lacks %q:\n%s", want, doctor)
		}
	}
	store, err := agent.OpenPlugins(h.layout)
	if err != nil {
		t.Fatal(err)
	}
	enabled := func() bool {
		r, err := store.Get("echo-provider")
		if err != nil {
			t.Fatal(err)
		}
		return r.Enabled
	}

	h.ui(func() { test.Tap(button("Disable")) })
	h.waitFor("disabled", func() bool { return h.pluginState("echo-provider") == agent.PluginDisabled })
	if enabled() {
		t.Error("Disable did not reach the store")
	}
	h.ui(func() {
		if !button("Restart").Disabled() {
			t.Error("Restart is enabled for a disabled plugin")
		}
		test.Tap(button("Enable"))
	})
	h.waitFor("enabled", func() bool { return h.pluginState("echo-provider") == agent.PluginActive })
	if !enabled() {
		t.Error("Enable did not reach the store")
	}

	// Install: the form, the FULL TRUST preview, its Install button.
	src := testutil.ExamplePlugin(t, "policy-guard")
	h.ui(func() {
		test.Tap(button("Install…"))
		path := w.Canvas().Focused() // the dialog focuses its path field
		if path == nil {
			t.Fatal("Install… focused nothing")
		}
		test.Type(path, src)
		test.Tap(findButton(w.Canvas().Overlays().Top(), "Preview…"))
	})
	var install *widget.Button
	h.waitFor("the FULL TRUST preview", func() bool {
		top := w.Canvas().Overlays().Top()
		install = nil
		if top != nil {
			install = findButton(top, "Install")
		}
		return install != nil
	})
	if _, err := store.Get("policy-guard"); err == nil {
		t.Fatal("the preview installed the plugin")
	}
	h.ui(func() { test.Tap(install) })
	h.waitFor("policy-guard active", func() bool { return h.pluginState("policy-guard") == agent.PluginActive })
	rec, err := store.Get("policy-guard")
	if err != nil || rec.Linked || rec.Root == src {
		t.Fatalf("installed %+v, %v: want a copy", rec, err)
	}

	gen := func() int64 {
		for _, p := range h.d.state.Plugins() {
			return p.Generation
		}
		return 0
	}
	var before int64
	h.ui(func() {
		before = gen()
		i := slices.IndexFunc(h.d.state.Plugins(), func(p agent.PluginInfo) bool { return p.Name == "policy-guard" })
		for _, o := range test.LaidOutObjects(w.Content()) {
			if l, ok := o.(*widget.List); ok {
				l.Select(i)
			}
		}
		test.Tap(button("Restart"))
	})
	h.waitFor("a new generation", func() bool { return gen() > before })
	// A copy of a folder has nothing to fetch: no Update…, and the details
	// say why.
	h.waitFor("policy-guard's source", func() bool {
		return strings.Contains(shownText(w), "Update needs a plugin installed from git")
	})
	h.ui(func() {
		if b := button("Update…"); b.Visible() {
			t.Error("Update… is shown for a plugin copied from a folder")
		}
	})

	h.ui(func() {
		test.Tap(button("Remove"))
		yes := findButton(w.Canvas().Overlays().Top(), "Remove policy-guard")
		if yes == nil {
			t.Fatal("Remove asked nothing")
		}
		test.Tap(yes)
	})
	h.waitFor("policy-guard removed", func() bool { return h.pluginState("policy-guard") == "" && len(h.d.state.Plugins()) == 1 })
	if _, err := store.Get("policy-guard"); err == nil {
		t.Error("Remove did not reach the store")
	}
}

// overlayText is the text of every label on the canvas's top overlay (an
// open dialog), "" when none is open.
func overlayText(w fyne.Window) string {
	top := w.Canvas().Overlays().Top()
	if top == nil {
		return ""
	}
	var b strings.Builder
	for _, o := range test.LaidOutObjects(top) {
		if l, ok := o.(*widget.Label); ok && l.Visible() {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}

// installGit installs gitpkg from url the way Install… does.
func (h *harness) installGit(url string) agent.PluginRecord {
	h.t.Helper()
	store, err := agent.OpenPlugins(h.layout)
	if err != nil {
		h.t.Fatal(err)
	}
	pv, err := store.PreviewInstallFrom(context.Background(), agent.InstallRequest{Source: url})
	if err != nil {
		h.t.Fatal(err)
	}
	rec, err := store.Install(pv)
	if err != nil {
		h.t.Fatal(err)
	}
	return rec
}

// openManager opens the plugin manager once name is listed and waits for
// its details to say where name came from.
func (h *harness) openManager(name string) fyne.Window {
	h.t.Helper()
	h.waitFor(name+" listed", func() bool { return h.pluginState(name) != "" })
	var w fyne.Window
	h.ui(func() {
		h.d.showPluginManager()
		w = h.windowNamed("Plugins")
	})
	h.waitFor("where "+name+" came from", func() bool { return strings.Contains(shownText(w), "Source: ") })
	return w
}

// Update… on a plugin cloned from git, end to end through a real core: a
// busy dialog while git fetches, the install preview with its FULL TRUST
// block and what changes, then the new version installed and running.
func TestPluginManagerUpdatesAGitPlugin(t *testing.T) {
	h := newHarness(t)
	url, push := testutil.GitRepo(t)
	old := h.installGit(url)
	push("1.1.0")
	h.openCore()
	w := h.openManager("gitpkg")
	var update *widget.Button
	h.ui(func() {
		if text := shownText(w); !strings.Contains(text, url) || !strings.Contains(text, "Update… fetches it again") {
			t.Errorf("details do not say where gitpkg came from:\n%s", text)
		}
		update = findButton(w.Content(), "Update…")
		if update == nil || !update.Visible() || update.Disabled() {
			t.Fatal("no Update… button for a plugin cloned from git")
		}
		if b := findButton(w.Content(), "Migrate to v2"); b == nil || b.Visible() {
			t.Error("Migrate to v2 is shown for a v2 plugin")
		}
		test.Tap(update)
		// The fetch runs off the UI goroutine: until it ends the dialog
		// is busy, and only Cancel is offered.
		if overlayHas(w, "Cancel") == nil || overlayHas(w, "Update") != nil || !strings.Contains(overlayText(w), "Fetching "+url) {
			t.Errorf("no busy state while fetching:\n%s", overlayText(w))
		}
	})
	var install *widget.Button
	h.waitFor("the update's preview", func() bool { install = overlayHas(w, "Update"); return install != nil })
	h.ui(func() {
		text := overlayText(w)
		for _, want := range []string{"Installed: gitpkg 1.0.0 at commit " + old.Commit[:12], "Fetched:   gitpkg 1.1.0 at commit ",
			"FULL TRUST", "hooks/guard.sh", "runs outside any sandbox", "Replaces: gitpkg 1.0.0"} {
			if !strings.Contains(text, want) {
				t.Errorf("the update's preview lacks %q:\n%s", want, text)
			}
		}
		test.Tap(install)
	})
	h.waitFor("the update's result", func() bool { return strings.Contains(overlayText(w), "Updated gitpkg to 1.1.0") })
	store, err := agent.OpenPlugins(h.layout)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := store.Get("gitpkg")
	if err != nil || rec.Version != "1.1.0" || rec.Commit == old.Commit || rec.Source != url || rec.Root != old.Root {
		t.Fatalf("after the update: %+v, %v", rec, err)
	}
	if left, _ := os.ReadDir(h.layout.StagingDir()); len(left) != 0 {
		t.Errorf("the update left its clone: %v", left)
	}
	h.ui(func() { test.Tap(overlayHas(w, "Close")) })
	h.waitFor("gitpkg 1.1.0 running", func() bool {
		for _, p := range h.d.state.Plugins() {
			if p.Name == "gitpkg" {
				return p.Version == "1.1.0" && p.State == "Ready"
			}
		}
		return false
	})
	h.waitFor("the details of 1.1.0", func() bool { return strings.Contains(shownText(w), "at commit "+rec.Commit[:12]) })
	h.ui(func() {
		if w.Canvas().Overlays().Top() != nil {
			t.Error("Close left the dialog open")
		}
	})
}

// Cancel while git waits on a server that never answers: the dialog closes
// at once, git (and its http helper) is killed so the connection closes,
// and nothing is left staged. An error is shown in words, not a crash.
func TestPluginManagerUpdateCancelAndErrors(t *testing.T) {
	h := newHarness(t)
	url, _ := testutil.GitRepo(t)
	h.installGit(url)
	silent, accepted, hungUp := silentGitServer(t)
	setSource(t, h.layout, url, silent)
	h.openCore()
	w := h.openManager("gitpkg")
	h.ui(func() { test.Tap(findButton(w.Content(), "Update…")) })
	arrive(t, "git's connection", accepted)
	h.ui(func() {
		test.Tap(overlayHas(w, "Cancel"))
		if top := w.Canvas().Overlays().Top(); top != nil {
			t.Errorf("Cancel did not close the dialog at once:\n%s", overlayText(w))
		}
	})
	arrive(t, "git's hang-up", hungUp) // its http helper was killed with it
	h.waitFor("the cancelled clone removed", func() bool {
		left, _ := os.ReadDir(h.layout.StagingDir())
		return len(left) == 0
	})

	// A source that is gone: the error is in the dialog, in words.
	gone := "file://" + filepath.ToSlash(filepath.Join(t.TempDir(), "gone.git"))
	setSource(t, h.layout, silent, gone)
	h.ui(func() { test.Tap(findButton(w.Content(), "Update…")) })
	h.waitFor("the error", func() bool { return strings.Contains(overlayText(w), "The update of gitpkg failed: git clone") })
	h.ui(func() {
		test.Tap(overlayHas(w, "Close"))
		if w.Canvas().Overlays().Top() != nil {
			t.Error("Close left the error open")
		}
	})

	// Cancel at the preview drops the clone the preview was made from.
	setSource(t, h.layout, gone, url)
	h.ui(func() { test.Tap(findButton(w.Content(), "Update…")) })
	h.waitFor("the preview", func() bool { return overlayHas(w, "Update") != nil })
	if left, _ := os.ReadDir(h.layout.StagingDir()); len(left) != 1 {
		t.Fatalf("the preview staged %d clones", len(left))
	}
	h.ui(func() { // Esc is Cancel
		w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if w.Canvas().Overlays().Top() != nil {
			t.Error("Esc did not close the preview")
		}
	})
	h.waitFor("the unused clone removed", func() bool {
		left, _ := os.ReadDir(h.layout.StagingDir())
		return len(left) == 0
	})

	// Closing the manager while git waits cancels the fetch as Cancel does.
	setSource(t, h.layout, url, silent)
	h.ui(func() { test.Tap(findButton(w.Content(), "Update…")) })
	arrive(t, "git's second connection", accepted)
	h.ui(func() { w.Close() })
	arrive(t, "git's second hang-up", hungUp)
	h.waitFor("the second cancelled clone removed", func() bool {
		left, _ := os.ReadDir(h.layout.StagingDir())
		return len(left) == 0
	})
}

// silentGitServer is a git URL on a local server that accepts connections
// and never answers; accepted and hungUp receive once per connection made
// and closed by the client (git killed with its http helper).
func silentGitServer(t *testing.T) (url string, accepted, hungUp <-chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	acc, hung := make(chan struct{}, 4), make(chan struct{}, 4)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			acc <- struct{}{}
			go func() {
				defer c.Close()
				io.Copy(io.Discard, c) // never answers; returns when git hangs up
				hung <- struct{}{}
			}()
		}
	}()
	return "http://" + ln.Addr().String() + "/gitpkg.git", acc, hung
}

// arrive waits for ch; the bound only turns a hang into a failure.
func arrive(t *testing.T, what string, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(15 * time.Second):
		t.Fatal(what + " never happened")
	}
}

// setSource rewrites a recorded source in plugin-packages.json (as if the
// plugin had been installed from there).
func setSource(t *testing.T, layout agent.Layout, from, to string) {
	t.Helper()
	data, err := os.ReadFile(layout.PackagesFile())
	if err != nil {
		t.Fatal(err)
	}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	if !strings.Contains(string(data), q(from)) {
		t.Fatalf("no source %s in %s", from, data)
	}
	if err := os.WriteFile(layout.PackagesFile(), []byte(strings.Replace(string(data), q(from), q(to), 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Migrate to v2 on a linked legacy plugin (disabled_incompatible): the
// dialog says where the .bak goes, the migration and the reload run, and
// the plugin loads.
func TestPluginManagerMigratesALegacyPlugin(t *testing.T) {
	h := newHarness(t)
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "skills", "hello"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "skills", "hello", "SKILL.md"), []byte("---\nname: hello\ndescription: says hello\n---\nSay hello.\n"), 0o644)
	legacy := `{"name": "old-skills", "version": "0.2.0", "skills": ["skills"]}`
	if err := os.WriteFile(filepath.Join(root, agent.ManifestFile), []byte(legacy), 0o644); err != nil {
		t.Fatal(err)
	}
	store, err := agent.OpenPlugins(h.layout)
	if err != nil {
		t.Fatal(err)
	}
	pv, err := store.PreviewInstall(agent.InstallRequest{Source: root, Link: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Install(pv); err != nil {
		t.Fatal(err)
	}
	h.openCore()
	w := h.openManager("old-skills")
	backup := filepath.Join(root, agent.ManifestFile+".bak")
	var migrate *widget.Button
	h.waitFor("Migrate to v2", func() bool {
		migrate = findButton(w.Content(), "Migrate to v2")
		return migrate != nil && migrate.Visible()
	})
	h.ui(func() {
		if text := shownText(w); !strings.Contains(text, "disabled_incompatible") {
			t.Errorf("details do not say why it is off:\n%s", text)
		}
		if b := findButton(w.Content(), "Update…"); b == nil || b.Visible() {
			t.Error("Update… is shown for a linked folder")
		}
		test.Tap(migrate)
		text := overlayText(w)
		if !strings.Contains(text, backup) || !strings.Contains(text, "reasonix.io/plugin/v2") {
			t.Errorf("Migrate does not say where the old manifest goes:\n%s", text)
		}
		if overlayHas(w, "Migrate") == nil {
			t.Fatal("no Migrate button")
		}
		w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyReturn}) // Enter is Migrate
	})
	h.waitFor("the migration's result", func() bool { return strings.Contains(overlayText(w), "Migrated old-skills") })
	h.ui(func() {
		text := overlayText(w)
		for _, want := range []string{"kept at " + backup, "State now: Ready", `"apiVersion": "reasonix.io/plugin/v2"`} {
			if !strings.Contains(text, want) {
				t.Errorf("the result lacks %q:\n%s", want, text)
			}
		}
	})
	if data, err := os.ReadFile(backup); err != nil || string(data) != legacy {
		t.Errorf("the .bak holds %q, %v", data, err)
	}
	h.ui(func() { test.Tap(overlayHas(w, "Close")) })
	h.waitFor("old-skills ready", func() bool { return h.pluginState("old-skills") == "Ready" })
	h.waitFor("Migrate gone", func() bool {
		b := findButton(w.Content(), "Migrate to v2")
		return b != nil && !b.Visible() && !strings.Contains(shownText(w), "disabled_incompatible")
	})
}
