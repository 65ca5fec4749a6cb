package dialogs

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

const secret = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"

// waitFor polls cond as UI work until it holds or 15 s pass.
func waitFor(t *testing.T, ui func(func()), what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		ok := false
		ui(func() { ok = cond() })
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestInspectorRecordsRedactedFilterablePausable(t *testing.T) {
	a := test.NewTempApp(t)
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
