package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact/redacttest"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// TestCorpusLeaksThroughNoChannel runs the whole positive corpus through
// a real sidecar (internal/testing/testplugins/leaky: stderr with wrapped
// secrets, model text split over chunks, a block reason, status, card and
// notification surfaces, a stream error chunk, a manifest env value) and a
// real xdev extension (internal/testing/testplugins/leakyxdev: stderr, log frames,
// a death with secrets as its last words), through the real binary, and
// looks for any 8 bytes of any secret in everything the host printed or
// stored: install output, headless stdout and stderr, --json events,
// plugin show, doctor's report of a failed start, host.log (at debug
// level, so every stderr line is logged), the session files, and the
// provider.request the plugin itself observed after its blocked call.
func TestCorpusLeaksThroughNoChannel(t *testing.T) {
	h := newHost(t)
	const envName, envValue = "LEAKY_DB_PASSWORD", "q7Rt2Lp9-Xw4Zk8Mn3Vb6" // no known shape
	seen := filepath.Join(t.TempDir(), "seen.json")                        // the provider.request the plugin observed
	// Secrets in the manifest's args show in the install preview, plugin
	// show and doctor: one of every format, each once.
	var args []string
	for _, smp := range redacttest.Positive(1) {
		args = append(args, "--opt="+smp.Text)
	}
	dir := testutil.PluginDir(t, "leaky", testutil.Binary(t, "internal/testing/testplugins/leaky"), map[string]any{
		"provides": []map[string]any{{"kind": "provider", "id": "mock"}},
		"runtime": map[string]any{"capabilities": []string{"providers", "interceptors", "ui"}, "args": args,
			"intercepts": []string{"tool.before"},
			"env":        map[string]any{"LEAKY_SECRET_ENV": envName, envName: envValue, "LEAKY_SEEN": seen}}})
	ext := filepath.Join(h.data, "extensions")
	if err := os.MkdirAll(ext, 0o755); err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(testutil.Binary(t, "internal/testing/testplugins/leakyxdev"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ext, "leakyxdev"), bin, 0o755); err != nil {
		t.Fatal(err)
	}

	var shown strings.Builder // everything the host printed, by channel
	say := func(channel string, r cliResult) {
		shown.WriteString("\n== " + channel + "\n" + r.stdout + r.stderr)
	}
	r := h.run("", "plugin", "install", "--yes", dir)
	if r.code != 0 {
		t.Fatalf("install: %s", r.stderr)
	}
	say("install", r)
	chat := func(h *host, env string, extra ...string) cliResult {
		cmd := h.command(append([]string{"chat", "--headless", "--model", "plugin/leaky/mock/m1", "--prompt", "read the readme"}, extra...)...)
		cmd.Env = append(cmd.Env, "REASONIX_LOG=debug", env)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		_ = cmd.Run() // the turn fails by design (the error chunk)
		return cliResult{0, out.String(), errb.String()}
	}
	say("chat", chat(h, ""))
	say("chat --json", chat(h, "", "--json"))
	say("plugin show", h.run("", "plugin", "show", "leaky"))
	doctor := h.command("plugin", "doctor", "leaky")
	doctor.Env = append(doctor.Env, "LEAKY_FAIL_START=1")
	out, _ := doctor.CombinedOutput()
	say("doctor", cliResult{0, string(out), ""})
	err = filepath.WalkDir(h.data, func(path string, d fs.DirEntry, err error) error {
		// extensions/ and plugins/ hold the plugins' own files (the
		// manifest with its env); everything else the host wrote.
		if err != nil || d.IsDir() || strings.HasPrefix(path, ext) || strings.HasPrefix(path, filepath.Join(h.data, "plugins")) {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		shown.WriteString("\n== " + strings.TrimPrefix(path, h.data) + "\n" + string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	observed, err := os.ReadFile(seen)
	if err != nil {
		t.Fatalf("the plugin never saw the turn after the blocked call: %v", err)
	}
	shown.WriteString("\n== observed by the plugin\n" + string(observed))

	// The model's own words, split over chunks: what the terminal shows.
	// (They run on a host of their own: the session keeps the model's
	// reply verbatim, as the history it is sent next turn.)
	m := newHost(t)
	if r := m.run("", "plugin", "install", "--yes", dir); r.code != 0 {
		t.Fatalf("install: %s", r.stderr)
	}
	say("chat, model text", chat(m, "LEAKY_MODEL_TEXT=1"))
	all := shown.String()

	// The channels carried the corpus, masked: this test can fail.
	for _, want := range []string{"--opt=[redacted: google api key", "policy says no", "upstream rejected the request", "observed by the plugin",
		"xdev says", // the xdev extension's stderr lines, logged through proc
		"xdev extension log", "plugin stderr", "stderr tail", "[leaky]", "[redacted: private key]", "[redacted: stripe key"} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q anywhere: a channel did not run", want)
		}
	}
	leaked := 0
	for _, s := range redacttest.Positive(3) {
		if p := redacttest.Leaks(all, s.Secret); p != "" {
			leaked++
			i := strings.Index(all, p)
			t.Errorf("%s: %q leaked: …%s…", s.Format.Name, p, all[max(0, i-200):min(len(all), i+100)])
		}
	}
	if strings.Contains(all, envValue) {
		leaked++
		i := strings.Index(all, envValue)
		t.Errorf("the manifest env value leaked: …%s…", all[max(0, i-200):min(len(all), i+100)])
	}
	t.Logf("%d bytes shown or stored, %d leaks", len(all), leaked)
}
