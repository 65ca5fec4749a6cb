package hook

import (
	"strings"
	"testing"
)

// A hook that prints broken JSON is told where and which character, not
// the first byte of a Chinese one ('æ' for "拒").
func TestParseOutputNamesTheCharacter(t *testing.T) {
	_, err := ParseOutput(PreToolUse, "{\"decision\":\n  拒绝}")
	want := `hook PreToolUse returned invalid JSON on stdout: line 2, column 3: invalid character '拒' (U+62D2) looking for beginning of value`
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
	_, err = ParseOutput(PreToolUse, "{\"hookSpecificOutput\": {\"permissionDecision\": 1}}")
	if err == nil || !strings.Contains(err.Error(), "line 1, column 47: cannot unmarshal number into Go struct field") {
		t.Fatalf("a wrong type is not placed: %v", err)
	}
}
