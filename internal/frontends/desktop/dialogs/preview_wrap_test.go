package dialogs

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// The FULL TRUST preview wraps between words: breaking anywhere split
// names and commands ("openai-provid" / "er").
func TestTrustPreviewWrapsBetweenWords(t *testing.T) {
	test.NewTempApp(t)
	text := "FULL TRUST: this package runs code\n  runtime: ./bin/openai-provider --serve --listen stdio --model gpt-4o\n" +
		"  hooks: PreToolUse runs ./hooks/check-openai-provider-policy.sh before every tool call"
	var lines []string
	fyne.DoAndWait(func() {
		_, body := previewBody(agent.InstallPreview{Name: "openai-provider", Text: text, RunsCode: true})
		w := test.NewWindow(body)
		defer w.Close()
		w.Resize(fyne.NewSize(420, 400))
		for _, o := range test.LaidOutObjects(body) {
			if tx, ok := o.(*canvas.Text); ok && tx.Visible() {
				lines = append(lines, tx.Text)
			}
		}
	})
	all := strings.Join(lines, "\n")
	for _, word := range []string{"./bin/openai-provider", "./hooks/check-openai-provider-policy.sh", "PreToolUse"} {
		if !strings.Contains(all, word) {
			t.Errorf("%q is split across lines:\n%s", word, all)
		}
	}
}
