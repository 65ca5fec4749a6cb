package plugin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writePlugin writes a plugin folder with an executable bin/run and a data file.
func writePlugin(t *testing.T, dir, name, version string) string {
	t.Helper()
	write := func(rel, body string, mode os.FileMode) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	write(ManifestFile, `{"apiVersion":"reasonix.io/plugin/v2","name":"`+name+`","version":"`+version+`",
"description":"demo","runtime":{"command":"${REASONIX_PLUGIN_ROOT}/bin/run","intercepts":["tool.before"],"capabilities":["interceptors"]},
"skills":["s"]}`, 0o644)
	write("bin/run", "#!/bin/true\n", 0o755)
	write("data/readme.txt", "hello", 0o640)
	return dir
}

func newStore(t *testing.T) (*Store, Layout) {
	t.Helper()
	layout := Layout{Root: filepath.Join(t.TempDir(), "data")}
	s, err := OpenStore(layout)
	if err != nil {
		t.Fatal(err)
	}
	return s, layout
}

func TestPreviewWritesNothing(t *testing.T) {
	s, layout := newStore(t)
	src := writePlugin(t, t.TempDir(), "demo", "1.0.0")
	plan, err := Preview(s, src, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"FULL TRUST", filepath.Join(layout.PluginsDir(), "demo", "bin", "run"), "tool.before",
		"Copy: " + plan.Source, "to: " + filepath.Join(layout.PluginsDir(), "demo"), "skills: top-level (legacy) key"} {
		if !strings.Contains(plan.Text, want) {
			t.Errorf("preview lacks %q:\n%s", want, plan.Text)
		}
	}
	if _, err := os.Stat(layout.Root); !os.IsNotExist(err) {
		t.Fatalf("preview created the data dir (%v)", err)
	}
	if _, err := Preview(s, src, InstallOptions{Name: "other"}); err == nil || !strings.Contains(err.Error(), "does not match the manifest name") {
		t.Fatalf("--name mismatch: %v", err)
	}
	if _, err := Preview(s, src, InstallOptions{Name: "bad/name"}); err == nil {
		t.Fatal("invalid --name accepted")
	}
	if _, err := Preview(s, src, InstallOptions{Name: "demo"}); err != nil {
		t.Fatalf("matching --name: %v", err)
	}
}

func TestInstallCopyKeepsModes(t *testing.T) {
	s, layout := newStore(t)
	src := writePlugin(t, t.TempDir(), "demo", "1.0.0")
	if err := os.Symlink("data/readme.txt", filepath.Join(src, "link")); err != nil {
		t.Fatal(err)
	}
	plan, err := Preview(s, src, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Install(s, layout, plan)
	if err != nil {
		t.Fatal(err)
	}
	dest := layout.PluginDir("demo")
	if r.Root != dest || r.Linked || !r.Enabled || r.Version != "1.0.0" || r.ManifestSHA256 == "" || r.InstalledAt.IsZero() {
		t.Fatalf("record = %+v", r)
	}
	for rel, mode := range map[string]os.FileMode{"bin/run": 0o755, "data/readme.txt": 0o640, ManifestFile: 0o644} {
		fi, err := os.Stat(filepath.Join(dest, rel))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != mode {
			t.Errorf("%s mode = %v, want %v", rel, fi.Mode().Perm(), mode)
		}
	}
	if target, err := os.Readlink(filepath.Join(dest, "link")); err != nil || target != "data/readme.txt" {
		t.Errorf("symlink not copied as a symlink: %q %v", target, err)
	}
	entries, _ := os.ReadDir(layout.PluginsDir())
	if len(entries) != 1 {
		t.Errorf("plugins/ holds %d entries, want only demo", len(entries))
	}
	if got, _ := s.Get("demo"); got != r {
		t.Errorf("stored %+v", got)
	}
	// A second install needs --replace.
	if _, err := Preview(s, src, InstallOptions{}); err == nil || !strings.Contains(err.Error(), "already installed") || !strings.Contains(err.Error(), "--replace") {
		t.Fatalf("second install: %v", err)
	}
	if err := Remove(s, layout, "demo"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dest); !os.IsNotExist(err) {
		t.Fatal("Remove left the copy")
	}
	if _, ok := s.Get("demo"); ok {
		t.Fatal("Remove left the record")
	}
	if _, err := os.Stat(filepath.Join(src, "bin", "run")); err != nil {
		t.Fatal("Remove touched the source")
	}
}

func TestInstallLinkAndRemoveKeepsSource(t *testing.T) {
	s, layout := newStore(t)
	src := writePlugin(t, t.TempDir(), "demo", "1.0.0")
	plan, err := Preview(s, src, InstallOptions{Link: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plan.Text, "Link: "+plan.Source) {
		t.Fatalf("preview:\n%s", plan.Text)
	}
	r, err := Install(s, layout, plan)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.EvalSymlinks(src)
	if !r.Linked || r.Root != abs || r.Source != abs {
		t.Fatalf("record = %+v", r)
	}
	if entries, _ := os.ReadDir(layout.PluginsDir()); len(entries) != 0 {
		t.Fatal("link copied files")
	}
	if err := Remove(s, layout, "demo"); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{ManifestFile, "bin/run", "data/readme.txt"} {
		if _, err := os.Stat(filepath.Join(src, rel)); err != nil {
			t.Fatalf("linked source damaged: %v", err)
		}
	}
	if len(s.List()) != 0 {
		t.Fatal("record left")
	}
}

func TestInstallReplace(t *testing.T) {
	s, layout := newStore(t)
	v1 := writePlugin(t, t.TempDir(), "demo", "1.0.0")
	plan, _ := Preview(s, v1, InstallOptions{})
	if _, err := Install(s, layout, plan); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(layout.PluginDir("demo"), "old-only"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.SetEnabled("demo", false); err != nil {
		t.Fatal(err)
	}
	v2 := writePlugin(t, t.TempDir(), "demo", "2.0.0")
	plan2, err := Preview(s, v2, InstallOptions{Replace: true})
	if err != nil {
		t.Fatal(err)
	}
	if plan2.Existing == nil || !strings.Contains(plan2.Text, "Replaces: demo 1.0.0") {
		t.Fatalf("preview:\n%s", plan2.Text)
	}
	r, err := Install(s, layout, plan2)
	if err != nil {
		t.Fatal(err)
	}
	if r.Version != "2.0.0" || !r.Enabled {
		t.Fatalf("record = %+v", r)
	}
	if _, err := os.Stat(filepath.Join(layout.PluginDir("demo"), "old-only")); !os.IsNotExist(err) {
		t.Fatal("old copy not replaced")
	}
	if entries, _ := os.ReadDir(layout.PluginsDir()); len(entries) != 1 {
		t.Fatalf("plugins/ has %d entries", len(entries))
	}
	// Replacing a copy with a link deletes the copy, never the link source.
	plan3, err := Preview(s, v2, InstallOptions{Replace: true, Link: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Install(s, layout, plan3); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(layout.PluginDir("demo")); !os.IsNotExist(err) {
		t.Fatal("old copy kept after replacing with a link")
	}
	plan4, _ := Preview(s, v1, InstallOptions{Replace: true})
	if _, err := Install(s, layout, plan4); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(v2, ManifestFile)); err != nil {
		t.Fatal("replacing a link deleted its source")
	}
}

func TestInstallRefusesEscapingSymlink(t *testing.T) {
	for name, target := range map[string]string{"relative": "../../outside", "absolute": "/etc/passwd"} {
		t.Run(name, func(t *testing.T) {
			s, layout := newStore(t)
			src := writePlugin(t, t.TempDir(), "demo", "1.0.0")
			if err := os.Symlink(target, filepath.Join(src, "data", "escape")); err != nil {
				t.Fatal(err)
			}
			if _, err := Preview(s, src, InstallOptions{}); err == nil || !strings.Contains(err.Error(), "outside the plugin folder") {
				t.Fatalf("preview: %v", err)
			}
			// Even a plan made before the link appeared cannot copy it.
			os.Remove(filepath.Join(src, "data", "escape"))
			plan, err := Preview(s, src, InstallOptions{})
			if err != nil {
				t.Fatal(err)
			}
			os.Symlink(target, filepath.Join(src, "data", "escape"))
			if _, err := Install(s, layout, plan); err == nil || !strings.Contains(err.Error(), "outside the plugin folder") {
				t.Fatalf("install: %v", err)
			}
			if entries, _ := os.ReadDir(layout.PluginsDir()); len(entries) != 0 {
				t.Fatalf("failed copy left %d entries", len(entries))
			}
			if len(s.List()) != 0 {
				t.Fatal("failed install recorded")
			}
			// Linking does not copy, so the link is not an obstacle.
			if _, err := Preview(s, src, InstallOptions{Link: true}); err != nil {
				t.Fatalf("link: %v", err)
			}
		})
	}
}

func TestInstallRejects(t *testing.T) {
	s, layout := newStore(t)
	src := writePlugin(t, t.TempDir(), "demo", "1.0.0")
	shell := `{"apiVersion":"reasonix.io/plugin/v2","name":"demo","version":"1","runtime":{"command":"/bin/bash","args":["-c","x"]}}`
	if err := os.WriteFile(filepath.Join(src, ManifestFile), []byte(shell), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Preview(s, src, InstallOptions{}); err == nil || !strings.Contains(err.Error(), "shells are not allowed") {
		t.Fatalf("shell: %v", err)
	}
	if _, err := Preview(s, filepath.Join(src, "nope"), InstallOptions{}); err == nil {
		t.Fatal("missing folder accepted")
	}
	bad := `{"apiVersion":"reasonix.io/plugin/v2","name":"demo","version":"1","runtime":{"comand":"/bin/true"}}`
	os.WriteFile(filepath.Join(src, ManifestFile), []byte(bad), 0o644)
	_, err := Preview(s, src, InstallOptions{})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(src, ManifestFile)+": runtime.comand: unknown field") {
		t.Fatalf("bad manifest: %v", err)
	}
	// The manifest changed between preview and install.
	src2 := writePlugin(t, t.TempDir(), "demo", "1.0.0")
	plan, err := Preview(s, src2, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	writePlugin(t, src2, "demo", "6.6.6")
	if _, err := Install(s, layout, plan); err == nil || !strings.Contains(err.Error(), "changed since the preview") {
		t.Fatalf("changed manifest: %v", err)
	}
	// A data dir inside the plugin folder cannot be copied into itself.
	s2, err := OpenStore(Layout{Root: filepath.Join(src2, ".data")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Preview(s2, src2, InstallOptions{}); err == nil || !strings.Contains(err.Error(), "inside it") {
		t.Fatalf("data dir inside source: %v", err)
	}
}

func TestResolveDataDirAndLayout(t *testing.T) {
	t.Setenv(DataDirEnv, "/env/home")
	if d, _ := ResolveDataDir("/flag/dir"); d != "/flag/dir" {
		t.Errorf("flag: %s", d)
	}
	if d, _ := ResolveDataDir(""); d != "/env/home" {
		t.Errorf("env: %s", d)
	}
	t.Setenv(DataDirEnv, "")
	t.Setenv("XDG_CONFIG_HOME", "/xdg")
	t.Setenv("HOME", "/home/u")
	if d, err := ResolveDataDir(""); err != nil || !strings.HasSuffix(d, "reasonix-desktop") || !filepath.IsAbs(d) {
		t.Errorf("default: %s %v", d, err)
	}
	if d, _ := ResolveDataDir("rel"); !filepath.IsAbs(d) {
		t.Errorf("relative flag not made absolute: %s", d)
	}
	l := Layout{Root: t.TempDir()}
	if err := l.EnsureDirs(); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{l.PluginsDir(), l.ExtensionsDir(), l.SessionsDir(), l.LogsDir()} {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			t.Errorf("%s not created", d)
		}
	}
	if l.HostLog() != filepath.Join(l.Root, "logs", "host.log") || l.SettingsFile() != filepath.Join(l.Root, "settings.json") ||
		l.PluginDir("x") != filepath.Join(l.Root, "plugins", "x") || l.PackagesFile() != filepath.Join(l.Root, "plugin-packages.json") {
		t.Error("layout paths")
	}
}

func TestWorkspaceDeclaresSidecars(t *testing.T) {
	ws := t.TempDir()
	if w := WorkspaceDeclaresSidecars(ws); len(w) != 0 {
		t.Fatalf("empty workspace: %v", w)
	}
	os.MkdirAll(filepath.Join(ws, ".reasonix"), 0o755)
	os.WriteFile(filepath.Join(ws, ".reasonix", "settings.json"), []byte(`{"model":"x"}`), 0o644)
	if w := WorkspaceDeclaresSidecars(ws); len(w) != 0 {
		t.Fatalf("plain settings: %v", w)
	}
	os.WriteFile(filepath.Join(ws, ".reasonix", "settings.json"), []byte(`{"plugins":{"evil":{"command":"/x"}}}`), 0o644)
	os.WriteFile(filepath.Join(ws, ".reasonix", "plugins.json"), []byte(`{}`), 0o644)
	os.WriteFile(filepath.Join(ws, ManifestFile), []byte(`{}`), 0o644)
	w := WorkspaceDeclaresSidecars(ws)
	if len(w) != 3 {
		t.Fatalf("warnings = %q", w)
	}
	for _, s := range w {
		if !strings.Contains(s, "tries to declare a sidecar; ignored (only installed plugins start)") {
			t.Errorf("warning %q", s)
		}
	}
}
