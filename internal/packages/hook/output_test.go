package hook_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/packages/hook"
)

func TestParseOutput(t *testing.T) {
	cases := []struct {
		name   string
		event  hook.Event
		stdout string
		want   hook.Output
		err    bool
	}{
		{"empty", hook.PreToolUse, "  \n", hook.Output{}, false},
		{"plain text is context at SessionStart", hook.SessionStart, "  hello\n", hook.Output{AdditionalContext: "hello"}, false},
		{"plain text is nothing elsewhere", hook.PreToolUse, "hello", hook.Output{}, false},
		{"additionalContext", hook.SessionStart, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":" ctx "}}`,
			hook.Output{AdditionalContext: "ctx"}, false},
		{"permission deny", hook.PreToolUse, `{"hookSpecificOutput":{"permissionDecision":"DENY","permissionDecisionReason":"why"}}`,
			hook.Output{Deny: true, DenyReason: "why"}, false},
		{"PermissionRequest allow", hook.PermissionRequest, `{"hookSpecificOutput":{"decision":{"behavior":"allow"}}}`,
			hook.Output{Allow: true}, false},
		{"PermissionRequest deny", hook.PermissionRequest, `{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"m"}}}`,
			hook.Output{Deny: true, DenyReason: "m"}, false},
		{"allow elsewhere is nothing", hook.PreToolUse, `{"hookSpecificOutput":{"decision":{"behavior":"allow"}}}`, hook.Output{}, false},
		{"decision block at UserPromptSubmit", hook.UserPromptSubmit, `{"decision":"block","reason":"r"}`,
			hook.Output{Deny: true, DenyReason: "r"}, false},
		{"decision block at Stop is nothing", hook.Stop, `{"decision":"block","reason":"r"}`, hook.Output{}, false},
		{"another event's output", hook.PreToolUse, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny"}}`, hook.Output{}, true},
		{"broken JSON", hook.PreToolUse, `{"hookSpecificOutput":`, hook.Output{}, true},
		{"updatedInput at PreToolUse", hook.PreToolUse, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -la"}}}`,
			hook.Output{UpdatedInput: json.RawMessage(`{"command":"ls -la"}`)}, false},
		{"updatedInput with a deny is not taken", hook.PreToolUse, `{"hookSpecificOutput":{"permissionDecision":"deny","updatedInput":{"command":"x"}}}`,
			hook.Output{Deny: true}, false},
		{"updatedInput null is none", hook.PreToolUse, `{"hookSpecificOutput":{"updatedInput":null}}`, hook.Output{}, false},
		{"updatedInput elsewhere is nothing", hook.PermissionRequest, `{"hookSpecificOutput":{"updatedInput":{"command":"x"}}}`, hook.Output{}, false},
		// Claude Code's async request, then its answer on a later line
		// (security-guidance's SessionStart: metrics, no context).
		{"async request then metrics", hook.SessionStart, "{\"async\": true, \"asyncTimeout\": 180000}\n{\"metrics\": {\"sdk_bootstrap\": \"ready\"}}\n",
			hook.Output{}, false},
		{"async request then context", hook.SessionStart,
			"{\"async\":true}\nnot json\n{\"async\":true}\n{\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\",\"additionalContext\":\"c\"}}\n{\"systemMessage\":\"later\"}",
			hook.Output{AdditionalContext: "c"}, false},
		{"an async request alone", hook.SessionStart, `{"async":true}`, hook.Output{}, false},
		{"several objects without the async request", hook.SessionStart, "{\"a\":1}\n{\"b\":2}", hook.Output{}, true},
		{"text then JSON is all text", hook.SessionStart, "Loading rules…\n{\"systemMessage\":\"x\"}",
			hook.Output{AdditionalContext: "Loading rules…\n{\"systemMessage\":\"x\"}"}, false},
		{"systemMessage", hook.PostToolUse, `{"systemMessage":" warn "}`, hook.Output{SystemMessage: "warn"}, false},
		{"a deny whose only text is the systemMessage", hook.PreToolUse,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"},"systemMessage":"**[r]** no"}`,
			hook.Output{Deny: true, DenyReason: "**[r]** no", SystemMessage: "**[r]** no"}, false},
	}
	for _, tc := range cases {
		got, err := hook.ParseOutput(tc.event, tc.stdout)
		if !reflect.DeepEqual(got, tc.want) || (err != nil) != tc.err {
			t.Errorf("%s: %+v %v, want %+v err=%v", tc.name, got, err, tc.want, tc.err)
		}
		if err != nil && !strings.Contains(err.Error(), string(tc.event)) {
			t.Errorf("%s: the error does not name the event: %v", tc.name, err)
		}
	}
}

// FuzzParseOutput: any stdout at any event decodes without panicking, a
// deny and an allow never come together, and a decision needs JSON.
func FuzzParseOutput(f *testing.F) {
	for _, s := range []string{"", "text", `{"decision":"block","reason":"r"}`,
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}`,
		`{"hookSpecificOutput":{"decision":{"behavior":"allow"}}}`, `{"hookSpecificOutput":{"decision":{"behavior":"allow"},"permissionDecision":"deny"}}`,
		`{"hookSpecificOutput":[]}`, `{"a":1,"a":2}`} {
		for i := range hook.Events {
			f.Add(i, s)
		}
	}
	f.Fuzz(func(t *testing.T, i int, stdout string) {
		e := hook.Events[(i%len(hook.Events)+len(hook.Events))%len(hook.Events)]
		out, err := hook.ParseOutput(e, stdout)
		if err != nil && !reflect.DeepEqual(out, hook.Output{}) {
			t.Fatalf("an error with an output: %+v", out)
		}
		if out.Deny && out.Allow {
			t.Fatalf("deny and allow: %+v", out)
		}
		if (out.Deny || out.Allow) && !strings.HasPrefix(strings.TrimSpace(stdout), "{") {
			t.Fatalf("a decision from text: %+v", out)
		}
		if out.Allow && e != hook.PermissionRequest {
			t.Fatalf("allow at %s", e)
		}
		if out.UpdatedInput != nil && (e != hook.PreToolUse || out.Deny || !json.Valid(out.UpdatedInput)) {
			t.Fatalf("updatedInput at %s (deny %v): %s", e, out.Deny, out.UpdatedInput)
		}
	})
}
