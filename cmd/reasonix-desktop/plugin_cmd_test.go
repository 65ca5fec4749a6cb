package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

type cliResult struct {
	code           int
	stdout, stderr string
}

func runCLI(t *testing.T, args ...string) cliResult {
	t.Helper()
	var out, errb bytes.Buffer
	code := runPlugin(context.Background(), args, &out, &errb)
	return cliResult{code, out.String(), errb.String()}
}

func writeTestPlugin(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	manifest := `{
  "apiVersion": "reasonix.io/plugin/v2",
  "name": "hello",
  "version": "0.1.0",
  "description": "says hello",
  "runtime": {
    "command": "/bin/true",
    "args": ["--serve"],
    "env": {"HELLO_TOKEN": "sk-live-abcdefghijklmnopqrstuvwxyz123456"},
    "intercepts": ["input.receive"],
    "capabilities": ["interceptors", "ui"]
  },
  "provides": [{"kind": "uiaction", "namespace": "plugin/hello", "id": "wave", "version": "1.0.0", "schemaHash": "sha256:test"}],
  "hooks": {}
}`
	if err := os.WriteFile(filepath.Join(dir, agent.ManifestFile), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "README"), []byte("hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func listJSON(t *testing.T, data string) []agent.PluginRecord {
	t.Helper()
	r := runCLI(t, "list", "--json", "--data-dir", data)
	if r.code != 0 {
		t.Fatalf("list: %d %s", r.code, r.stderr)
	}
	var recs []agent.PluginRecord
	if err := json.Unmarshal([]byte(r.stdout), &recs); err != nil {
		t.Fatalf("list --json output %q: %v", r.stdout, err)
	}
	return recs
}

func TestPluginCommandLifecycle(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	src := writeTestPlugin(t)
	const secret = "sk-live-abcdefghijklmnopqrstuvwxyz123456"

	// Without --yes: the preview, and nothing written.
	r := runCLI(t, "install", "--data-dir", data, src)
	if r.code != 1 {
		t.Fatalf("install without --yes: exit %d, stderr %s", r.code, r.stderr)
	}
	for _, want := range []string{"FULL TRUST", "/bin/true --serve", "input.receive", "/hello:wave", "HELLO_TOKEN",
		"runs outside any sandbox with your full environment", "Re-run with --yes to install.", "hooks: top-level (legacy) key"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("preview lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, secret) {
		t.Error("preview shows an env value")
	}
	if _, err := os.Stat(filepath.Join(data, "plugin-packages.json")); !os.IsNotExist(err) {
		t.Fatal("install without --yes wrote plugin-packages.json")
	}
	if entries, _ := os.ReadDir(filepath.Join(data, "plugins")); len(entries) != 0 {
		t.Fatal("install without --yes wrote into plugins/")
	}

	// With --yes (flags after the path work too).
	r = runCLI(t, "install", src, "--yes", "--data-dir", data)
	if r.code != 0 || !strings.Contains(r.stdout, "FULL TRUST") || !strings.Contains(r.stdout, "Installed hello 0.1.0") {
		t.Fatalf("install --yes: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	recs := listJSON(t, data)
	if len(recs) != 1 || recs[0].Name != "hello" || !recs[0].Enabled || recs[0].Linked || recs[0].Root != filepath.Join(data, "plugins", "hello") {
		t.Fatalf("list: %+v", recs)
	}
	if _, err := os.Stat(filepath.Join(data, "plugins", "hello", "README")); err != nil {
		t.Fatal("not copied")
	}
	r = runCLI(t, "list", "--data-dir", data)
	if r.code != 0 || !strings.Contains(r.stdout, "hello") || !strings.Contains(r.stdout, "enabled") {
		t.Fatalf("list: %+v", r)
	}

	// Installing again needs --replace.
	r = runCLI(t, "install", "--yes", "--data-dir", data, src)
	if r.code != 1 || !strings.Contains(r.stderr, "reasonix-desktop plugin install: ") || !strings.Contains(r.stderr, "--replace") {
		t.Fatalf("second install: %+v", r)
	}

	r = runCLI(t, "show", "--data-dir", data, "hello")
	if r.code != 0 {
		t.Fatalf("show: %+v", r)
	}
	for _, want := range []string{"Name:        hello", "FULL TRUST", "input.receive", "hooks: top-level (legacy) key"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("show lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, secret) {
		t.Error("show prints an env value")
	}

	if r = runCLI(t, "disable", "--data-dir", data, "hello"); r.code != 0 {
		t.Fatalf("disable: %+v", r)
	}
	if recs := listJSON(t, data); recs[0].Enabled {
		t.Fatal("still enabled")
	}
	if r = runCLI(t, "enable", "--data-dir", data, "hello"); r.code != 0 {
		t.Fatalf("enable: %+v", r)
	}
	if recs := listJSON(t, data); !recs[0].Enabled {
		t.Fatal("still disabled")
	}

	// remove without --yes keeps everything.
	r = runCLI(t, "remove", "--data-dir", data, "hello")
	if r.code != 1 || !strings.Contains(r.stdout, "Would remove hello") || !strings.Contains(r.stdout, "--yes") {
		t.Fatalf("remove without --yes: %+v", r)
	}
	if len(listJSON(t, data)) != 1 {
		t.Fatal("remove without --yes removed the record")
	}
	if _, err := os.Stat(filepath.Join(data, "plugins", "hello")); err != nil {
		t.Fatal("remove without --yes deleted the copy")
	}

	r = runCLI(t, "remove", "--yes", "--data-dir", data, "hello")
	if r.code != 0 {
		t.Fatalf("remove --yes: %+v", r)
	}
	if len(listJSON(t, data)) != 0 {
		t.Fatal("record left")
	}
	if _, err := os.Stat(filepath.Join(data, "plugins", "hello")); !os.IsNotExist(err) {
		t.Fatal("copy left")
	}
	if _, err := os.Stat(filepath.Join(src, agent.ManifestFile)); err != nil {
		t.Fatal("source touched")
	}
}

func TestPluginCommandLinkAndEnv(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	t.Setenv(agent.DataDirEnv, data)
	src := writeTestPlugin(t)
	if r := runCLI(t, "install", "--yes", "--link", "--name", "hello", src); r.code != 0 {
		t.Fatalf("link: %+v", r)
	}
	recs := listJSON(t, "")
	abs, _ := filepath.EvalSymlinks(src)
	if len(recs) != 1 || !recs[0].Linked || recs[0].Root != abs {
		t.Fatalf("records: %+v", recs)
	}
	if r := runCLI(t, "remove", "--yes", "hello"); r.code != 0 {
		t.Fatalf("remove: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(src, "README")); err != nil {
		t.Fatal("removing a linked plugin deleted its source")
	}
	// `plugin link` is install --link.
	if r := runCLI(t, "link", src); r.code != 1 || !strings.Contains(r.stdout, "Link: "+abs) {
		t.Fatalf("link preview: %+v", r)
	}
	if r := runCLI(t, "link", "--yes", src); r.code != 0 || !strings.Contains(r.stdout, "Linked hello") {
		t.Fatalf("link: %+v", r)
	}
	if recs := listJSON(t, ""); len(recs) != 1 || !recs[0].Linked || recs[0].Root != abs {
		t.Fatalf("records after link: %+v", recs)
	}
}

func TestPluginCommandErrors(t *testing.T) {
	data := t.TempDir()
	cases := []struct {
		args    []string
		code    int
		wantErr string
	}{
		{nil, 2, "usage: reasonix-desktop plugin"},
		{[]string{"frobnicate"}, 2, `unknown subcommand "frobnicate"`},
		{[]string{"install", "--data-dir", data}, 2, "want exactly one PATH"},
		{[]string{"install", "--bogus", "x"}, 2, "flag provided but not defined"},
		{[]string{"install", "--data-dir", data, "--name", "other", writeTestPlugin(t)}, 1, "reasonix-desktop plugin install: --name \"other\" does not match"},
		{[]string{"install", "--data-dir", data, filepath.Join(data, "missing")}, 1, "reasonix-desktop plugin install: "},
		{[]string{"show", "--data-dir", data, "nope"}, 1, `reasonix-desktop plugin show: plugin "nope" is not installed`},
		{[]string{"enable", "--data-dir", data, "nope"}, 1, `reasonix-desktop plugin enable: plugin "nope" is not installed`},
		{[]string{"remove", "--data-dir", data, "nope"}, 1, `reasonix-desktop plugin remove: plugin "nope" is not installed`},
		{[]string{"list", "--data-dir", data, "extra"}, 2, "list takes no arguments"},
	}
	for _, tc := range cases {
		r := runCLI(t, tc.args...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.wantErr) {
			t.Errorf("%q: exit %d stderr %q, want %d and %q", tc.args, r.code, r.stderr, tc.code, tc.wantErr)
		}
	}
	if r := runCLI(t, "help"); r.code != 0 || !strings.Contains(r.stdout, "usage:") {
		t.Errorf("help: %+v", r)
	}
	// A broken store is reported with its path.
	os.WriteFile(filepath.Join(data, "plugin-packages.json"), []byte(`{"version": 9}`), 0o600)
	if r := runCLI(t, "list", "--data-dir", data); r.code != 1 || !strings.Contains(r.stderr, "plugin-packages.json: unsupported version 9") {
		t.Errorf("bad store: %+v", r)
	}
}

// `plugin list` shows the xdev extensions next to the plugins, as the
// window's plugin manager does: loaded ones with what they declared, a
// broken one with why.
func TestPluginListShowsXdevExtensions(t *testing.T) {
	data := t.TempDir()
	h := &host{t: t, data: data}
	h.installXext("deployer", `{"commands":[{"name":"deploy","description":"deploy the app"}]}`)
	h.installExtension("broken.sh", []byte("#!/bin/sh\necho 'not xdev' >&2\nexit 3\n"))

	r := runCLI(t, "list", "--data-dir", data)
	if r.code != 0 {
		t.Fatalf("list: %d %s", r.code, r.stderr)
	}
	for _, want := range []string{"No plugins installed.", "XDEV EXTENSION", "deployer", "Active", "command /ext:deploy", "broken", "Failed", "handshake failed"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("list lacks %q:\n%s", want, r.stdout)
		}
	}

	src := writeTestPlugin(t)
	if r := runCLI(t, "install", "--yes", "--data-dir", data, src); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	r = runCLI(t, "list", "--json", "--data-dir", data)
	var got []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != 0 {
		t.Fatalf("list --json (%d) %q: %v", r.code, r.stdout, err)
	}
	var kinds []string
	for _, e := range got {
		kinds = append(kinds, fmt.Sprint(e["kind"], ":", e["name"], ":", e["state"]))
	}
	if want := "plugin:hello:<nil> xdev:deployer:Active xdev:broken:Failed"; strings.Join(kinds, " ") != want {
		t.Fatalf("list --json entries %v, want %s", kinds, want)
	}
}
