package conformance

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// rawManifest is the part of reasonix-plugin.json the real host builds its
// initialize params from, read here without our manifest package.
type rawManifest struct {
	Name     string          `json:"name"`
	Version  string          `json:"version"`
	Provides []rawCapability `json:"provides"`
	Runtime  struct {
		Command      string   `json:"command"`
		Intercepts   []string `json:"intercepts"`
		Replaces     []string `json:"replaces"`
		Capabilities []string `json:"capabilities"`
	} `json:"runtime"`
}

type rawCapability struct {
	Namespace  string `json:"namespace"`
	Kind       string `json:"kind"`
	ID         string `json:"id"`
	Version    string `json:"version"`
	SchemaHash string `json:"schemaHash"`
}

// realInitialize is extension/initialize as the Reasonix host writes it for
// a manifest: its field order, the manifest expectation it derives
// (providers as namespace/id, uiActions as ids, provides verbatim) and
// dependencySchemaVersion 1 at both places.
func realInitialize(m rawManifest, workspace string) string {
	var providers, actions []string
	var provides []string
	for _, p := range m.Provides {
		switch p.Kind {
		case "provider":
			providers = append(providers, p.Namespace+"/"+p.ID)
		case "uiaction":
			actions = append(actions, p.ID)
		}
		provides = append(provides, fmt.Sprintf(`{"namespace":%q,"kind":%q,"id":%q,"version":%q,"schemaHash":%q}`,
			p.Namespace, p.Kind, p.ID, p.Version, p.SchemaHash))
	}
	list := func(key string, vs []string, quote bool) string {
		if len(vs) == 0 {
			return ""
		}
		items := make([]string, len(vs))
		for i, v := range vs {
			items[i] = v
			if quote {
				items[i] = fmt.Sprintf("%q", v)
			}
		}
		return fmt.Sprintf(`%q:[%s],`, key, strings.Join(items, ","))
	}
	expectation := list("intercepts", m.Runtime.Intercepts, true) + list("replaces", m.Runtime.Replaces, true) +
		list("providers", providers, true) + list("uiActions", actions, true) +
		list("capabilities", m.Runtime.Capabilities, true) + list("provides", provides, false)
	expectation = strings.TrimSuffix(expectation, ",")
	return `{"jsonrpc":"2.0","id":1,"method":"extension/initialize","params":{"protocolVersion":"2",` +
		`"protocolId":"reasonix.extension.v2","manifest":{` + expectation + `},` +
		fmt.Sprintf(`"session":{"sessionId":"sess-1","workspaceRoot":%q,"generation":1},`, workspace) +
		`"capabilities":{"contentRefs":true,"uiHost":"headless","protocolVersion":"2","dependencySchemaVersion":1},` +
		`"dependencySchemaVersion":1}}`
}

// TestExamplesStartAgainstRealFrames starts every example sidecar, spawned
// as the Reasonix host spawns it (the command's leading placeholder
// expanded, args as written, the three REASONIX_PLUGIN_* variables set
// last), and drives the handshake and shutdown with the exact frames that
// host writes. Each must answer within its manifest's declaration.
func TestExamplesStartAgainstRealFrames(t *testing.T) {
	for _, name := range []string{"echo-provider", "openai-provider", "hello-surfaces", "policy-guard"} {
		t.Run(name, func(t *testing.T) {
			root := testutil.ExamplePlugin(t, name)
			data, err := os.ReadFile(filepath.Join(root, "reasonix-plugin.json"))
			if err != nil {
				t.Fatal(err)
			}
			var m rawManifest
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			for i, p := range m.Provides {
				if p.Namespace == "" || p.Version == "" || p.SchemaHash == "" {
					t.Errorf("provides[%d] %+v: the Reasonix loader needs namespace, version and schemaHash", i, p)
				}
			}
			command, ok := strings.CutPrefix(m.Runtime.Command, "${REASONIX_PLUGIN_ROOT}")
			if !ok {
				t.Fatalf("command %q does not start with the plugin root", m.Runtime.Command)
			}
			cmd := exec.Command(filepath.Join(root, command))
			cmd.Env = append(os.Environ(), "REASONIX_PLUGIN_ROOT="+root, "REASONIX_PLUGIN_NAME="+m.Name,
				"REASONIX_PLUGIN_VERSION="+m.Version)
			var stderr testutil.LockedBuffer
			cmd.Stderr = &stderr
			stdin, _ := cmd.StdinPipe()
			stdout, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan struct{})
			go func() { cmd.Wait(); close(done) }()
			t.Cleanup(func() {
				cmd.Process.Kill()
				<-done
			})
			lines := make(chan string, 16)
			go func() {
				sc := bufio.NewScanner(stdout)
				sc.Buffer(nil, 8<<20)
				for sc.Scan() {
					lines <- sc.Text()
				}
				close(lines)
			}()
			read := func(what string) map[string]json.RawMessage {
				t.Helper()
				select {
				case l, ok := <-lines:
					if !ok {
						t.Fatalf("%s: the sidecar closed stdout; stderr:\n%s", what, stderr.String())
					}
					var f map[string]json.RawMessage
					if err := json.Unmarshal([]byte(l), &f); err != nil {
						t.Fatalf("%s: %q: %v", what, l, err)
					}
					if f["error"] != nil {
						t.Fatalf("%s: error answer %s", what, l)
					}
					return f
				case <-time.After(testutil.WaitTimeout):
					t.Fatalf("%s: no answer", what)
				}
				return nil
			}
			fmt.Fprintln(stdin, realInitialize(m, t.TempDir()))
			answer := read("initialize")
			var res struct {
				ProtocolVersion string   `json:"protocolVersion"`
				Name            string   `json:"name"`
				Subscriptions   []string `json:"subscriptions"`
				Providers       []struct {
					Ref string `json:"ref"`
				} `json:"providers"`
				UIActions []struct {
					ActionID string `json:"actionId"`
				} `json:"uiActions"`
			}
			if err := json.Unmarshal(answer["result"], &res); err != nil || res.ProtocolVersion != "2" || res.Name != m.Name {
				t.Fatalf("initialize result %s (%v)", answer["result"], err)
			}
			for _, s := range res.Subscriptions {
				if !slices.Contains(m.Runtime.Intercepts, s) {
					t.Errorf("subscription %q outside runtime.intercepts", s)
				}
			}
			for _, p := range res.Providers {
				if !strings.HasPrefix(p.Ref, "plugin/"+m.Name+"/") {
					t.Errorf("provider ref %q outside plugin/%s/", p.Ref, m.Name)
				}
			}
			for _, a := range res.UIActions {
				if !slices.ContainsFunc(m.Provides, func(p rawCapability) bool { return p.Kind == "uiaction" && p.ID == a.ActionID }) {
					t.Errorf("UI action %q outside provides", a.ActionID)
				}
			}
			fmt.Fprintln(stdin, `{"jsonrpc":"2.0","method":"extension/initialized","params":{}}`)
			fmt.Fprintln(stdin, `{"jsonrpc":"2.0","id":2,"method":"extension/shutdown","params":{"timeoutMillis":5000}}`)
			// A plugin may publish surfaces once initialized; the shutdown
			// answer is the frame with id 2.
			for {
				f := read("shutdown")
				if f["method"] != nil { // the plugin's own traffic (a publish): answer requests
					if f["id"] != nil {
						fmt.Fprintf(stdin, `{"jsonrpc":"2.0","id":%s,"result":{"accepted":true}}`+"\n", f["id"])
					}
					continue
				}
				if string(f["id"]) != "2" || string(f["result"]) != `{"accepted":true}` {
					t.Fatalf("shutdown answer %v", f)
				}
				break
			}
			stdin.Close()
			select {
			case <-done:
			case <-time.After(testutil.WaitTimeout):
				t.Fatal("the sidecar did not exit after shutdown and EOF")
			}
		})
	}
}
