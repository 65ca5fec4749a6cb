package dialogs

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// overlayChecks are the open dialog's checkboxes, by their first word (the
// plugin's name).
func overlayChecks(w fyne.Window) map[string]*widget.Check {
	out := map[string]*widget.Check{}
	if top := w.Canvas().Overlays().Top(); top != nil {
		for _, o := range test.LaidOutObjects(top) {
			if c, ok := o.(*widget.Check); ok {
				out[strings.Fields(c.Text)[0]] = c
			}
		}
	}
	return out
}

// A marketplace root (shaped like anthropics/claude-code: ./plugins/<name>
// listed in .claude-plugin/marketplace.json) is not refused: Install…
// lists its plugins as checkboxes (one this host cannot install disabled,
// saying why), previews the ticked ones, each in its own tab with its
// compatibility report, and Install installs exactly those.
func TestInstallMarketplaceRootPicksPlugins(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "..", "..", "packages", "plugin", "testdata", "pkgs", "marketplace"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(src); err != nil {
		t.Fatal(err)
	}
	p := storePlugins(t)
	w, b := installWindow(t, fyne.NewSize(1000, 800))
	c := &storeInstall{p: p}
	t.Cleanup(c.wg.Wait)
	b.OnUI(func() {
		w.Show()
		NewInstall(w, new(uikit.ModalStack).Push, b, c).Show()
		test.Type(w.Canvas().Focused(), src)
		test.Tap(topButton(w, "Preview…"))
	})
	var checks map[string]*widget.Check
	waitFor(t, b.OnUI, "the marketplace's plugins", func() bool { checks = overlayChecks(w); return len(checks) > 0 })
	b.OnUI(func() {
		for _, name := range []string{"hookify", "security-guidance", "remote-one", "from-npm"} {
			if checks[name] == nil {
				t.Errorf("the picker lacks %s: %v", name, checks)
			}
		}
		if c := checks["from-npm"]; c == nil || !c.Disabled() || !strings.Contains(c.Text, "cannot be installed here") {
			t.Errorf("an npm plugin is offered: %+v", c)
		}
		if pv := topButton(w, "Preview…"); pv == nil || !pv.Disabled() {
			t.Error("Preview… is enabled with nothing ticked")
		}
		checks["hookify"].SetChecked(true)
		checks["security-guidance"].SetChecked(true)
		test.Tap(topButton(w, "Preview…"))
	})
	var install *widget.Button
	waitFor(t, b.OnUI, "the two previews", func() bool { install = topButton(w, "Install 2 plugins"); return install != nil })
	b.OnUI(func() {
		var tabs []string
		for _, o := range test.LaidOutObjects(w.Canvas().Overlays().Top()) {
			if at, ok := o.(*container.AppTabs); ok {
				for _, it := range at.Items {
					tabs = append(tabs, it.Text)
				}
			}
		}
		if !slices.Equal(tabs, []string{"hookify (partial)", "security-guidance"}) {
			t.Errorf("preview tabs %q", tabs)
		}
		if text := overlayText(w); !strings.Contains(text, "Compatibility: partial") {
			t.Errorf("hookify's tab lacks its report:\n%s", text)
		}
	})
	if recs, err := p.List(); err != nil || len(recs) != 0 {
		t.Fatalf("installed %v (%v) before Install", recs, err)
	}
	b.OnUI(func() { test.Tap(install) })
	c.wg.Wait()
	recs, err := p.List()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range recs {
		names = append(names, r.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"hookify", "security-guidance"}) {
		t.Fatalf("installed %v", names)
	}
}

// A marketplace repository (a git source: here a file:// URL of a local
// repository) is fetched behind Cancel, then its plugins are picked in the
// same dialog; the pick is previewed from a fresh clone and installed.
func TestInstallMarketplaceRepositoryPicksPlugins(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := filepath.Join(t.TempDir(), "claude-code")
	src, err := filepath.Abs(filepath.Join("..", "..", "..", "packages", "plugin", "testdata", "pkgs", "marketplace"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(repo, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"},
		{"-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "plugins"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	p := storePlugins(t)
	w, b := installWindow(t, fyne.NewSize(1000, 800))
	c := &storeInstall{p: p}
	t.Cleanup(c.wg.Wait)
	b.OnUI(func() {
		w.Show()
		NewInstall(w, new(uikit.ModalStack).Push, b, c).Show()
		test.Type(w.Canvas().Focused(), "file://"+filepath.ToSlash(repo))
		test.Tap(topButton(w, "Preview…"))
	})
	var checks map[string]*widget.Check
	waitFor(t, b.OnUI, "the marketplace's plugins", func() bool { checks = overlayChecks(w); return checks["hookify"] != nil })
	b.OnUI(func() {
		checks["hookify"].SetChecked(true)
		test.Tap(topButton(w, "Preview…"))
	})
	var install *widget.Button
	waitFor(t, b.OnUI, "hookify's preview", func() bool { install = topButton(w, "Install"); return install != nil })
	b.OnUI(func() { test.Tap(install) })
	c.wg.Wait()
	r, err := p.Get("hookify")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.Source, "file://") || !strings.Contains(r.Source, "claude-code#path=plugins%2Fhookify") {
		t.Errorf("recorded source %q: want the repository's plugins/hookify", r.Source)
	}
}

// remoteInstall is the real store, where a source naming another
// repository (a marketplace's remote plugin) previews a local stand-in:
// the test runs offline.
type remoteInstall struct {
	storeInstall
	stand string

	mu    sync.Mutex
	asked []string // the remote sources previewed
}

func (r *remoteInstall) PreviewPluginInstall(ctx context.Context, req agent.InstallRequest) (agent.InstallPreview, error) {
	if strings.Contains(req.Source, "remote-one") {
		r.mu.Lock()
		r.asked = append(r.asked, req.Source)
		r.mu.Unlock()
		req.Source = r.stand
	}
	return r.p.PreviewInstallFrom(ctx, req)
}

func (r *remoteInstall) WithCore(_ string, fn func(context.Context, InstallCore) error) {
	r.wg.Add(1)
	go func() { defer r.wg.Done(); fn(context.Background(), r) }()
}

func (r *remoteInstall) PluginCommand(what string, fn func(context.Context, InstallCore) error) {
	r.WithCore(what, fn)
}

// A plugin the marketplace lists in another repository is no refusal of
// the whole pick: it is previewed from its own source beside the
// marketplace's own plugins, and both install.
func TestInstallMarketplaceRemotePickPreviewsItsSource(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "..", "..", "packages", "plugin", "testdata", "pkgs", "marketplace"))
	if err != nil {
		t.Fatal(err)
	}
	c := &remoteInstall{storeInstall: storeInstall{p: storePlugins(t)}, stand: compatFixture(t, "security-guidance")}
	w, b := installWindow(t, fyne.NewSize(1000, 800))
	t.Cleanup(c.wg.Wait)
	b.OnUI(func() {
		w.Show()
		NewInstall(w, new(uikit.ModalStack).Push, b, c).Show()
		test.Type(w.Canvas().Focused(), src)
		test.Tap(topButton(w, "Preview…"))
	})
	var checks map[string]*widget.Check
	waitFor(t, b.OnUI, "the marketplace's plugins", func() bool { checks = overlayChecks(w); return checks["remote-one"] != nil })
	b.OnUI(func() {
		if !strings.Contains(checks["remote-one"].Text, "(from ") {
			t.Errorf("the remote plugin does not say where it lives: %q", checks["remote-one"].Text)
		}
		checks["hookify"].SetChecked(true)
		checks["remote-one"].SetChecked(true)
		test.Tap(topButton(w, "Preview…"))
	})
	var install *widget.Button
	waitFor(t, b.OnUI, "the two previews", func() bool { install = topButton(w, "Install 2 plugins"); return install != nil })
	c.mu.Lock()
	asked := slices.Clone(c.asked)
	c.mu.Unlock()
	if len(asked) != 1 || !strings.Contains(asked[0], "example/remote-one") {
		t.Fatalf("remote sources previewed: %q", asked)
	}
	b.OnUI(func() { test.Tap(install) })
	c.wg.Wait()
	for _, name := range []string{"hookify", "security-guidance"} {
		if _, err := c.p.Get(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
