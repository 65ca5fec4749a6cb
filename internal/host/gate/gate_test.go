package gate

import (
	"encoding/json"
	"regexp"
	"testing"
)

// The built-in declarations are what a model is offered: unique names,
// object schemas, and no implementation (agent supplies it).
func TestBuiltins(t *testing.T) {
	name := regexp.MustCompile(`^[a-z_]+$`)
	seen := map[string]bool{}
	for _, tool := range Builtins() {
		if !name.MatchString(tool.Name) || seen[tool.Name] {
			t.Errorf("bad or repeated name %q", tool.Name)
		}
		seen[tool.Name] = true
		var schema map[string]any
		if err := json.Unmarshal(tool.Parameters, &schema); err != nil || schema["type"] != "object" {
			t.Errorf("%s: parameters %s are not an object schema: %v", tool.Name, tool.Parameters, err)
		}
		if tool.Run != nil || tool.Description == "" {
			t.Errorf("%s: a declaration has Run %v and description %q", tool.Name, tool.Run != nil, tool.Description)
		}
		if s := tool.Schema(); s.Name != tool.Name || string(s.Parameters) != string(tool.Parameters) {
			t.Errorf("%s: schema %+v", tool.Name, s)
		}
	}
	if len(seen) != 4 || !seen["run_command"] {
		t.Fatalf("builtins %v", seen)
	}
	Builtins()[0].Name = "changed"
	if Builtins()[0].Name != "read_file" {
		t.Fatal("Builtins shares its slice")
	}
}
