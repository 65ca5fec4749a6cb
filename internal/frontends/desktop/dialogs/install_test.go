package dialogs

import (
	"context"
	"errors"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// installCore previews any folder and records what it installs.
type installCore struct {
	wg sync.WaitGroup
	t  *testing.T

	mu        sync.Mutex
	requests  []agent.InstallRequest
	installed []string
	done      []string
}

func (c *installCore) PreviewPluginInstall(_ context.Context, req agent.InstallRequest) (agent.InstallPreview, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests = append(c.requests, req)
	if req.Source == "/missing" {
		return agent.InstallPreview{}, errors.New("no manifest")
	}
	return agent.InstallPreview{Name: "demo", Text: "demo 1.0\nFULL TRUST: runs commands"}, nil
}

func (c *installCore) InstallPlugin(_ context.Context, pv agent.InstallPreview) (agent.PluginRecord, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.installed = append(c.installed, pv.Name)
	return agent.PluginRecord{}, nil
}

func (c *installCore) DiscardPluginPreview(agent.InstallPreview) {}
func (c *installCore) Trace(string)                              {}

func (c *installCore) PreviewPluginInstallPicks(context.Context, agent.InstallRequest, []string) ([]agent.InstallPreview, error) {
	return nil, errors.New("no marketplace")
}

func (c *installCore) Async(what string, fn func(context.Context) error) {
	c.WithCore(what, func(ctx context.Context, _ InstallCore) error { return fn(ctx) })
}

func (c *installCore) WithCore(what string, fn func(context.Context, InstallCore) error) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		if err := fn(context.Background(), c); err != nil {
			c.mu.Lock()
			c.done = append(c.done, what+": "+err.Error())
			c.mu.Unlock()
		}
	}()
}

func (c *installCore) PluginCommand(what string, fn func(context.Context, InstallCore) error) {
	c.WithCore(what, func(ctx context.Context, ic InstallCore) error {
		if err := fn(ctx, ic); err != nil {
			return err
		}
		c.mu.Lock()
		c.done = append(c.done, what+": done")
		c.mu.Unlock()
		return nil
	})
}

func (c *installCore) snapshot() (reqs []agent.InstallRequest, installed, done []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append(reqs, c.requests...), append(installed, c.installed...), append(done, c.done...)
}

// topButton is the button labelled text in win's top dialog, or nil.
func topButton(win fyne.Window, text string) *widget.Button {
	top := win.Canvas().Overlays().Top()
	if top == nil {
		return nil
	}
	for _, o := range test.LaidOutObjects(top) {
		if b, ok := o.(*widget.Button); ok && b.Text == text && b.Visible() {
			return b
		}
	}
	return nil
}

// installWindow is a test app's window of size to open Install… over, and
// the bridge its UI work goes through.
func installWindow(t *testing.T, size fyne.Size) (fyne.Window, *uikit.Bridge) {
	a := test.NewTempApp(t)
	b := uikit.NewBridge()
	t.Cleanup(b.Stop)
	w := a.NewWindow("main")
	w.Resize(size)
	return w, b
}

// The path is typed into the focused field, Link ticked, Preview… asks
// for the FULL TRUST preview, and only its Install button installs.
func TestInstallPreviewsThenInstalls(t *testing.T) {
	w, b := installWindow(t, fyne.NewSize(900, 700))
	c := &installCore{t: t}
	t.Cleanup(c.wg.Wait)
	b.OnUI(func() {
		w.Show()
		NewInstall(w, new(uikit.ModalStack).Push, b, c).Show()
		test.Type(w.Canvas().Focused(), " /src/demo ")
		for _, o := range test.LaidOutObjects(w.Canvas().Overlays().Top()) {
			if ch, ok := o.(*widget.Check); ok {
				test.Tap(ch)
			}
		}
		test.Tap(topButton(w, "Preview…"))
	})
	var install *widget.Button
	waitFor(t, b.OnUI, "the FULL TRUST preview", func() bool { install = topButton(w, "Install"); return install != nil })
	reqs, installed, _ := c.snapshot()
	if len(reqs) != 1 || reqs[0] != (agent.InstallRequest{Source: "/src/demo", Link: true, ReplaceInstalled: true}) || len(installed) != 0 {
		t.Fatalf("requests %+v, installed %v before Install", reqs, installed)
	}
	b.OnUI(func() { test.Tap(install) })
	waitFor(t, b.OnUI, "the install", func() bool { _, _, done := c.snapshot(); return len(done) == 1 })
	if _, installed, done := c.snapshot(); len(installed) != 1 || done[0] != "install demo: done" {
		t.Fatalf("installed %v, told %v", installed, done)
	}
}

// An empty path or Cancel asks the core nothing.
func TestInstallCancelAndEmptyPathAskNothing(t *testing.T) {
	for _, tc := range []struct{ name, typed, button string }{
		{"cancel", "/src/demo", "Cancel"},
		{"empty path", "   ", "Preview…"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, b := installWindow(t, fyne.NewSize(640, 480))
			c := &installCore{t: t}
			b.OnUI(func() {
				w.Show()
				NewInstall(w, new(uikit.ModalStack).Push, b, c).Show()
				test.Type(w.Canvas().Focused(), tc.typed)
				test.Tap(topButton(w, tc.button))
			})
			c.wg.Wait()
			if reqs, _, _ := c.snapshot(); len(reqs) != 0 {
				t.Fatalf("asked the core %+v", reqs)
			}
		})
	}
}

// The window's Esc and Enter reach each of the dialog's steps: Esc in the
// path field cancels, Enter there previews, Esc at the preview (nothing
// focused, as after a click on its text) installs nothing, Enter at a new
// preview installs. No step keeps the keys once it is closed.
func TestInstallAnswersEscAndEnter(t *testing.T) {
	w, b := installWindow(t, fyne.NewSize(900, 700))
	c := &installCore{t: t}
	t.Cleanup(c.wg.Wait)
	var keys uikit.ModalStack
	open := func(path string, key fyne.KeyName) {
		b.OnUI(func() {
			NewInstall(w, keys.Push, b, c).Show()
			if keys.Len() != 1 {
				t.Fatalf("%d dialogs take the keys with the path dialog open", keys.Len())
			}
			f := w.Canvas().Focused()
			test.Type(f, path)
			f.TypedKey(&fyne.KeyEvent{Name: key})
		})
	}
	b.OnUI(w.Show)
	open("/src/demo", fyne.KeyEscape)
	b.OnUI(func() {
		if keys.Len() != 0 || topButton(w, "Preview…") != nil {
			t.Errorf("Esc in the path field: %d dialogs take the keys, Preview… shown %v", keys.Len(), topButton(w, "Preview…") != nil)
		}
	})
	c.wg.Wait()
	if reqs, _, _ := c.snapshot(); len(reqs) != 0 {
		t.Fatalf("Esc asked the core %+v", reqs)
	}
	for _, tc := range []struct {
		key     fyne.KeyName
		install bool
	}{{fyne.KeyEscape, false}, {fyne.KeyReturn, true}} {
		open("/src/demo", fyne.KeyReturn) // Enter in the field previews
		waitFor(t, b.OnUI, "the preview", func() bool { return topButton(w, "Install") != nil && keys.Len() == 1 })
		b.OnUI(func() {
			if f := w.Canvas().Focused(); f != nil {
				t.Errorf("the preview leaves %T focused: the window's keys would not reach it", f)
			}
			if tc.key == fyne.KeyEscape {
				keys.Cancel()
			} else {
				keys.Confirm()
			}
			if keys.Len() != 0 {
				t.Errorf("after %s at the preview %d dialogs take the keys", tc.key, keys.Len())
			}
		})
		c.wg.Wait()
		if _, installed, _ := c.snapshot(); (len(installed) == 1) != tc.install {
			t.Fatalf("after %s at the preview: installed %v", tc.key, installed)
		}
	}
}
