package plugin

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/reasonix/reasonix-desktop/protocol"
)

func FuzzParseManifest(f *testing.F) {
	f.Add([]byte(fullManifest))
	f.Add([]byte(`{"apiVersion":"reasonix.io/plugin/v2","name":"a","version":"1","runtime":{"command":"/bin/true"}}`))
	f.Add([]byte(`{"apiVersion":"reasonix.io/plugin/v2","name":"a","version":"1","runtime":{"command":"${REASONIX_PLUGIN_ROOT}/x","env":{"K":"v","A B":""},"priority":1000,"timeoutMillis":0}}`))
	f.Add([]byte(`{"apiVersion":"reasonix.io/plugin/v2","name":"a","version":"1","provides":[{"kind":"uiaction","id":"go"}],"runtime":{"command":"/x","capabilities":["ui"]}}`))
	f.Add([]byte(`{"apiVersion":"reasonix.io/plugin/v2","name":"a","version":"1","runtime":{"command":"/x"}} trailing`))
	f.Add([]byte(`{"apiVersion":"reasonix.io/plugin/v1"}`))
	f.Add([]byte(`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]`))
	f.Add([]byte(`{"a":1,"a":2}`))
	f.Add([]byte(""))
	f.Add([]byte(`{"apiVersion":"reasonix.io/plugin/v2","name":"0","version":"0","provides":[],"runtime":{"command":"0","args":[],"env":{}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseManifest(data)
		if err == nil && json.Valid(data) && protocol.CheckDuplicateKeys(data) != nil {
			t.Fatalf("accepted a manifest with a repeated key: %s", data)
		}
		if err != nil {
			if m != nil {
				t.Fatal("manifest returned with an error")
			}
			_ = err.Error()
			return
		}
		exp := m.Expectation()
		_ = m.TrustBlock("/root")
		_ = m.LegacyNotes()
		_, _, _ = m.ResolveCommand("/root")
		_ = m.Env("/root", []string{"A=b"})
		for _, p := range protocol.HookPoints() {
			if m.Timeout(p) <= 0 {
				t.Fatalf("no timeout at %s", p)
			}
		}
		// Re-validation is stable: the marshalled manifest parses to the same manifest.
		b1, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		m2, err := ParseManifest(b1)
		if err != nil {
			t.Fatalf("re-parse of %s: %v", b1, err)
		}
		b2, _ := json.Marshal(m2)
		if !bytes.Equal(b1, b2) {
			t.Fatalf("unstable:\n%s\n%s", b1, b2)
		}
		// Compared as wire JSON: an empty list and an absent one are the same.
		eb, _ := json.Marshal(exp)
		if eb2, _ := json.Marshal(m2.Expectation()); !bytes.Equal(eb, eb2) {
			t.Fatalf("expectation changed:\n%s\n%s", eb, eb2)
		}
		// The expectation is valid wire data.
		var back protocol.ManifestExpectation
		if err := protocol.DecodeStrict(eb, &back); err != nil {
			t.Fatalf("expectation %s does not decode strictly: %v", eb, err)
		}
	})
}

// FuzzPackageManifest feeds arbitrary manifests through the package loader
// (strict decode, contributes merge, path rules, theme globs): it must fail
// with an error, never panic, and never resolve a path outside the root.
func FuzzPackageManifest(f *testing.F) {
	for _, name := range []string{"v2-full", "mixed-dup", "mixed-conflict", "hook-conflict", "unknown-field", "path-escape", "legacy-skills"} {
		data, err := os.ReadFile(filepath.Join("testdata", "pkgs", name, ManifestFile))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"apiVersion":"reasonix.io/plugin/v2","name":"a","version":"1","contributes":{"themes":["[","*/*"],"skills":[{"path":"x"},"y"]}}`))
	root := f.TempDir()
	os.MkdirAll(filepath.Join(root, "skills", "s"), 0o755)
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(root, ManifestFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		// Whatever the document, a migration either fails or yields a
		// manifest that parses (MigrateManifest checks its own output).
		_, _ = MigrateManifest(data)
		p, err := LoadPackage(root)
		if err != nil {
			return
		}
		real, _ := filepath.EvalSymlinks(root)
		for _, list := range [][]string{p.Skills, p.Commands, p.Agents, p.Prompts, p.Themes} {
			for _, path := range list {
				if !within(real, path) {
					t.Fatalf("%s resolved outside the root", path)
				}
			}
		}
		if _, err := MigrateManifest(data); err == nil {
			t.Fatal("a v2 manifest migrated")
		}
	})
}

// FuzzPackageFSName: whatever name a manifest or a model gives, a read
// through PackageFS never returns a file outside the package, and a name
// packagePath takes from a command line is never absolute.
func FuzzPackageFSName(f *testing.F) {
	for _, s := range []string{"skills/leak/SKILL.md", "a/b/y/secret.txt", "../secret.txt", "a/b/x/a/b/y/secret.txt",
		"/etc/passwd", "a/b/x/../../secret.txt", "./reasonix-plugin.json", "${REASONIX_PLUGIN_ROOT}/../x", "", ".", "a\x00b"} {
		f.Add(s)
	}
	root, secret := chainPackage(f)
	f.Fuzz(func(t *testing.T, name string) {
		if b, err := ReadPackageFile(root, name, 1<<20); err == nil && bytes.Contains(b, []byte(secret)) {
			t.Fatalf("%q read the file outside the package", name)
		}
		if b, err := ReadPackageFile(root, filepath.Join(root, name), 1<<20); err == nil && bytes.Contains(b, []byte(secret)) {
			t.Fatalf("%q (absolute) read the file outside the package", name)
		}
		for _, rel := range []bool{false, true} {
			if p, ok := packagePath(name, rel); ok && filepath.IsAbs(p) {
				t.Fatalf("packagePath(%q) = %q, absolute", name, p)
			}
		}
	})
}
