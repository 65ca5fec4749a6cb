package dialogs

import (
	"context"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/forms"

	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// An MCP server's elicitation is the plugin prompt dialog titled with the
// server; a reload that makes plugin prompts stale leaves it open (only its
// asker's context ends it), and the typed answers come back.
func TestElicitationUsesThePromptDialog(t *testing.T) {
	r := newPromptRig(t, context.Background())
	p := surfaces.NewHostPrompt("MCP server ev", protocol.RequestInput, protocol.FormPayload{
		Message: "Please provide inputs",
		Fields: []protocol.FormField{{Key: "name", Label: "Name", Kind: protocol.FieldInput, Required: true},
			{Key: "check", Label: "Agree", Kind: protocol.FieldConfirm}}})
	ch := r.ask(context.Background(), p)
	r.host.store.Bind(surfaces.Binding{SessionID: session, Generation: gen + 1}) // a reload
	r.p.Wake()
	r.b.OnUI(func() {
		if !r.p.Open(p) {
			t.Fatal("a reload closed the server's question")
		}
		titled := false
		for _, l := range shown[*widget.Label](r.win) {
			titled = titled || l.Text == "MCP server ev asks"
		}
		if !titled {
			t.Error("the dialog does not name the server")
		}
		entries := shown[*forms.Entry](r.win)
		if len(entries) != 1 {
			t.Fatalf("%d entries", len(entries))
		}
		test.Type(entries[0], "Ann")
		test.Tap(button(t, r.win, "OK"))
	})
	got := answer(t, ch)
	if got.cancelled || got.values["name"] != "Ann" {
		t.Fatalf("answered %+v", got)
	}
}
