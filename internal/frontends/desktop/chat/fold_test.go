package chat

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// lastUserView is the user view of the last row once it is in view.
func (h *harness) lastUserView() *userView {
	h.t.Helper()
	var uv *userView
	h.waitFor("the user's message in view", func() bool {
		v := h.d.transcript.view
		if len(v.rows) == 0 {
			return false
		}
		lr, ok := v.list.live[len(v.rows)-1]
		if !ok {
			return false
		}
		uv, ok = lr.v.(*userView)
		return ok
	})
	return uv
}

func TestLongMessageFoldsBehindShowMore(t *testing.T) {
	h := newHarness(t)
	var lines []string
	for i := range 100 {
		lines = append(lines, fmt.Sprintf("line %d of the message", i+1))
	}
	msg := strings.Join(lines, "\n")
	h.d.transcript.AddUser(msg)
	uv := h.lastUserView()
	h.ui(func() {
		shown := uv.text.body.plain()
		if !strings.Contains(shown, "line 30 of") || strings.Contains(shown, "line 31 of") {
			t.Fatalf("folded, the message shows:\n%s", shown)
		}
		if !uv.fold.more.Visible() || uv.fold.more.Text != "Show more (70 more lines)" {
			t.Fatalf("the fold's button: visible %v, %q", uv.fold.more.Visible(), uv.fold.more.Text)
		}
		folded := uv.frame.Size().Height
		test.Tap(uv.fold.more)
		if shown := uv.text.body.plain(); !strings.Contains(shown, "line 100 of") {
			t.Fatalf("Show more did not show the whole message")
		}
		if uv.fold.more.Text != "Show less" {
			t.Errorf("unfolded, the button says %q", uv.fold.more.Text)
		}
		if uv.frame.Size().Height <= folded*2 {
			t.Errorf("unfolded the row is %v high, folded %v", uv.frame.Size().Height, folded)
		}
		test.Tap(uv.fold.more)
		if strings.Contains(uv.text.body.plain(), "line 31 of") {
			t.Error("Show less did not fold the message again")
		}
		// Copy takes the whole message, folded or not.
		uv.copyBtn.OnTapped()
		if got := h.d.app.Clipboard().Content(); !strings.Contains(got, "line 100 of") {
			t.Errorf("Copy of a folded message put %d characters", len(got))
		}
	})
}

func TestShortMessageDoesNotFold(t *testing.T) {
	h := newHarness(t)
	h.d.transcript.AddUser("hello\nthere")
	uv := h.lastUserView()
	h.ui(func() {
		if uv.fold.more.Visible() || uv.fold.tile.Visible() {
			t.Error("a two-line message offers Show more or a paste tile")
		}
	})
}

// bigPaste is a paste as the composer sends it: a 100,000-character log
// of 1,000 lines.
func bigPaste() string {
	var b strings.Builder
	for i := 0; b.Len() < 100_000; i++ {
		fmt.Fprintf(&b, "%04d %s\n", i, strings.Repeat("x", 94))
	}
	return b.String()[:100_000]
}

func TestSentPasteIsATile(t *testing.T) {
	h := newHarness(t)
	paste := bigPaste()
	h.d.transcript.AddUser("please read this log\n\n" + paste)
	uv := h.lastUserView()
	h.ui(func() {
		if got := uv.text.body.plain(); strings.TrimSpace(got) != "please read this log" {
			t.Errorf("the typed text shows as %q", got)
		}
		if !uv.fold.tile.Visible() || uv.fold.title.Text != "Pasted text, 100,000 characters, 1,000 lines" {
			t.Fatalf("the tile: visible %v, %q", uv.fold.tile.Visible(), uv.fold.title.Text)
		}
		if uv.fold.body.box.Visible() || !strings.HasPrefix(uv.fold.preview.Text, "0000 xxx") {
			t.Errorf("closed, the tile shows its body %v, preview %q", uv.fold.body.box.Visible(), uv.fold.preview.Text)
		}
		if hgt, win := uv.frame.Size().Height, h.d.win.Canvas().Size().Height; hgt > win/2 {
			t.Errorf("the sent paste takes %v of a %v window", hgt, win)
		}
		uv.fold.copyPaste.OnTapped()
		if got := h.d.app.Clipboard().Content(); got != paste {
			t.Errorf("the tile's Copy put %d characters, want the paste's %d", len(got), len(paste))
		}
		test.Tap(uv.fold.open)
		if !uv.fold.body.box.Visible() || uv.fold.open.Text != "Show less" {
			t.Fatal("Show more did not open the tile")
		}
		if uv.frame.Size().Height < 1000 {
			t.Errorf("open, the paste is %v high", uv.frame.Size().Height)
		}
	})
}

func TestPasteAloneIsATile(t *testing.T) {
	h := newHarness(t)
	one := strings.Repeat("word ", 400) // one 2,000-character line
	h.d.transcript.AddUser(one)
	uv := h.lastUserView()
	h.ui(func() {
		if uv.text.box.Visible() || !uv.fold.tile.Visible() {
			t.Errorf("a paste with no typed text: text shown %v, tile %v", uv.text.box.Visible(), uv.fold.tile.Visible())
		}
	})
}

// A long prompt typed in one paragraph stays text: only a paste's length
// makes a tile.
func TestTypedParagraphIsNoTile(t *testing.T) {
	h := newHarness(t)
	h.d.transcript.AddUser(strings.Repeat("please consider this ", 60)) // one 1,260-character line
	uv := h.lastUserView()
	h.ui(func() {
		if uv.fold.tile.Visible() || !uv.text.box.Visible() {
			t.Errorf("a typed paragraph: tile %v, text %v", uv.fold.tile.Visible(), uv.text.box.Visible())
		}
	})
}

func TestShowMoreCountsLines(t *testing.T) {
	if got := showMore(1); got != "Show more (1 more line)" {
		t.Errorf("one line: %q", got)
	}
	if got := showMore(1_200); got != "Show more (1,200 more lines)" {
		t.Errorf("1,200 lines: %q", got)
	}
}

func TestPastedTitle(t *testing.T) {
	if got := PastedTitle(strings.Repeat("x", 2_500)); got != "Pasted text, 2,500 characters, 1 line" {
		t.Errorf("one line: %q", got)
	}
}

func TestFoldHead(t *testing.T) {
	head, more := foldHead(strings.Repeat("a\n", 31) + "b")
	if strings.Count(head, "\n") != FoldLines-1 || more != 2 {
		t.Errorf("32 lines fold to %d lines, %d more", strings.Count(head, "\n")+1, more)
	}
	if head, more := foldHead(strings.Repeat("a\n", 30)); more != 0 || head != strings.Repeat("a\n", 30) {
		t.Errorf("30 lines and a newline fold (%d more)", more)
	}
	long := strings.Repeat("word ", 2_000)
	if head, more := foldHead(long); len(head) > foldChars || more != 1 {
		t.Errorf("a 10,000-character line folds to %d characters, %d more", len(head), more)
	}
}
