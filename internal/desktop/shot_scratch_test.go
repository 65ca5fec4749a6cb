package desktop

import (
	"context"
	"image/png"
	"os"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/host/agent"
)

func TestScratchShots(t *testing.T) {
	h := newHarness(t)
	h.ui(func() { h.d.win.Resize(fyne.NewSize(1200, 800)) })
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	h.d.Emit(agent.Event{Kind: agent.EventUserMessage, Text: "Show me code and a table"})
	h.d.Emit(agent.Event{Kind: agent.EventReasoning, Text: "The user wants **code**. I will write Go."})
	h.d.Emit(agent.Event{Kind: agent.EventText, Text: "Here is some Go:\n\n```go\npackage main\n\nimport \"fmt\"\n\nfunc main() {\n\t// greet\n\tfmt.Println(\"hi\", 42)\n}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nAnd a list:\n\n- one\n- two\n"})
	h.d.Emit(agent.Event{Kind: agent.EventUsage, Usage: nil})
	call := agent.ToolCall{ID: "call_1", Name: "run_command", Arguments: `{"command":"ls"}`, State: agent.ToolPending}
	h.d.Emit(agent.Event{Kind: agent.EventToolCall, Call: &call})
	go h.d.Approve(context.Background(), agent.ApprovalRequest{CallID: "call_1", Tool: "run_command", Arguments: `{"command":"ls"}`})
	h.waitFor("cards", func() bool { return len(h.toolCards()) == 1 && h.toolCards()[0].ask.Visible() })
	h.ui(func() {
		for _, v := range h.d.transcript.liveViews() {
			if a, ok := v.(*assistantView); ok {
				test.Tap(a.think)
			}
		}
	})
	h.ui(func() {
		img := h.d.win.Canvas().Capture()
		f, _ := os.Create("/tmp/shot1.png")
		png.Encode(f, img)
		f.Close()
		h.d.transcript.view.list.scroll.ScrollToOffset(fyne.NewPos(0, 0))
		h.d.transcript.view.list.scrolled(fyne.NewPos(0, 0))
		img = h.d.win.Canvas().Capture()
		f, _ = os.Create("/tmp/shot2.png")
		png.Encode(f, img)
		f.Close()
	})
}
