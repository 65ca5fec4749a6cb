package plugin

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A repository root listing its plugins in .claude-plugin/marketplace.json
// (as anthropics/claude-code does) was "no reasonix-plugin.json … found".
func TestMarketplaceRootListsItsPlugins(t *testing.T) {
	store, _ := newStore(t)
	root := fixture(t, "marketplace")
	if !IsMarketplace(root) {
		t.Fatal("not taken for a marketplace")
	}
	_, err := Preview(store, root, InstallOptions{})
	var me *MarketplaceError
	if !errors.As(err, &me) {
		t.Fatalf("preview of a marketplace root: %v", err)
	}
	if got := strings.Join(me.Marketplace.Names(), ","); got != "hookify,security-guidance,remote-one,from-npm,gone" {
		t.Fatalf("names %s", got)
	}
	text := me.Marketplace.Text()
	for _, want := range []string{"Marketplace test-plugins: 5 plugins", "hookify 0.1.0 — Rules that block or warn",
		"remote-one — Lives elsewhere (from https://github.com/example/remote-one#ref=v2)",
		"from-npm [cannot be installed: npm sources are not supported here",
		`gone [cannot be installed: its folder "./plugins/gone" does not exist]`} {
		if !strings.Contains(text, want) {
			t.Errorf("listing lacks %q:\n%s", want, text)
		}
	}
	if !strings.Contains(err.Error(), "choose which to install (--plugin NAME)") {
		t.Errorf("error %v", err)
	}
}

func TestMarketplacePickFromAFolder(t *testing.T) {
	store, layout := newStore(t)
	root := fixture(t, "marketplace")
	var names []string
	for _, name := range []string{"hookify", "Security-Guidance"} { // a name matches ignoring case
		plan, err := Preview(store, root, InstallOptions{Plugin: name})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(plan.Text, "Picked from marketplace test-plugins") || plan.Kind != PackageClaude {
			t.Fatalf("plan %+v\n%s", plan, plan.Text)
		}
		rec, err := Install(store, layout, plan)
		if err != nil {
			t.Fatal(err)
		}
		// The folder of the plugin is its origin: update reads it again.
		if want := filepath.Join(root, "plugins", rec.Name); rec.Source != want || rec.Root != layout.PluginDir(rec.Name) {
			t.Fatalf("record %+v, want source %s", rec, want)
		}
		names = append(names, rec.Name)
	}
	if strings.Join(names, ",") != "hookify,security-guidance" {
		t.Fatalf("installed %v", names)
	}
	for _, tc := range []struct{ pick, err string }{
		{"nosuch", `lists no plugin "nosuch"; it lists hookify, security-guidance, remote-one, from-npm, gone`},
		{"from-npm", "cannot be installed: npm sources are not supported here"},
		{"gone", "does not exist"},
	} {
		if _, err := Preview(store, root, InstallOptions{Plugin: tc.pick}); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("pick %s: %v", tc.pick, err)
		}
	}
	var re *RemotePluginError
	if _, err := Preview(store, root, InstallOptions{Plugin: "remote-one"}); !errors.As(err, &re) ||
		re.Source.URL != "https://github.com/example/remote-one" || re.Source.Ref != "v2" {
		t.Fatalf("remote pick: %v", err)
	}
	// --plugin on a plugin folder that is not a marketplace names the mistake.
	if _, err := Preview(store, filepath.Join(root, "plugins", "hookify"), InstallOptions{Plugin: "other", Replace: true}); err == nil ||
		!strings.Contains(err.Error(), "not a marketplace") {
		t.Fatalf("pick in a plugin: %v", err)
	}
}

// A marketplace cloned from a repository: each pick records the plugin's
// subfolder of that repository, and cloning the recorded origin again (what
// plugin update does) gives the same plugin.
func TestMarketplacePickFromARepository(t *testing.T) {
	bare := bareRepo(t, "marketplace")
	store, layout := newStore(t)
	spec, ok := GitURL(fileURL(bare))
	if !ok {
		t.Fatal("not a repository")
	}
	dir, commit, err := Clone(context.Background(), layout, spec)
	if err != nil {
		t.Fatal(err)
	}
	var recs []Record
	for _, name := range []string{"hookify", "security-guidance"} { // two picks from one staged clone
		plan, err := Preview(store, dir, InstallOptions{Plugin: name, Origin: spec, Commit: commit})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := Install(store, layout, plan)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	DiscardClone(layout, dir)
	if recs[0].Source != spec+"#path=plugins%2Fhookify" || recs[0].Commit != commit {
		t.Fatalf("record %+v", recs[0])
	}
	again, _, err := Clone(context.Background(), layout, recs[1].Source)
	if err != nil {
		t.Fatal(err)
	}
	defer DiscardClone(layout, again)
	plan, err := Preview(store, again, InstallOptions{Origin: recs[1].Source, Replace: true})
	if err != nil || plan.Name != "security-guidance" || plan.Existing == nil {
		t.Fatalf("update preview %+v: %v", plan, err)
	}
	if _, err := os.Stat(filepath.Join(again, ".claude-plugin", "plugin.json")); err != nil {
		t.Fatal(err)
	}
}

func TestMarketplaceFolderSources(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		MarketplaceFile: `{"name":"m","metadata":{"pluginRoot":"./plugins"},"plugins":[
			{"name":"a","source":"a"},{"name":"b","source":{"source":"local","path":"./plugins/b"}},{"name":"up","source":"../x"},
			{"name":"bare","source":"./plugins/bare"},
			{"name":"sub","source":{"source":"git-subdir","url":"https://example.com/r.git","path":"tools/p","sha":"0123456789abcdef"}}]}`,
		"plugins/a/.claude-plugin/plugin.json": `{"name":"a"}`,
		"plugins/b/.claude-plugin/plugin.json": `{"name":"b"}`,
		"plugins/bare/hooks/hooks.json":        `{"hooks":{}}`,
	})
	m, err := ReadMarketplace(root)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := filepath.EvalSymlinks(root)
	for i, want := range []string{filepath.Join(r, "plugins", "a"), filepath.Join(r, "plugins", "b")} {
		if m.Plugins[i].Dir != want || m.Plugins[i].Unsupported != "" {
			t.Errorf("plugin %d: %+v, want %s", i, m.Plugins[i], want)
		}
	}
	if !strings.Contains(m.Plugins[2].Unsupported, "outside the marketplace") {
		t.Errorf("../x: %+v", m.Plugins[2])
	}
	// A folder without a manifest: its entry stands for one.
	if p := m.Plugins[3]; p.Unsupported != "" || string(p.Manifest) != "{\n  \"name\": \"bare\"\n}\n" {
		t.Errorf("a folder without a manifest: %+v", p)
	}
	if s := m.Plugins[4].Remote; s.URL != "https://example.com/r.git" || s.Ref != "0123456789abcdef" || s.Subdir != "tools/p" {
		t.Errorf("git-subdir: %+v", m.Plugins[4])
	}
	// A plugin that lists itself in a marketplace is the plugin.
	writeFiles(t, root, map[string]string{ClaudeManifestFile: `{"name":"self"}`})
	if IsMarketplace(root) {
		t.Fatal("a plugin with a listing was taken for a marketplace")
	}
}

// A marketplace whose entries are the manifests (strict false, source "./",
// each listing its skills, as anthropics/skills publishes): a pick installs
// the listed skills only, the copy gets the entry as its plugin.json, and
// the record names the marketplace and the plugin so an update reads the
// listing again, from a folder and from a repository.
func TestMarketplaceEntryIsTheManifest(t *testing.T) {
	root := fixture(t, "skills-marketplace")
	store, layout := newStore(t)
	plan, err := Preview(store, root, InstallOptions{Plugin: "document-skills"})
	if err != nil {
		t.Fatal(err)
	}
	if inv := plan.Package.Inventory(); plan.Name != "document-skills" || plan.Kind != PackageClaude ||
		strings.Join(inv.Skills, ",") != "pdf,xlsx" {
		t.Fatalf("plan %s %s skills %v", plan.Name, plan.Kind, inv.Skills)
	}
	if !strings.Contains(plan.Text, "its manifest is its marketplace entry") {
		t.Errorf("preview:\n%s", plan.Text)
	}
	if _, err := Preview(store, root, InstallOptions{Plugin: "document-skills", Link: true}); err == nil || !strings.Contains(err.Error(), "cannot link") {
		t.Fatalf("link: %v", err)
	}
	rec, err := Install(store, layout, plan)
	if err != nil {
		t.Fatal(err)
	}
	if want := resolvedOrSelf(root); rec.Source != want {
		t.Fatalf("source %q, want %q", rec.Source, want)
	}
	pkg, err := LoadInstalled(layout, rec)
	if err != nil || strings.Join(pkg.Inventory().Skills, ",") != "pdf,xlsx" {
		t.Fatalf("installed %+v: %v", pkg.Inventory(), err)
	}
	// An update previews the recorded source with the plugin's name (the
	// core's PreviewUpdate does so), or names the pick in a file:// URL.
	again, err := Preview(store, rec.Source, InstallOptions{Replace: true, Name: rec.Name})
	if err != nil || again.Existing == nil || again.Name != "document-skills" {
		t.Fatalf("update: %+v %v", again, err)
	}
	again, err = Preview(store, fileURL(rec.Source)+"#plugin=document-skills", InstallOptions{Replace: true})
	if err != nil || again.Existing == nil || again.Name != "document-skills" {
		t.Fatalf("update: %+v %v", again, err)
	}

	bare := bareRepo(t, "skills-marketplace")
	spec, _ := GitURL(fileURL(bare))
	dir, commit, err := Clone(context.Background(), layout, spec)
	if err != nil {
		t.Fatal(err)
	}
	plan, err = Preview(store, dir, InstallOptions{Plugin: "example-skills", Origin: spec, Commit: commit})
	if err != nil {
		t.Fatal(err)
	}
	rec, err = Install(store, layout, plan)
	DiscardClone(layout, dir)
	if err != nil || rec.Source != spec+"#plugin=example-skills" {
		t.Fatalf("record %+v: %v", rec, err)
	}
	dir, _, err = Clone(context.Background(), layout, rec.Source)
	if err != nil {
		t.Fatal(err)
	}
	defer DiscardClone(layout, dir)
	again, err = Preview(store, dir, InstallOptions{Origin: rec.Source, Replace: true})
	if err != nil || again.Name != "example-skills" || strings.Join(again.Package.Inventory().Skills, ",") != "skill-creator" {
		t.Fatalf("update from the repository: %+v %v", again, err)
	}
}

// A Codex marketplace (.agents/plugins/marketplace.json, as 1Password's
// Codex plugin publishes one): local, url and git-subdir sources with a ref
// and a pinned sha, and a policy that may mark a plugin not installable.
func TestCodexMarketplace(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		CodexMarketplaceFile: `{"name":"codex-plugins","interface":{"displayName":"Codex Plugins"},"plugins":[
			{"name":"vault","source":{"source":"local","path":"./plugins/vault"},"policy":{"installation":"AVAILABLE","authentication":"ON_INSTALL"},"category":"Coding"},
			{"name":"recall","source":{"source":"git-subdir","url":"https://github.com/o/recall.git","path":"./plugins/recall","ref":"v1.5.3","sha":"48051ccb0049cde6497463a2d056fd81d1c2e228"},"policy":{"installation":"AVAILABLE"}},
			{"name":"hidden","source":{"source":"local","path":"./plugins/vault"},"policy":{"installation":"NOT_AVAILABLE"}}]}`,
		"plugins/vault/.codex-plugin/plugin.json": `{"name":"vault","version":"1.0.0","skills":"./skills/"}`,
		"plugins/vault/skills/unlock/SKILL.md":    "---\ndescription: Unlock a secret\n---\nAsk first.\n",
	})
	if !IsMarketplace(root) {
		t.Fatal("a Codex marketplace root was not taken for one")
	}
	store, layout := newStore(t)
	_, err := Preview(store, root, InstallOptions{})
	var me *MarketplaceError
	if !errors.As(err, &me) || me.Marketplace.Name != "codex-plugins" {
		t.Fatalf("preview: %v", err)
	}
	if p := me.Marketplace.Plugins[1].Remote; p.Ref != "48051ccb0049cde6497463a2d056fd81d1c2e228" || p.Subdir != "plugins/recall" {
		t.Errorf("git-subdir: %+v", p)
	}
	if u := me.Marketplace.Plugins[2].Unsupported; u != "the marketplace marks it not available for installation" {
		t.Errorf("policy: %q", u)
	}
	plan, err := Preview(store, root, InstallOptions{Plugin: "vault"})
	if err != nil || plan.Kind != PackageCodex || strings.Join(plan.Package.Inventory().Skills, ",") != "unlock" {
		t.Fatalf("pick: %+v %v", plan, err)
	}
	if _, err := Install(store, layout, plan); err != nil {
		t.Fatal(err)
	}
}
