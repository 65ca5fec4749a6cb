package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// installedGitAndLegacyDir is e's plugin store with gitpkg installed from
// a local git repository (url; push commits a new version to it) and a
// folder holding a legacy manifest named "old", not installed.
func installedGitAndLegacyDir(t *testing.T, e *env) (store *agent.Plugins, url string, push func(string), legacy string) {
	t.Helper()
	store, err := agent.OpenPlugins(e.layout)
	if err != nil {
		t.Fatal(err)
	}
	url, push = testutil.GitRepo(t)
	pv, err := store.PreviewInstallFrom(context.Background(), agent.InstallRequest{Source: url})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Install(pv); err != nil {
		t.Fatal(err)
	}
	legacy = t.TempDir()
	if err := os.WriteFile(filepath.Join(legacy, agent.ManifestFile), []byte(`{"name": "old", "version": "0.1.0"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return store, url, push, legacy
}

// Origin tells the plugin manager which upkeep a plugin has: Update for a
// git clone, Migrate for a linked legacy manifest, neither for a folder.
func TestPluginOrigin(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	store, url, _, legacy := installedGitAndLegacyDir(t, e)
	folder := t.TempDir()
	if err := os.WriteFile(filepath.Join(folder, agent.ManifestFile),
		[]byte(`{"apiVersion": "reasonix.io/plugin/v2", "name": "plain", "version": "0.1.0"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, req := range []agent.InstallRequest{{Source: legacy, Link: true}, {Source: folder}} {
		pv, err := store.PreviewInstall(req)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := store.Install(pv); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name                 string
		git, linked, legacy  bool
		source, incompatible string
	}{
		{"gitpkg", true, false, false, url, ""},
		{"old", false, true, true, legacy, "plugin migrate old --to-v2"},
		{"plain", false, false, false, folder, ""},
	} {
		o, err := store.Origin(tc.name)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if o.Git != tc.git || o.Linked != tc.linked || o.Legacy != tc.legacy || o.Source != tc.source {
			t.Errorf("%s: origin %+v", tc.name, o)
		}
		if tc.incompatible == "" && o.Incompatible != "" || !strings.Contains(o.Incompatible, tc.incompatible) {
			t.Errorf("%s: incompatible %q, want %q", tc.name, o.Incompatible, tc.incompatible)
		}
		if tc.git && len(o.Commit) != 40 {
			t.Errorf("%s: commit %q", tc.name, o.Commit)
		}
	}
	if o, _ := store.Origin("old"); o.Backup != filepath.Join(legacy, agent.ManifestFile+".bak") {
		t.Errorf("backup at %q", o.Backup)
	}
	if _, err := store.Origin("missing"); err == nil || !strings.Contains(err.Error(), `"missing" is not installed`) {
		t.Errorf("origin of a missing plugin: %v", err)
	}
	// Migrated, the linked plugin loads: no longer legacy, nor incompatible.
	if _, err := store.Migrate("old"); err != nil {
		t.Fatal(err)
	}
	if o, err := store.Origin("old"); err != nil || o.Legacy || o.Incompatible != "" {
		t.Errorf("after migrate: %+v, %v", o, err)
	}
}

// The core's update and migrate, as the plugin manager calls them: the
// preview of an update names what it replaces and stages a clone that the
// install consumes (or DiscardPluginPreview drops); a migration reloads, so
// the plugin runs at once.
func TestCoreUpdateAndMigrate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	store, _, push, legacy := installedGitAndLegacyDir(t, e)
	lpv, err := store.PreviewInstall(agent.InstallRequest{Source: legacy, Link: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Install(lpv); err != nil {
		t.Fatal(err)
	}
	c := e.open(t, &recorder{})
	staged := func() int {
		left, _ := os.ReadDir(e.layout.StagingDir())
		return len(left)
	}
	push("1.1.0")

	// Dropped: nothing stays staged, nothing changes.
	pv, err := c.PreviewPluginUpdate(ctx, "gitpkg")
	if err != nil || pv.Version != "1.1.0" || pv.Replaces != "gitpkg 1.0.0" || !strings.Contains(pv.Text, "FULL TRUST") || staged() != 1 {
		t.Fatalf("update preview %+v, %v (%d staged)", pv, err, staged())
	}
	c.DiscardPluginPreview(pv)
	if staged() != 0 {
		t.Error("a discarded preview left its clone")
	}
	// Installed: the new version runs.
	if pv, err = c.PreviewPluginUpdate(ctx, "gitpkg"); err != nil {
		t.Fatal(err)
	}
	if rec, err := c.InstallPlugin(ctx, pv); err != nil || rec.Version != "1.1.0" || rec.Commit != pv.Commit {
		t.Fatalf("install of the update: %+v, %v", rec, err)
	}
	if p, _ := pluginByName(c, "gitpkg"); p.Version != "1.1.0" || staged() != 0 {
		t.Errorf("after the update: %+v (%d staged)", p, staged())
	}
	// A linked folder has nothing to fetch; a cancelled fetch stages nothing.
	if _, err := c.PreviewPluginUpdate(ctx, "old"); err == nil || !strings.Contains(err.Error(), "nothing to fetch") {
		t.Errorf("update of a linked plugin: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.PreviewPluginUpdate(cancelled, "gitpkg"); err == nil || staged() != 0 {
		t.Errorf("a cancelled fetch: %v (%d staged)", err, staged())
	}

	if p, _ := pluginByName(c, "old"); p.State != agent.PluginFailed || !strings.Contains(p.Failure, "disabled_incompatible") {
		t.Fatalf("a linked legacy plugin before migrating: %+v", p)
	}
	text, err := c.MigratePlugin(ctx, "old")
	if err != nil || !strings.Contains(text, `"apiVersion": "reasonix.io/plugin/v2"`) {
		t.Fatalf("migrate: %q, %v", text, err)
	}
	if p, _ := pluginByName(c, "old"); p.State != "Ready" || p.Failure != "" {
		t.Errorf("after migrating: %+v", p)
	}
	if _, err := c.MigratePlugin(ctx, "old"); err == nil || !strings.Contains(err.Error(), "already") {
		t.Errorf("a second migration: %v", err)
	}
	if o, err := c.PluginOrigin("old"); err != nil || o.Legacy || o.Incompatible != "" {
		t.Errorf("origin after migrating: %+v, %v", o, err)
	}
}
