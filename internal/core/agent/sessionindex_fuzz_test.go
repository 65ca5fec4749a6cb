package agent

import (
	"encoding/json"
	"testing"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// The listing reads a big chat's messages one at a time (firstUserMessage)
// where a small one's are decoded whole: whatever a file holds, the two
// never panic and agree on the message the title comes from.
func FuzzFirstUserMessage(f *testing.F) {
	f.Add([]byte(`{"messages":[{"role":"assistant","content":"a"},{"role":"user","content":"  "},{"role":"user","content":"Title\nrest"}]}`))
	f.Add([]byte(`{"messages":null}`))
	f.Add([]byte(`{"messages":[{"role":"user","content":1}]}`))
	f.Add([]byte(`{"messages":[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var streamed listDoc
		errStreamed := json.Unmarshal(data, &streamed)
		var whole indexDoc
		errWhole := json.Unmarshal(data, &whole)
		if errStreamed != nil || errWhole != nil {
			return // a file one of them refuses is not listed
		}
		var first *protocol.ProviderMessage
		for _, m := range whole.Messages {
			if first == nil && titles(m.Role, m.Content) {
				first = &protocol.ProviderMessage{Role: m.Role, Content: m.Content}
			}
		}
		got := streamed.Messages.first
		if (got == nil) != (first == nil) || got != nil && (got.Content != first.Content || got.Role != first.Role) {
			t.Fatalf("streamed %+v, whole %+v", got, first)
		}
	})
}
