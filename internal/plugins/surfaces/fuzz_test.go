package surfaces

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/protocol"
)

func FuzzPublish(f *testing.F) {
	for _, seed := range []json.RawMessage{
		params("status", "s", sess, gen, `{"label":"token=abcdef123456789","detail":"Bearer abcdefghijklmnopqrstu","severity":"warn","progress":1}`),
		params("card", "c", sess, gen, `{"title":"`+openAIKey+`","markdown":"KEY=v4lue","text":"x","fields":[{"key":"password","value":"hunter2hunter2"}],"actions":[{"actionId":"a","label":"`+githubPAT+`"}]}`),
		params("form", "f", sess, gen, `{"title":"t","message":"https://user:pass@host/","fields":[{"key":"k","label":"api_key: xyz","kind":"select","options":["`+openAIKey+`","b"],"default":["`+githubPAT+`",{"secret":"s3cr3tvalue"}],"required":true}]}`),
		params("notification", "n", sess, gen, `{"title":"AKIAABCDEFGHIJKLMNOP","body":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnop"}`),
		params("status", "s", sess, gen-1, `{"label":"stale"}`),
		json.RawMessage(`{"kind":"status"}`),
		json.RawMessage(`not json`),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		s := newTestStore(t)
		res, err := s.Publish("p", raw)
		if err != nil {
			if res.Accepted {
				t.Fatal("accepted with an error")
			}
			var pe *protocol.Error
			if !errors.As(err, &pe) || pe.Reason() != protocol.ReasonInvalidParams {
				t.Fatalf("error %v is not invalid_params", err)
			}
			if redact.String(pe.Message) != pe.Message {
				t.Fatalf("error message not redacted: %q", pe.Message)
			}
		}
		all := s.Surfaces()
		if res.Accepted != (len(all) == 1) {
			t.Fatalf("accepted=%v with %d stored surfaces", res.Accepted, len(all))
		}
		for _, x := range all {
			for _, h := range x.HumanStrings() {
				if redact.String(h) != h {
					t.Fatalf("stored %s string %q is not redacted (redact gives %q)", x.Kind, h, redact.String(h))
				}
			}
		}
	})
}
