package hook

import (
	"encoding/json"
	"testing"
)

// A settings-bus hook's stdout, whatever it is: ParseAnswer never panics
// and never gives both an answer and an error; a revise it accepts is nil
// or one compact JSON object, and a patch it accepts is text.
func FuzzParseAnswer(f *testing.F) {
	for _, seed := range []string{"", "allowed", `{"allow":false,"reason":"r"}`, `{"revise":{"a":1}}`, `{"revise":[1]}`,
		`{"revise":" {} "}`, `{"patch":"x"}`, `{"patch":{ "n" : 1 }}`, `{"patch":null}`, `{`, `{"allow":"yes"}`, ` {"revise": {}} `} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, stdout string) {
		a, isJSON, err := ParseAnswer(stdout)
		if isJSON && err != nil {
			t.Fatalf("both an answer and an error for %q", stdout)
		}
		if !isJSON {
			return
		}
		args, err := Revision(a.Revise)
		if err == nil && args != nil {
			var m map[string]json.RawMessage
			if json.Unmarshal(args, &m) != nil || m == nil {
				t.Fatalf("revise %s accepted as %s, not an object", a.Revise, args)
			}
		}
		if text, ok := Patched(a.Patch); ok != !noChange(a.Patch) || !ok && text != "" {
			t.Fatalf("patch %s gave %q, %v", a.Patch, text, ok)
		}
	})
}
