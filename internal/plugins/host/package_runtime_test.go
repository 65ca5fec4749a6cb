package host_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/host"
)

// A package without a runtime starts no sidecar and is Ready next to a
// sidecar plugin; a linked legacy manifest is Failed naming the migration.
func TestPackagesStartNoSidecar(t *testing.T) {
	f := newFixture(t)
	f.add("sidecar", nil)
	link := func(name, manifest string) {
		dir := filepath.Join(t.TempDir(), name)
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, plugin.ManifestFile), []byte(manifest), 0o644)
		plan, err := plugin.Preview(f.store, dir, plugin.InstallOptions{Link: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := plugin.Install(f.store, f.layout, plan); err != nil {
			t.Fatal(err)
		}
	}
	link("skills-only", `{"apiVersion":"reasonix.io/plugin/v2","name":"skills-only","version":"1.0.0","contributes":{"hooks":{"Stop":[{"command":"true"}]}}}`)
	link("old", `{"name":"old","version":"1","skills":"skills"}`)
	rt := f.runtime()
	if _, err := rt.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := status(rt, "sidecar"); st.State != host.StateActive {
		t.Fatalf("sidecar: %+v", st)
	}
	if st := status(rt, "skills-only"); st.State != host.StateReady || st.Failure != "" {
		t.Fatalf("package: %+v", st)
	}
	if st := status(rt, "old"); st.State != host.StateFailed || !strings.Contains(st.Failure, "plugin migrate old --to-v2") {
		t.Fatalf("legacy linked: %+v", st)
	}
	if _, ok := rt.Current().Manifest("skills-only"); ok {
		t.Fatal("a package without runtime has a sidecar manifest in the generation")
	}
}
