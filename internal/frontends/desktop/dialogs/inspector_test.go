package dialogs

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

const secret = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"

// waitFor checks cond as UI work until it holds: the dialogs wait on work
// other goroutines hand to the UI (a fake core's answers, throttled
// refreshes, plugins started for real), so this is the one shared wait,
// testutil.Eventually, with the check run as UI work. Inside a synctest
// bubble its polls move the fake clock instead of waiting.
func waitFor(t *testing.T, ui func(func()), what string, cond func() bool) {
	t.Helper()
	testutil.Eventually(t, what, func() bool {
		ok := false
		ui(func() { ok = cond() })
		return ok
	})
}

// The inspector runs in a synctest bubble: its list refreshes at most every
// 100 ms on the fake clock, so the rows are there as soon as every goroutine
// is idle. The Fyne test app is made outside (its workers live for the
// process).
func TestInspectorRecordsRedactedFilterablePausable(t *testing.T) {
	a := test.NewTempApp(t)
	synctest.Test(t, func(t *testing.T) { inspectorRecords(t, a) })
}

func inspectorRecords(t *testing.T, a fyne.App) {
	b := uikit.NewBridge()
	t.Cleanup(b.Stop)
	in := NewInspector(a, b)
	ui := b.OnUI
	in.Record("alpha", ndjson.FrameInfo{Dir: ndjson.Out, Kind: "request", Method: "extension/initialize", ID: 1, Bytes: 80,
		Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"extension/initialize","params":{"key":"` + secret + `"}}`)})
	in.Record("beta", ndjson.FrameInfo{Dir: ndjson.In, Kind: "response", ID: 1, Bytes: 40, Latency: 3 * time.Millisecond,
		Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)})
	frames := in.Frames()
	if len(frames) != 2 {
		t.Fatalf("%d frames", len(frames))
	}
	if strings.Contains(frames[0].Raw, secret) {
		t.Fatalf("stored frame not redacted: %s", frames[0].Raw)
	}
	ui(in.Show)
	waitFor(t, ui, "two rows", func() bool { return len(in.rows) == 2 })
	ui(func() {
		if r := in.rows[0].row(); !strings.Contains(r, "→ alpha  request extension/initialize #1  80 B") {
			t.Errorf("row %q", r)
		}
		if r := in.rows[1].row(); !strings.Contains(r, "← beta  response #1  40 B  3ms") {
			t.Errorf("row %q", r)
		}
		test.Type(in.filter, "beta")
		if len(in.rows) != 1 || in.rows[0].Plugin != "beta" {
			t.Errorf("filter kept %+v", in.rows)
		}
		in.filter.SetText("")
		in.list.Select(0)
		if strings.Contains(in.detail.Text, secret) || !strings.Contains(in.detail.Text, "extension/initialize") {
			t.Errorf("detail %q", in.detail.Text)
		}
		in.copySelected()
		if got := a.Clipboard().Content(); strings.Contains(got, secret) || !strings.Contains(got, `"id":1`) {
			t.Errorf("clipboard %q", got)
		}
		in.setPaused(true)
	})
	in.Record("alpha", ndjson.FrameInfo{Kind: "notification", Method: "x"})
	if n := len(in.Frames()); n != 2 {
		t.Errorf("paused inspector recorded: %d frames", n)
	}
	in.setPaused(false)
	for i := range inspectorRing + 10 {
		in.Record("alpha", ndjson.FrameInfo{Kind: "notification", Method: fmt.Sprint("m", i)})
	}
	all := in.Frames()
	if len(all) != inspectorRing || all[len(all)-1].Method != fmt.Sprint("m", inspectorRing+9) || all[0].Method != "m10" {
		t.Errorf("ring holds %d frames, %s … %s", len(all), all[0].Method, all[len(all)-1].Method)
	}
}
