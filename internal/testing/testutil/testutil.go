// Package testutil builds the real sidecar binaries tests run as child
// processes, writes plugin folders for them, and checks that no process or
// goroutine outlives a test. It is imported only by tests.
package testutil

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

var (
	buildMu  sync.Mutex
	built    = map[string]string{}
	buildDir string
)

// Run runs a package's tests, removes the binaries built for them and,
// when they passed, fails the package if a goroutine it started is still
// running (go.uber.org/goleak; see leak.go for what is ignored and why).
// The tests get no D-Bus session bus: godbus would otherwise start one
// through dbus-launch where dbus-x11 is installed (a machine with an input
// method has it), reach the developer's keyring, and leave its reader
// goroutines behind; without a bus the keyring falls back to the 0600 file
// as on CI.
func Run(m *testing.M) int {
	os.Setenv("DBUS_SESSION_BUS_ADDRESS", "disabled:")
	code := m.Run()
	buildMu.Lock()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	buildMu.Unlock()
	if code == 0 {
		if err := goleak.Find(LeakOptions()...); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: goroutines outlived the package's tests: %v\n", err)
			return 1
		}
	}
	return code
}

// ModuleRoot is the repository root (the folder holding go.mod).
func ModuleRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("go.mod not found above the test's directory")
		}
		dir = parent
	}
}

// PrebuiltVar names a folder of main packages built beforehand, one file
// per package named as Binary names it ("examples_echo-provider.exe"): a
// test binary cross-compiled for Windows runs under wine, where there is no
// go tool to build them (scripts/windows/lane.sh).
const PrebuiltVar = "REASONIX_TEST_PREBUILT"

// Binary builds a main package (path relative to the module root, e.g.
// "examples/echo-provider") once per test process and returns its path.
func Binary(tb testing.TB, pkg string) string {
	tb.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	if p, ok := built[pkg]; ok {
		return p
	}
	name := strings.ReplaceAll(pkg, "/", "_") + exeSuffix
	if dir := os.Getenv(PrebuiltVar); dir != "" {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err != nil {
			tb.Fatalf("%s=%s: no prebuilt %s: %v", PrebuiltVar, dir, pkg, err)
		}
		built[pkg] = p
		return p
	}
	if buildDir == "" {
		d, err := os.MkdirTemp("", "reasonix-test-bin-")
		if err != nil {
			tb.Fatal(err)
		}
		buildDir = d
	}
	out := filepath.Join(buildDir, name)
	cmd := exec.Command("go", "build", "-o", out, "./"+pkg)
	cmd.Dir = ModuleRoot(tb)
	if b, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	built[pkg] = out
	return out
}

// PluginDir writes a plugin folder whose manifest runs binary. The manifest
// is the given JSON object with apiVersion, version and runtime.command
// filled in when absent.
func PluginDir(tb testing.TB, name, binary string, manifest map[string]any) string {
	tb.Helper()
	root := filepath.Join(tb.TempDir(), name)
	if err := os.MkdirAll(root, 0o755); err != nil {
		tb.Fatal(err)
	}
	if manifest == nil {
		manifest = map[string]any{}
	}
	setDefault(manifest, "apiVersion", "reasonix.io/plugin/v2")
	setDefault(manifest, "name", name)
	setDefault(manifest, "version", "0.0.1")
	rt, _ := manifest["runtime"].(map[string]any)
	if rt == nil {
		rt = map[string]any{}
		manifest["runtime"] = rt
	}
	setDefault(rt, "command", binary)
	// Provides entries get what the Reasonix loader requires and a test
	// rarely cares about: the plugin's namespace, a version, a schemaHash.
	if provides, ok := manifest["provides"].([]map[string]any); ok {
		for _, c := range provides {
			setDefault(c, "namespace", "plugin/"+manifest["name"].(string))
			setDefault(c, "version", "1.0.0")
			setDefault(c, "schemaHash", "sha256:test")
		}
	}
	b, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "reasonix-plugin.json"), b, 0o644); err != nil {
		tb.Fatal(err)
	}
	return root
}

func setDefault(m map[string]any, k string, v any) {
	if _, ok := m[k]; !ok {
		m[k] = v
	}
}

// WaitDead fails the test if any pid is still alive after a grace period
// of 3 s for them all. The grace is the bound under test (what was killed
// dies promptly), not a hang guard; the polling is Eventually's.
func WaitDead(tb testing.TB, pids ...int) {
	tb.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for _, pid := range pids {
		if !within(time.Until(deadline), func() bool { return !Alive(pid) }) {
			tb.Errorf("process %d outlived the host", pid)
		}
	}
}

// ReadPIDs reads one pid per line.
func ReadPIDs(tb testing.TB, path string) []int {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		n, err := strconv.Atoi(f)
		if err != nil {
			tb.Fatalf("pid file: %v", err)
		}
		pids = append(pids, n)
	}
	return pids
}

// CheckGoroutines fails the test if a goroutine started during it is still
// running once it and its cleanups registered later have finished.
func CheckGoroutines(tb testing.TB) {
	tb.Helper()
	opts := append(LeakOptions(), goleak.IgnoreCurrent())
	tb.Cleanup(func() {
		if err := goleak.Find(opts...); err != nil {
			tb.Errorf("goroutines leaked: %v", err)
		}
	})
}

// ExamplePlugin lays out examples/<name> in a temp folder with its binary
// built where the manifest expects it (${REASONIX_PLUGIN_ROOT}/bin/<name>).
func ExamplePlugin(tb testing.TB, name string) string {
	tb.Helper()
	src := filepath.Join(ModuleRoot(tb), "examples", name, "reasonix-plugin.json")
	manifest, err := os.ReadFile(src)
	if err != nil {
		tb.Fatal(err)
	}
	root := filepath.Join(tb.TempDir(), name)
	if err := os.MkdirAll(filepath.Join(root, "bin"), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "reasonix-plugin.json"), manifest, 0o644); err != nil {
		tb.Fatal(err)
	}
	bin := Binary(tb, "examples/"+name)
	data, err := os.ReadFile(bin)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "bin", name+exeSuffix), data, 0o755); err != nil {
		tb.Fatal(err)
	}
	return root
}
