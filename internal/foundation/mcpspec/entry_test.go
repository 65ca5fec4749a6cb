package mcpspec

import (
	"strings"
	"testing"
)

// The name rule both the package loader and the MCP runtime apply: no
// name that could make mcp__<server>__<tool> mean two tools.
func TestCheckName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"fs", true}, {"a_b", true}, {"a.b-c", true}, {"A9", true},
		{"a_", false}, // a + tool _x and a_ + tool x are both mcp__a___x
		{"a__b", false}, {"_a", false}, {"-a", false}, {"", false},
		{"a b", false}, {"é", false},
		{strings.Repeat("a", 64), true}, {strings.Repeat("a", 65), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := CheckName(tc.name); (err == nil) != tc.ok {
				t.Fatalf("CheckName(%q) = %v, want ok %v", tc.name, err, tc.ok)
			}
		})
	}
}
