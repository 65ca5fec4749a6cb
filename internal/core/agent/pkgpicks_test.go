package agent_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// marketplaceRepo makes a bare repository of the store's marketplace
// fixture (shaped like anthropics/claude-code: .claude-plugin/marketplace.json
// listing ./plugins/<name>) and returns its file:// URL.
func marketplaceRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	work := filepath.Join(t.TempDir(), "marketplace")
	if err := os.CopyFS(work, os.DirFS(filepath.Join("..", "..", "packages", "plugin", "testdata", "pkgs", "marketplace"))); err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(t.TempDir(), "marketplace.git")
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-qm", "plugins"}, {"clone", "-q", "--bare", work, bare}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return "file://" + filepath.ToSlash(bare)
}

func stagedClones(t *testing.T, e *env) []string {
	t.Helper()
	entries, err := os.ReadDir(e.layout.StagingDir())
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var out []string
	for _, en := range entries {
		out = append(out, en.Name())
	}
	return out
}

// A repository whose root is a marketplace: previewed without a pick it is
// a MarketplaceError listing the plugins (the front end asks which); the
// picks are previewed from one clone, each with its compatibility report,
// installed one after the other, and the clone is removed after the last.
// A pick that cannot be installed fails the picks, naming it, and leaves no
// clone behind.
func TestMarketplacePicksInstallFromOneClone(t *testing.T) {
	t.Parallel()
	url := marketplaceRepo(t)
	e := newEnv(t)
	c := e.open(t, &recorder{})
	ctx := context.Background()

	_, err := c.PreviewPluginInstall(ctx, agent.InstallRequest{Source: url})
	var me *agent.MarketplaceError
	if !errors.As(err, &me) || strings.Join(me.Marketplace.Names(), ",") != "hookify,security-guidance,remote-one,from-npm,gone" {
		t.Fatalf("a marketplace root without a pick: %v", err)
	}
	if left := stagedClones(t, e); len(left) != 0 {
		t.Fatalf("clones left: %v", left)
	}

	if _, err := c.PreviewPluginInstallPicks(ctx, agent.InstallRequest{Source: url}, []string{"hookify", "gone"}); err == nil ||
		!strings.Contains(err.Error(), "plugin gone: ") {
		t.Fatalf("a pick that cannot be installed: %v", err)
	}
	if left := stagedClones(t, e); len(left) != 0 {
		t.Fatalf("clones left after a failed pick: %v", left)
	}

	pvs, err := c.PreviewPluginInstallPicks(ctx, agent.InstallRequest{Source: url}, []string{"hookify", "security-guidance"})
	if err != nil {
		t.Fatal(err)
	}
	if len(pvs) != 2 || pvs[0].Name != "hookify" || pvs[1].Name != "security-guidance" || pvs[0].Staged == "" ||
		pvs[0].Staged != pvs[1].Staged || !pvs[0].SharesStage || pvs[1].SharesStage {
		t.Fatalf("previews %+v", pvs)
	}
	for _, pv := range pvs {
		if !strings.Contains(pv.Text, "Compatibility: ") || pv.Compat.Grade == "" {
			t.Fatalf("%s: the preview has no compatibility report:\n%s", pv.Name, pv.Text)
		}
	}
	rec, err := c.InstallPlugin(ctx, pvs[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(rec.Source, "#path=plugins%2Fhookify") {
		t.Fatalf("the origin recorded %q is not the plugin's folder", rec.Source)
	}
	if _, err := os.Stat(pvs[1].Staged); err != nil {
		t.Fatalf("the clone went before the second install: %v", err)
	}
	if _, err := c.InstallPlugin(ctx, pvs[1]); err != nil {
		t.Fatal(err)
	}
	if left := stagedClones(t, e); len(left) != 0 {
		t.Fatalf("clones left after the last install: %v", left)
	}
	var names []string
	for _, p := range c.Plugins() {
		names = append(names, p.Name)
	}
	if j := strings.Join(names, ","); !strings.Contains(j, "hookify") || !strings.Contains(j, "security-guidance") {
		t.Fatalf("installed %v", names)
	}
}
