package desktop

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// startInstall opens Install… (over the plugin manager when overManager,
// from its Install… button, else over the main window), types source and
// presses Preview… (UI goroutine). It returns the window the dialog is on.
func (h *harness) startInstall(source string, overManager bool) fyne.Window {
	h.t.Helper()
	w := h.d.win
	if overManager {
		h.d.showPluginManager()
		w = h.windowNamed("Plugins")
		test.Tap(findButton(w.Content(), "Install…"))
	} else {
		h.d.installPlugin()
	}
	path := w.Canvas().Focused() // the dialog focuses its path field
	if path == nil {
		h.t.Fatal("Install… focused nothing")
	}
	test.Type(path, source)
	test.Tap(overlayHas(w, "Preview…"))
	return w
}

// staged is how many clones wait in the staging folder.
func (h *harness) staged() int {
	left, _ := os.ReadDir(h.layout.StagingDir())
	return len(left)
}

// Install… from a git repository, end to end through a real core: a busy
// dialog with only Cancel while git fetches, then the preview with its FULL
// TRUST block in that dialog; Install installs the clone, Cancel drops it.
func TestInstallFromGit(t *testing.T) {
	esc := func(w fyne.Window) { w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape}) }
	cancel := func(w fyne.Window) { test.Tap(overlayHas(w, "Cancel")) }
	for _, tc := range []struct {
		name        string
		overManager bool
		leave       func(fyne.Window) // nil: Install
	}{
		{"install", false, nil},
		{"cancel at the preview", false, cancel},
		{"Esc at the preview over the plugin manager", true, esc},
		{"Esc at the preview over the main window", false, esc},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			url, _ := testutil.GitRepo(t)
			h.openCore()
			var w fyne.Window
			h.ui(func() {
				w = h.startInstall(url, tc.overManager)
				// The fetch runs off the UI goroutine: until it ends the
				// dialog is busy, and only Cancel is offered.
				if overlayHas(w, "Cancel") == nil || overlayHas(w, "Install") != nil || !strings.Contains(overlayText(w), "Fetching "+url+" …") {
					t.Errorf("no busy state while fetching:\n%s", overlayText(w))
				}
			})
			h.waitFor("the preview", func() bool { return overlayHas(w, "Install") != nil })
			h.ui(func() {
				text := overlayText(w)
				for _, want := range []string{"Fetched: gitpkg 1.0.0 at commit ", "From: " + url, "FULL TRUST",
					"hooks/guard.sh", "runs outside any sandbox"} {
					if !strings.Contains(text, want) {
						t.Errorf("the preview lacks %q:\n%s", want, text)
					}
				}
			})
			if n := h.staged(); n != 1 {
				t.Fatalf("the preview staged %d clones", n)
			}
			store, err := agent.OpenPlugins(h.layout)
			if err != nil {
				t.Fatal(err)
			}
			if tc.leave != nil {
				h.ui(func() {
					tc.leave(w)
					if w.Canvas().Overlays().Top() != nil {
						t.Error("leaving did not close the preview")
					}
				})
				h.waitFor("the unused clone removed", func() bool { return h.staged() == 0 })
				if _, err := store.Get("gitpkg"); err == nil {
					t.Fatal("Cancel installed gitpkg")
				}
				return
			}
			h.ui(func() {
				test.Tap(overlayHas(w, "Install"))
				if w.Canvas().Overlays().Top() != nil {
					t.Error("Install left the preview open")
				}
			})
			h.waitFor("gitpkg running", func() bool { return h.pluginState("gitpkg") == "Ready" }) // a package of hooks only
			rec, err := store.Get("gitpkg")
			if err != nil || rec.Version != "1.0.0" || rec.Source != url || rec.Commit == "" || rec.Linked {
				t.Fatalf("installed %+v, %v", rec, err)
			}
			if n := h.staged(); n != 0 {
				t.Errorf("the install left %d clones", n)
			}
		})
	}
}

// Cancel, Esc, or closing the plugin manager it is over, while git waits
// on a server that never answers: the dialog closes at once, git is killed
// (the connection closes) and nothing is staged.
func TestInstallFromGitCancelWhileFetching(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	for _, tc := range []struct {
		name        string
		overManager bool
		esc         bool
	}{
		{"Cancel", false, false},
		{"Esc over the main window", false, true},
		{"closing the plugin manager", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			silent, accepted, hungUp := silentGitServer(t)
			h.openCore()
			var w fyne.Window
			h.ui(func() { w = h.startInstall(silent, tc.overManager) })
			arrive(t, "git's connection", accepted)
			h.ui(func() {
				if tc.overManager {
					w.Close()
					return
				}
				if tc.esc {
					w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
				} else {
					test.Tap(overlayHas(w, "Cancel"))
				}
				if w.Canvas().Overlays().Top() != nil {
					t.Errorf("%s did not close the dialog at once:\n%s", tc.name, overlayText(w))
				}
			})
			arrive(t, "git's hang-up", hungUp)
			h.waitFor("the cancelled clone removed", func() bool { return h.staged() == 0 })
		})
	}
}
