package desktop

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// readDrafts is the drafts file as a kill would leave it.
func readDrafts(t *testing.T, dir string) draftsData {
	t.Helper()
	var d draftsData
	raw, err := os.ReadFile(filepath.Join(dir, draftsFile))
	if os.IsNotExist(err) {
		return d
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatalf("drafts.json is not readable: %v\n%s", err, raw)
	}
	return d
}

// What is typed is on disk at most a second after the keystroke, even while
// typing goes on, without Close: a kill loses at most the last second.
// Before, a draft lived in the composer only and a close lost it.
func TestDraftsReachTheDiskWithinASecond(t *testing.T) {
	dir := t.TempDir()
	synctest.Test(t, func(t *testing.T) {
		d := loadDrafts(dir, nil)
		defer d.Close()
		d.set("a", "h")
		synctest.Wait()
		if got := readDrafts(t, dir).Chats["a"]; got != "" {
			t.Errorf("written at once, on every key: %q", got)
		}
		// Typing on, a key every 100 ms: the quiet pause never comes, the
		// second's bound writes anyway.
		text := "h"
		for range 9 {
			time.Sleep(100 * time.Millisecond)
			text += "i"
			d.set("a", text)
		}
		time.Sleep(101 * time.Millisecond)
		synctest.Wait()
		if got := readDrafts(t, dir).Chats["a"]; !strings.HasPrefix(got, "hi") {
			t.Errorf("after a second of typing the file has %q", got)
		}
		// A pause writes the last text.
		time.Sleep(draftQuiet + time.Millisecond)
		synctest.Wait()
		if got := readDrafts(t, dir).Chats["a"]; got != text {
			t.Errorf("after a pause the file has %q, want %q", got, text)
		}
		d.set("a", "")
		time.Sleep(draftMaxDelay)
		synctest.Wait()
		if _, ok := readDrafts(t, dir).Chats["a"]; ok {
			t.Error("an emptied composer's draft is still kept")
		}
	})
}

// Close writes what the writer has not yet.
func TestDraftsCloseWritesTheLastChange(t *testing.T) {
	dir := t.TempDir()
	d := loadDrafts(dir, nil)
	d.set("a", "typed just before quitting")
	d.Close()
	if got := readDrafts(t, dir).Chats["a"]; got != "typed just before quitting" {
		t.Errorf("after Close the file has %q", got)
	}
}

// Each chat keeps its own draft across switches; a relaunch restores the
// draft of the chat it opens, and the draft of a new chat never saved goes
// to the chat the next start opens.
func TestDraftsArePerChatAndSurviveARelaunch(t *testing.T) {
	h, p, _ := newPoolHarness(t)
	h.openLive(p, "b")
	h.ui(func() {
		e := h.d.composer.entry
		e.SetText("draft of b")
		h.d.openChat("a")
		if e.Text != "" {
			t.Errorf("a shows b's draft: %q", e.Text)
		}
		e.SetText("draft of a")
		h.d.openChat("b")
		if e.Text != "draft of b" {
			t.Errorf("b's draft is %q", e.Text)
		}
		h.d.openChat("a")
		if e.Text != "draft of a" {
			t.Errorf("a's draft is %q", e.Text)
		}
	})
	h.d.Close()
	if got := readDrafts(t, h.layout.Root); got.Chats["a"] != "draft of a" || got.Chats["b"] != "draft of b" || got.Screen != "a" {
		t.Fatalf("drafts.json after the close: %+v", got)
	}

	// The next start opens a (from its file: it is saved), with its draft.
	h2 := newHarnessAt(t, h.layout)
	p2 := newFakePool(t, h2.d)
	h2.d.pool.set(p2)
	a2 := newChatCore(t, h2.d, "a", "question in a")
	h2.d.Attach(a2)
	h2.waitFor("a's draft back in the composer", func() bool { return h2.d.composer.entry.Text == "draft of a" })

	// A new chat never saved: its draft goes to the chat the next start
	// opens (a new one too: its id is another).
	h2.ui(func() { h2.d.newChat("") })
	h2.waitFor("the new chat", func() bool { return h2.d.state.Open().ID == "new1" && h2.d.state.Ready() })
	h2.ui(func() { h2.d.composer.entry.SetText("draft of the new chat") })
	h2.d.Close()
	h3 := newHarnessAt(t, h.layout)
	h3.d.pool.set(newFakePool(t, h3.d))
	h3.d.Attach(newChatCore(t, h3.d, "fresh"))
	h3.waitFor("the new chat's draft in the chat opened", func() bool {
		return h3.d.composer.entry.Text == "draft of the new chat"
	})
}

// A message sent takes its draft off the disk at once, not a second later:
// a kill right after Send must not bring the sent message back as a draft.
func TestASentMessageLeavesTheDraftsAtOnce(t *testing.T) {
	dir := t.TempDir()
	synctest.Test(t, func(t *testing.T) {
		d := loadDrafts(dir, nil)
		defer d.Close()
		d.set("a", "to be sent")
		time.Sleep(draftMaxDelay)
		synctest.Wait()
		if got := readDrafts(t, dir).Chats["a"]; got != "to be sent" {
			t.Fatalf("the draft on disk: %q", got)
		}
		d.set("a", "") // the composer cleared by Send
		d.writeNow()
		synctest.Wait() // no time passes: the writer is not waiting for a pause
		if got, ok := readDrafts(t, dir).Chats["a"]; ok {
			t.Errorf("the sent message is still a draft on disk: %q", got)
		}
	})
}
