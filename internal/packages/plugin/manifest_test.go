package plugin

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/protocol"
)

const secretValue = "sk-live-abcdefghijklmnopqrstuvwxyz123456"

const fullManifest = `{
  "apiVersion": "reasonix.io/plugin/v2",
  "name": "policy-guard",
  "version": "1.2.3",
  "description": "Guards tools",
  "homepage": "https://example.com/guard",
  "repository": "https://example.com/guard.git",
  "requires": [{"kind": "hostapi", "namespace": "reasonix", "id": "ui", "versionRange": ">=2", "optional": true}],
  "provides": [
    {"kind": "provider", "namespace": "plugin/policy-guard", "id": "echo", "version": "1.0.0", "schemaHash": "sha256:p"},
    {"kind": "uiaction", "namespace": "plugin/policy-guard", "id": "open-panel", "version": "1.0.0", "schemaHash": "sha256:u"},
    {"kind": "schema", "namespace": "custom", "id": "thing", "version": "v2", "schemaHash": "abc"}
  ],
  "contributes": {"skills": ["skills"]},
  "runtime": {
    "command": "${REASONIX_PLUGIN_ROOT}/bin/guard",
    "args": ["--serve", "--root=${REASONIX_PLUGIN_ROOT}"],
    "env": {"MODE": "strict", "OPENAI_API_KEY": "sk-live-abcdefghijklmnopqrstuvwxyz123456", "DATA": "${REASONIX_PLUGIN_ROOT}/data"},
    "required": false,
    "priority": -10,
    "intercepts": ["tool.before", "permission.decision"],
    "replaces": ["permission", "tool:bash"],
    "capabilities": ["interceptors", "strategies", "providers", "ui", "tools"],
    "timeoutMillis": 2000,
    "tools": [{"name": "x"}]
  },
  "skills": ["legacy"],
  "mcpServers": {"a": {}}
}`

func mustParse(t *testing.T, doc string) *Manifest {
	t.Helper()
	m, err := ParseManifest([]byte(doc))
	if err != nil {
		t.Fatalf("ParseManifest: %v", err)
	}
	return m
}

func TestParseManifestFull(t *testing.T) {
	m := mustParse(t, fullManifest)
	if m.Name != "policy-guard" || m.Version != "1.2.3" || m.Runtime.Priority != -10 || m.Runtime.TimeoutMillis != 2000 {
		t.Fatalf("identity: %+v", m)
	}
	if m.Runtime.Env["MODE"] != "strict" || len(m.Runtime.Args) != 2 {
		t.Fatalf("runtime: %+v", m.Runtime)
	}
	if string(m.Contributes) != `{"skills":["skills"]}` || string(m.Runtime.Tools) != `[{"name":"x"}]` {
		t.Fatalf("raw fields: %s %s", m.Contributes, m.Runtime.Tools)
	}
	want := protocol.ManifestExpectation{
		Intercepts:   []string{"tool.before", "permission.decision"},
		Replaces:     []string{"permission", "tool:bash"},
		Providers:    []string{"plugin/policy-guard/echo"},
		UIActions:    []string{"open-panel"},
		Capabilities: []string{"interceptors", "strategies", "providers", "ui", "tools"},
		Provides: []protocol.CapabilityWire{
			{Kind: "provider", Namespace: "plugin/policy-guard", ID: "echo", Version: "1.0.0", SchemaHash: "sha256:p"},
			{Kind: "uiaction", Namespace: "plugin/policy-guard", ID: "open-panel", Version: "1.0.0", SchemaHash: "sha256:u"},
			{Kind: "schema", Namespace: "custom", ID: "thing", Version: "v2", SchemaHash: "abc"},
		},
		Requires: []protocol.RequirementWire{{Kind: "hostapi", Namespace: "reasonix", ID: "ui", VersionRange: ">=2", Optional: true}},
	}
	if got := m.Expectation(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Expectation:\n got %+v\nwant %+v", got, want)
	}
	// The expectation is valid on the wire.
	b, _ := json.Marshal(protocol.InitializeParams{
		ProtocolID: protocol.ProtocolID, ProtocolVersion: protocol.ProtocolVersion, Manifest: m.Expectation(),
		Session:      protocol.SessionContext{SessionID: "s", WorkspaceRoot: "/w"},
		Capabilities: protocol.HostCapabilities{UIHost: protocol.UIHostHeadless, ProtocolVersion: "2"},
	})
	var ip protocol.InitializeParams
	if err := protocol.DecodeStrict(b, &ip); err != nil {
		t.Fatalf("expectation does not decode strictly: %v", err)
	}
	if got := m.PublicActionName("open-panel"); got != "/policy-guard:open-panel" {
		t.Fatalf("PublicActionName = %q", got)
	}
	if !m.IsRequired() || !slices.Equal(m.Slots(), []string{"permission", "tool:bash"}) {
		t.Fatalf("IsRequired/Slots: %v %v", m.IsRequired(), m.Slots())
	}
	if got := m.LegacyNotes(); !slices.Equal(got, []string{"skills: top-level (legacy) key, merged with contributes.skills", "mcpServers: top-level (legacy) key, merged with contributes.mcpServers"}) {
		t.Fatalf("LegacyNotes = %q", got)
	}
}

func TestParseManifestMinimal(t *testing.T) {
	m := mustParse(t, `{"apiVersion":"reasonix.io/plugin/v2","name":"a","version":"1","runtime":{"command":"/bin/true"}}`)
	if m.IsRequired() || len(m.LegacyNotes()) != 0 || m.Runtime.Priority != 0 {
		t.Fatalf("%+v", m)
	}
	mr := mustParse(t, `{"apiVersion":"reasonix.io/plugin/v2","name":"a","version":"1","runtime":{"command":"/bin/true","required":true}}`)
	if !mr.IsRequired() {
		t.Fatal("required: true is not required")
	}
}

// mutate returns fullManifest changed by fn.
func mutate(t *testing.T, fn func(m map[string]any)) string {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(fullManifest), &doc); err != nil {
		t.Fatal(err)
	}
	fn(doc)
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func rt(m map[string]any) map[string]any { return m["runtime"].(map[string]any) }

func TestParseManifestErrors(t *testing.T) {
	cases := []struct {
		name     string
		doc      func(t *testing.T) string
		wantPath string
		wantMsg  string
	}{
		{"unknown root field", func(t *testing.T) string { return mutate(t, func(m map[string]any) { m["nam"] = "x" }) }, "nam", "unknown field"},
		{"unknown runtime field", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { rt(m)["comand"] = "/bin/x" })
		}, "runtime.comand", "unknown field"},
		{"missing nested kind", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { delete(m["provides"].([]any)[1].(map[string]any), "kind") })
		}, "provides[1].kind", "required field is missing"},
		{"unknown nested field", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { m["requires"].([]any)[0].(map[string]any)["versoin"] = "1" })
		}, "requires[0].versoin", "unknown field"},
		{"bad name", func(t *testing.T) string { return mutate(t, func(m map[string]any) { m["name"] = "-bad" }) }, "name", "not a valid plugin name"},
		{"name too long", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { m["name"] = strings.Repeat("a", 65) })
		}, "name", "not a valid plugin name"},
		{"missing version", func(t *testing.T) string { return mutate(t, func(m map[string]any) { delete(m, "version") }) }, "version", "required field is missing"},
		{"empty version", func(t *testing.T) string { return mutate(t, func(m map[string]any) { m["version"] = "" }) }, "version", "must not be empty"},
		// Without a runtime the provider has no sidecar to serve it.
		{"missing runtime", func(t *testing.T) string { return mutate(t, func(m map[string]any) { delete(m, "runtime") }) }, "provides[0]", `needs the "providers" capability`},
		{"missing command", func(t *testing.T) string { return mutate(t, func(m map[string]any) { delete(rt(m), "command") }) }, "runtime.command", "required field is missing"},
		{"priority 1001", func(t *testing.T) string { return mutate(t, func(m map[string]any) { rt(m)["priority"] = 1001 }) }, "runtime.priority", "must be <= 1000, got 1001"},
		{"priority -1001", func(t *testing.T) string { return mutate(t, func(m map[string]any) { rt(m)["priority"] = -1001 }) }, "runtime.priority", "must be >= -1000"},
		{"priority fraction", func(t *testing.T) string { return mutate(t, func(m map[string]any) { rt(m)["priority"] = 1.5 }) }, "runtime.priority", "must be an integer"},
		{"intercepts non-hook", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { rt(m)["intercepts"] = []any{"tool.before", "tool.during"} })
		}, "runtime.intercepts[1]", `"tool.during" is not a hook point`},
		{"duplicate intercept", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { rt(m)["intercepts"] = []any{"tool.before", "tool.before"} })
		}, "runtime.intercepts[1]", "duplicate"},
		{"replaces tool: empty", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { rt(m)["replaces"] = []any{"tool:"} })
		}, "runtime.replaces[0]", "invalid slot"},
		{"replaces provider: empty", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { rt(m)["replaces"] = []any{"context", "provider:"} })
		}, "runtime.replaces[1]", "invalid slot"},
		{"replaces unknown slot", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { rt(m)["replaces"] = []any{"systemprompt"} })
		}, "runtime.replaces[0]", "unknown slot"},
		{"duplicate replaces", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { rt(m)["replaces"] = []any{"context", "context"} })
		}, "runtime.replaces[1]", "duplicate"},
		{"capability typo", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { rt(m)["capabilities"] = []any{"interceptor"} })
		}, "runtime.capabilities[0]", "unknown capability"},
		{"intercepts without interceptors", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) {
				rt(m)["capabilities"] = []any{"strategies", "providers", "ui"}
			})
		}, "runtime.intercepts", `needs the "interceptors" capability`},
		{"replaces without strategies", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) {
				rt(m)["capabilities"] = []any{"interceptors", "providers", "ui"}
			})
		}, "runtime.replaces", `needs the "strategies" capability`},
		{"provider without providers", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) {
				rt(m)["capabilities"] = []any{"interceptors", "strategies", "ui"}
			})
		}, "provides[0]", `"providers" capability`},
		{"uiaction without ui", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) {
				rt(m)["capabilities"] = []any{"interceptors", "strategies", "providers"}
			})
		}, "provides[1]", `"ui" capability`},
		{"uiaction uppercase", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { m["provides"].([]any)[1].(map[string]any)["id"] = "Open-Panel" })
		}, "provides[1].id", "not a valid action id"},
		{"duplicate action id", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) {
				m["provides"] = append(m["provides"].([]any), map[string]any{"kind": "uiaction", "namespace": "other", "id": "open-panel", "version": "1.0.0", "schemaHash": "x"})
			})
		}, "provides[3].id", "duplicate action id"},
		// The Reasonix package loader fills nothing in: each of these fails
		// there too, so it fails here with the entry and what to add.
		{"provides without namespace", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { delete(m["provides"].([]any)[1].(map[string]any), "namespace") })
		}, "provides[1].namespace", "required field is missing"},
		{"provides with a blank namespace", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { m["provides"].([]any)[1].(map[string]any)["namespace"] = " " })
		}, "provides[1].namespace", "capability namespace is required"},
		{"provides without version", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { delete(m["provides"].([]any)[2].(map[string]any), "version") })
		}, "provides[2].version", `capability custom/schema/thing: invalid version ""`},
		{"provides with a bad version", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { m["provides"].([]any)[0].(map[string]any)["version"] = "1.0.0.0" })
		}, "provides[0].version", "invalid version"},
		{"provider without schemaHash", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { delete(m["provides"].([]any)[0].(map[string]any), "schemaHash") })
		}, "provides[0].schemaHash", `schemaHash is required for kind "provider"`},
		{"whitespace in a key part", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { m["provides"].([]any)[2].(map[string]any)["namespace"] = "my ns" })
		}, "provides[2].namespace", "must not contain whitespace"},
		{"provider id with slash", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { m["provides"].([]any)[0].(map[string]any)["id"] = "a/b" })
		}, "provides[0].id", "not a valid provider id"},
		{"wrong apiVersion", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { m["apiVersion"] = "reasonix.io/plugin/v1"; m["extra"] = 1 })
		}, "apiVersion", "unsupported apiVersion"},
		{"missing apiVersion", func(t *testing.T) string { return mutate(t, func(m map[string]any) { delete(m, "apiVersion") }) }, "apiVersion", "missing apiVersion; native manifests must declare reasonix.io/plugin/v2"},
		{"trailing data", func(t *testing.T) string { return fullManifest + ` {}` }, "", "trailing data"},
		{"timeoutMillis -1", func(t *testing.T) string { return mutate(t, func(m map[string]any) { rt(m)["timeoutMillis"] = -1 }) }, "runtime.timeoutMillis", "must be >= 0, got -1"},
		{"arg not a string", func(t *testing.T) string { return mutate(t, func(m map[string]any) { rt(m)["args"] = []any{"a", 3} }) }, "runtime.args[1]", "must be a string, got a number"},
		{"env value not a string", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { rt(m)["env"] = map[string]any{"MODE": true} })
		}, "runtime.env.MODE", "must be a string, got a boolean"},
		{"env value of an odd name not a string", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { rt(m)["env"] = map[string]any{"A B": 1} })
		}, `runtime.env["A B"]`, "must be a string, got a number"},
		{"env bad key", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { rt(m)["env"] = map[string]any{"A=B": "x"} })
		}, `runtime.env["A=B"]`, "invalid environment variable name"},
		{"contributes not an object", func(t *testing.T) string { return mutate(t, func(m map[string]any) { m["contributes"] = []any{} }) }, "contributes", "must be an object, got an array"},
		{"tools not an array", func(t *testing.T) string { return mutate(t, func(m map[string]any) { rt(m)["tools"] = "x" }) }, "runtime.tools", "must be an array"},
		{"required not a bool", func(t *testing.T) string { return mutate(t, func(m map[string]any) { rt(m)["required"] = "yes" }) }, "runtime.required", "must be a boolean"},
		{"root not an object", func(t *testing.T) string { return `[]` }, "", "must be an object"},
		{"duplicate key", func(t *testing.T) string {
			return strings.Replace(fullManifest, `"command": "${REASONIX_PLUGIN_ROOT}/bin/guard",`, `"command": "/a", "command": "/b",`, 1)
		}, "runtime.command", "duplicate key"},
		{"duplicate key in a verbatim field", func(t *testing.T) string {
			return strings.Replace(fullManifest, `"tools": [{"name": "x"}]`, `"tools": [{"name": "x", "name": "y"}]`, 1)
		}, "runtime.tools[0].name", "duplicate key"},
		{"duplicate env name", func(t *testing.T) string {
			return strings.Replace(fullManifest, `"MODE": "strict",`, `"MODE": "strict", "MODE": "lax",`, 1)
		}, "runtime.env.MODE", "duplicate key"},
		{"duplicate key wins over an unknown field", func(t *testing.T) string {
			return strings.Replace(fullManifest, `"version": "1.2.3",`, `"version": "1.2.3", "zzz": 1, "version": "2",`, 1)
		}, "version", "duplicate key"},
		{"blank version", func(t *testing.T) string { return mutate(t, func(m map[string]any) { m["version"] = "  " }) }, "version", "must not be empty"},
		{"blank command", func(t *testing.T) string { return mutate(t, func(m map[string]any) { rt(m)["command"] = " " }) }, "runtime.command", "must not be empty"},
		{"NUL in an argument", func(t *testing.T) string {
			return mutate(t, func(m map[string]any) { rt(m)["args"] = []any{"a", "b\x00"} })
		}, "runtime.args[1]", "must not contain NUL"},
		{"apiVersion not a string", func(t *testing.T) string { return mutate(t, func(m map[string]any) { m["apiVersion"] = 2 }) }, "apiVersion", "must be a string, got a number"},
		{"priority not a number", func(t *testing.T) string { return mutate(t, func(m map[string]any) { rt(m)["priority"] = "1" }) }, "runtime.priority", "must be an integer, got a string"},
		{"syntax error deep", func(t *testing.T) string {
			return strings.Replace(fullManifest, `"priority": -10,`, `"priority": -,`, 1)
		}, "runtime.priority", "invalid JSON"},
		{"syntax error", func(t *testing.T) string { return `{"apiVersion": "reasonix.io/plugin/v2", "name": }` }, "name", "invalid JSON"},
		{"empty", func(t *testing.T) string { return `` }, "", "empty document"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseManifest([]byte(tc.doc(t)))
			if err == nil {
				t.Fatal("ParseManifest succeeded")
			}
			var me *ManifestError
			if !errors.As(err, &me) {
				t.Fatalf("error %T %v is not a *ManifestError", err, err)
			}
			if me.Path != tc.wantPath {
				t.Fatalf("path = %q, want %q (error: %v)", me.Path, tc.wantPath, err)
			}
			prefix := "reasonix-plugin.json: "
			if tc.wantPath != "" {
				prefix += tc.wantPath + ": "
			}
			if !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), tc.wantMsg) {
				t.Fatalf("error = %q, want prefix %q and %q", err, prefix, tc.wantMsg)
			}
		})
	}
}

func TestTimeout(t *testing.T) {
	base := `{"apiVersion":"reasonix.io/plugin/v2","name":"a","version":"1","runtime":{"command":"/bin/true"%s}}`
	cases := []struct {
		extra string
		point protocol.HookPoint
		want  time.Duration
	}{
		{"", protocol.HookInputReceive, 5 * time.Second},
		{"", protocol.HookToolBefore, 5 * time.Second},
		{"", protocol.HookToolAfter, 5 * time.Second},
		{"", protocol.HookPermissionDecision, 5 * time.Second},
		{"", protocol.HookSystemPromptBuild, 30 * time.Second},
		{"", protocol.HookCompactionPrepare, 30 * time.Second},
		{"", protocol.HookSessionSave, 30 * time.Second},
		{"", protocol.HookFrontendEvent, 30 * time.Second},
		{`,"timeoutMillis":0`, protocol.HookToolBefore, 5 * time.Second},
		{`,"timeoutMillis":1500`, protocol.HookToolBefore, 1500 * time.Millisecond},
		{`,"timeoutMillis":1500`, protocol.HookContextPrepare, 1500 * time.Millisecond},
		{`,"timeoutMillis":60000`, protocol.HookContextPrepare, 60 * time.Second},
		{`,"timeoutMillis":90000`, protocol.HookInputReceive, 60 * time.Second},
		{`,"timeoutMillis":2147483647`, protocol.HookInputReceive, 60 * time.Second},
	}
	for _, tc := range cases {
		m := mustParse(t, strings.Replace(base, "%s", tc.extra, 1))
		if got := m.Timeout(tc.point); got != tc.want {
			t.Errorf("timeout %q at %s = %v, want %v", tc.extra, tc.point, got, tc.want)
		}
	}
	// Every point has a timeout.
	m := mustParse(t, strings.Replace(base, "%s", "", 1))
	for _, p := range protocol.HookPoints() {
		if m.Timeout(p) <= 0 {
			t.Errorf("no timeout at %s", p)
		}
	}
}

func TestResolveCommand(t *testing.T) {
	mk := func(cmd string, args ...string) *Manifest {
		return &Manifest{Name: "p", Version: "1", Runtime: Runtime{Command: cmd, Args: args}}
	}
	cases := []struct {
		cmd      string
		args     []string
		wantPath string
		wantArgs []string
		wantErr  string
	}{
		// As in the Reasonix host: the command's leading placeholder is
		// expanded, the arguments are passed as written.
		{"${REASONIX_PLUGIN_ROOT}/bin/x", []string{"--root", "${REASONIX_PLUGIN_ROOT}", "plain"}, "/opt/p/bin/x", []string{"--root", "${REASONIX_PLUGIN_ROOT}", "plain"}, ""},
		{"/usr/bin/x${REASONIX_PLUGIN_ROOT}", nil, "/usr/bin/x${REASONIX_PLUGIN_ROOT}", []string{}, ""},
		{"/usr/bin/python3", nil, "/usr/bin/python3", []string{}, ""},
		{"/bin/true", nil, "/bin/true", []string{}, ""},
		{"/bin/sh", []string{"-c", "x"}, "", nil, "exec form only: shells are not allowed"},
		{"/usr/bin/bash", nil, "", nil, "exec form only: shells are not allowed"},
		{"/usr/local/bin/PWSH.exe", nil, "", nil, "exec form only"},
		{"${REASONIX_PLUGIN_ROOT}/../../bin/zsh", nil, "", nil, "exec form only"},
		{"/bin/busybox", nil, "", nil, "exec form only"},
		{"./x", nil, "", nil, `"./x" is not an absolute path`},
		{"x", nil, "", nil, "is not an absolute path"},
	}
	for _, tc := range cases {
		path, args, err := mk(tc.cmd, tc.args...).ResolveCommand("/opt/p")
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: err = %v, want %q", tc.cmd, err, tc.wantErr)
			}
			if strings.Contains(tc.wantErr, "exec form") && !errors.Is(err, ErrShellCommand) {
				t.Errorf("%s: not ErrShellCommand", tc.cmd)
			}
			continue
		}
		if err != nil || path != tc.wantPath || !slices.Equal(args, tc.wantArgs) {
			t.Errorf("%s: got %q %q %v, want %q %q", tc.cmd, path, args, err, tc.wantPath, tc.wantArgs)
		}
	}
	// A relative root yields a relative command: refused.
	if _, _, err := mk("${REASONIX_PLUGIN_ROOT}/bin/x").ResolveCommand("rel"); err == nil {
		t.Error("relative root accepted")
	}
}

func TestEnv(t *testing.T) {
	m := &Manifest{Name: "p", Version: "2.0", Runtime: Runtime{Command: "/x", Env: map[string]string{
		"HOME": "/plugin-home", "DATA": "${REASONIX_PLUGIN_ROOT}/data", "REASONIX_PLUGIN_NAME": "spoof",
	}}}
	base := []string{"PATH=/bin", "HOME=/home/u", "REASONIX_PLUGIN_ROOT=/elsewhere", "TERM=xterm"}
	got := m.Env("/opt/p", base)
	want := []string{
		"PATH=/bin", "TERM=xterm",
		"DATA=${REASONIX_PLUGIN_ROOT}/data", "HOME=/plugin-home",
		"REASONIX_PLUGIN_ROOT=/opt/p", "REASONIX_PLUGIN_NAME=p", "REASONIX_PLUGIN_VERSION=2.0",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Env =\n %q\nwant\n %q", got, want)
	}
	if !slices.Equal(base, []string{"PATH=/bin", "HOME=/home/u", "REASONIX_PLUGIN_ROOT=/elsewhere", "TERM=xterm"}) {
		t.Fatal("base modified")
	}
}

func TestCheckSlotOwners(t *testing.T) {
	mk := func(name string, slots ...string) *Manifest {
		return &Manifest{Name: name, Runtime: Runtime{Replaces: slots}}
	}
	if err := CheckSlotOwners([]*Manifest{mk("a", "context"), mk("b", "permission", "tool:bash"), nil, mk("c")}); err != nil {
		t.Fatalf("no conflict: %v", err)
	}
	err := CheckSlotOwners([]*Manifest{mk("zeta", "tool:bash"), mk("alpha", "context", "tool:bash")})
	if err == nil {
		t.Fatal("conflict accepted")
	}
	for _, s := range []string{`"tool:bash"`, `"alpha"`, `"zeta"`} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not name %s", err, s)
		}
	}
}

func TestTrustBlock(t *testing.T) {
	m := mustParse(t, fullManifest)
	block := m.TrustBlock("/data/plugins/policy-guard")
	for _, want := range []string{
		"FULL TRUST",
		"/data/plugins/policy-guard/bin/guard --serve \"--root=${REASONIX_PLUGIN_ROOT}\"",
		"tool.before, permission.decision",
		"permission, tool:bash",
		"plugin/policy-guard/echo",
		"/policy-guard:open-panel",
		"interceptors, strategies, providers, ui, tools",
		"DATA, MODE, OPENAI_API_KEY",
		"runs outside any sandbox with your full environment",
	} {
		if !strings.Contains(block, want) {
			t.Errorf("block lacks %q:\n%s", want, block)
		}
	}
	for _, leak := range []string{secretValue, "strict", "/data/plugins/policy-guard/data"} {
		if strings.Contains(block, leak) {
			t.Errorf("block shows env value %q:\n%s", leak, block)
		}
	}
	// An empty value declares a variable the user fills in.
	m.Runtime.Env = map[string]string{"OPENAI_API_KEY": "", "OPENAI_BASE_URL": "", "MODE": "strict"}
	block = m.TrustBlock("/r")
	for _, want := range []string{"env reads:    OPENAI_API_KEY, OPENAI_BASE_URL (you fill these in", "env sets:     MODE (names only"} {
		if !strings.Contains(block, want) {
			t.Errorf("block lacks %q:\n%s", want, block)
		}
	}
	// A secret in a plugin-provided string (here an argument) is redacted.
	m.Runtime.Args = []string{"--key", secretValue}
	if block := m.TrustBlock("/r"); strings.Contains(block, secretValue) {
		t.Errorf("argument secret not redacted:\n%s", block)
	}
}

func TestValidSlot(t *testing.T) {
	for s, want := range map[string]bool{
		"system_prompt": true, "frontend_events": true, "tool:bash": true, "provider:plugin/x/y": true,
		"tool:": false, "provider:": false, "tool:a b": false, "tools:x": false, "": false,
	} {
		if got := ValidSlot(s); got != want {
			t.Errorf("ValidSlot(%q) = %v", s, got)
		}
	}
}

// A manifest read from disk registers its env values with the redactor:
// a value of any shape is masked wherever it appears later, ordinary
// values (MODE=strict) are not.
func TestLoadManifestRegistersEnv(t *testing.T) {
	// No vendor format: only the exact pass knows it. New for every run:
	// the redactor's registry is process-wide and never forgets a value, so
	// a fixed one would be masked already on the test's second run (-count).
	odd := oddValue()
	root := t.TempDir()
	doc := strings.Replace(fullManifest, `"MODE": "strict"`, `"MODE": "strict", "DB_PASS": "`+odd+`"`, 1)
	if err := os.WriteFile(filepath.Join(root, ManifestFile), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := redact.String("connect failed for " + odd); got != "connect failed for "+odd {
		t.Fatalf("masked before the manifest was read: %q", got)
	}
	if _, err := LoadManifest(root); err != nil {
		t.Fatal(err)
	}
	if got := redact.String("connect failed for " + odd + " (strict)"); strings.Contains(got, odd) || !strings.Contains(got, "(strict)") {
		t.Fatalf("after LoadManifest: %q", got)
	}
}

// oddValue is a fresh 20-character secret of no known shape: letters and
// digits alternating, like "q7Rt2Lp9Xw4Zk8Mn3Vb6".
func oddValue() string {
	const letters, digits = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ", "23456789"
	b := make([]byte, 20)
	for i := range b {
		if i%2 == 0 {
			b[i] = letters[rand.IntN(len(letters))]
		} else {
			b[i] = digits[rand.IntN(len(digits))]
		}
	}
	return string(b)
}

func TestManifestErrorJoinsPaths(t *testing.T) {
	for _, tt := range []struct{ at, inner, want string }{
		{"", "a.b", "a.b"},
		{"runtime.tools", "", "runtime.tools"},
		{"runtime.tools", "[0].name", "runtime.tools[0].name"},
		{"apiVersion", "x", "apiVersion.x"},
	} {
		var me *ManifestError
		if !errors.As(manifestError(&protocol.DecodeError{Path: tt.inner, Msg: "m"}, tt.at), &me) || me.Path != tt.want {
			t.Errorf("manifestError(%q at %q) path = %+v, want %q", tt.inner, tt.at, me, tt.want)
		}
	}
}

// The "no shell as sidecar command" rule names the Windows shells too, in
// any case, with or without .exe, with \ or / separators.
func TestIsShellWindows(t *testing.T) {
	cases := []struct {
		path  string
		shell bool
	}{
		{`C:\Windows\System32\cmd.exe`, true},
		{`C:\Windows\System32\CMD.EXE`, true},
		{`cmd`, true},
		{`C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`, true},
		{`C:/Program Files/PowerShell/7/pwsh.exe`, true},
		{`C:\Program Files\Git\bin\bash.exe`, true},
		{`C:\plugins\p\bin\sidecar.exe`, false},
		{`C:\plugins\p\bin\cmdline.exe`, false},
		{`/usr/bin/python3`, false},
	}
	for _, tc := range cases {
		if got := IsShell(tc.path); got != tc.shell {
			t.Errorf("IsShell(%q) = %v, want %v", tc.path, got, tc.shell)
		}
	}
}
