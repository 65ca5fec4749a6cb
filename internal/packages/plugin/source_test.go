package plugin

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseSource(t *testing.T) {
	for _, tc := range []struct {
		in                     string
		spec, url, ref, subdir string
		err                    string
	}{
		// The real plugin guide's form: read as a folder "git:github.com" before.
		{in: "git:github.com/obra/superpowers", spec: "git:github.com/obra/superpowers", url: "https://github.com/obra/superpowers"},
		{in: "git:github.com/obra/superpowers@v1.2", spec: "git:github.com/obra/superpowers@v1.2", url: "https://github.com/obra/superpowers", ref: "v1.2"},
		{in: "git:gitlab.example.com/group/sub/repo@main", spec: "git:gitlab.example.com/group/sub/repo@main", url: "https://gitlab.example.com/group/sub/repo", ref: "main"},
		{in: "git:/srv/repos/r.git", spec: "git:/srv/repos/r.git", url: "file:///srv/repos/r.git"},
		{in: "git:https://example.com/r.git", spec: "git:https://example.com/r.git", url: "https://example.com/r.git"},
		// A GitHub folder page: handed to git clone unchanged before.
		{in: "https://github.com/anthropics/claude-code/tree/main/plugins/hookify", spec: "https://github.com/anthropics/claude-code/tree/main/plugins/hookify",
			url: "https://github.com/anthropics/claude-code", ref: "main", subdir: "plugins/hookify"},
		{in: "https://github.com/o/r/tree/v2", spec: "https://github.com/o/r/tree/v2", url: "https://github.com/o/r", ref: "v2"},
		{in: "https://gitlab.com/g/sub/r/-/tree/main/plugins/x", spec: "https://gitlab.com/g/sub/r/-/tree/main/plugins/x",
			url: "https://gitlab.com/g/sub/r", ref: "main", subdir: "plugins/x"},
		{in: "github.com/o/r/tree/main/plugins/x", spec: "github.com/o/r/tree/main/plugins/x", url: "https://github.com/o/r", ref: "main", subdir: "plugins/x"},
		{in: "codeberg.org/o/r", spec: "codeberg.org/o/r", url: "https://codeberg.org/o/r"},
		{in: "owner/repo", spec: "https://github.com/owner/repo", url: "https://github.com/owner/repo"},
		{in: "owner/repo.git@dev", spec: "https://github.com/owner/repo#ref=dev", url: "https://github.com/owner/repo", ref: "dev"},
		{in: "https://gitlab.com/a/b.git", spec: "https://gitlab.com/a/b.git", url: "https://gitlab.com/a/b.git"},
		{in: "git@github.com:a/b.git", spec: "git@github.com:a/b.git", url: "git@github.com:a/b.git"},
		{in: "file:///srv/m.git#ref=v1&path=plugins/x", spec: "file:///srv/m.git#ref=v1&path=plugins/x", url: "file:///srv/m.git", ref: "v1", subdir: "plugins/x"},
		{in: "git:github.com/onlyowner", err: "git: takes <host>/<owner>/<repo>"},
		{in: "file:///srv/m.git#path=../up", err: "must be relative and stay inside"},
		{in: "file:///srv/m.git#branch=x", err: `the fragment names "branch"; it takes ref, path and plugin`},
		{in: "a/b/c", err: "is not a folder here"},
		{in: "  ", err: "no install source"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			s, err := ParseSource(tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Spec != tc.spec || s.URL != tc.url || s.Ref != tc.ref || s.Subdir != tc.subdir || s.Dir != "" {
				t.Fatalf("got %+v", s)
			}
			// The recorded spec reads back as the same source.
			again, err := ParseSource(s.Spec)
			if err != nil || again.URL != s.URL || again.Ref != s.Ref || again.Subdir != s.Subdir {
				t.Fatalf("spec %q reads back as %+v (%v)", s.Spec, again, err)
			}
		})
	}
}

// gitRun runs git in dir with a fixed identity and no user configuration.
func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func writeFiles(t *testing.T, root string, files map[string]string) { writeFilesB(t, root, files) }

func writeFilesB(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// twoVersionRepo is a repository whose plugins/one is version 1.0.0 at tag
// v1 and 2.0.0 on main, with a branch feature/x; it returns the work tree,
// the bare clone and v1's commit.
func twoVersionRepo(t *testing.T) (work, bare, v1 string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	work = filepath.Join(t.TempDir(), "work")
	writeFiles(t, work, map[string]string{"plugins/one/reasonix-plugin.json": `{"apiVersion":"reasonix.io/plugin/v2","name":"one","version":"1.0.0"}`,
		"README.md": "a repository of plugins\n"})
	gitRun(t, work, "init", "-q", "-b", "main")
	gitRun(t, work, "add", "-A")
	gitRun(t, work, "commit", "-qm", "one 1.0.0")
	gitRun(t, work, "tag", "v1")
	v1 = gitRun(t, work, "rev-parse", "HEAD")
	gitRun(t, work, "branch", "feature/x")
	writeFiles(t, work, map[string]string{"plugins/one/reasonix-plugin.json": `{"apiVersion":"reasonix.io/plugin/v2","name":"one","version":"2.0.0"}`})
	gitRun(t, work, "commit", "-qam", "one 2.0.0")
	bare = filepath.Join(t.TempDir(), "plugins.git")
	gitRun(t, work, "clone", "-q", "--bare", work, bare)
	return work, bare, v1
}

func TestCloneAtRefAndSubfolder(t *testing.T) {
	_, bare, v1 := twoVersionRepo(t)
	_, layout := newStore(t)
	u := fileURL(bare)
	for _, tc := range []struct{ spec, version string }{
		{u + "#path=plugins/one", "2.0.0"},
		{u + "#ref=v1&path=plugins/one", "1.0.0"},              // a tag
		{u + "#ref=feature/x&path=plugins/one", "1.0.0"},       // a branch with a '/'
		{u + "#ref=" + v1[:12] + "&path=plugins/one", "1.0.0"}, // a commit (clone --branch cannot take it)
	} {
		t.Run(tc.spec[len(u):], func(t *testing.T) {
			dir, commit, err := Clone(context.Background(), layout, tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			defer DiscardClone(layout, dir)
			if filepath.Base(dir) != "one" || len(commit) != 40 {
				t.Fatalf("dir %s commit %q", dir, commit)
			}
			pkg, err := LoadPackage(dir)
			if err != nil || pkg.Version != tc.version {
				t.Fatalf("package %+v: %v", pkg, err)
			}
		})
	}
	// The whole staged clone goes with its subfolder.
	if entries, _ := os.ReadDir(layout.StagingDir()); len(entries) != 0 {
		t.Fatalf("staging keeps %v", entries)
	}
	if _, _, err := Clone(context.Background(), layout, u+"#path=plugins/none"); err == nil || !strings.Contains(err.Error(), "has no folder plugins/none at the default branch") {
		t.Fatalf("missing folder: %v", err)
	}
	if entries, _ := os.ReadDir(layout.StagingDir()); len(entries) != 0 {
		t.Fatalf("a failed clone left %v", entries)
	}
}

// A GitHub /tree/ URL's ref may hold '/': the repository's refs decide where
// the ref ends and the folder begins.
func TestTreeRefResolvedByTheRepositorysRefs(t *testing.T) {
	_, bare, v1 := twoVersionRepo(t)
	for _, tc := range []struct{ rest, ref, sub string }{
		{v1 + "/plugins/one", v1, "plugins/one"}, // a pinned commit, as market entries write it
		{"feature/x/plugins/one", "feature/x", "plugins/one"},
		{"main/plugins/one", "main", "plugins/one"},
		{"v1/plugins", "v1", "plugins"},
		{"nosuch/plugins/one", "nosuch", "plugins/one"}, // GitHub's reading when no ref matches
	} {
		ref, sub := resolveTreeRef(context.Background(), fileURL(bare), tc.rest)
		if ref != tc.ref || sub != tc.sub {
			t.Errorf("resolveTreeRef(%q) = %q, %q; want %q, %q", tc.rest, ref, sub, tc.ref, tc.sub)
		}
	}
}

// A bare repository, or a work tree's .git folder, given as a path is
// cloned (it was read as a folder: "no reasonix-plugin.json … found"); a
// work tree is a folder.
func TestRepositoryFolderIsCloned(t *testing.T) {
	work, bare, _ := twoVersionRepo(t)
	store, layout := newStore(t)
	for _, p := range []string{bare, filepath.Join(work, ".git")} {
		spec, ok := GitURL(p)
		if !ok || spec != fileURL(p) {
			t.Fatalf("GitURL(%s) = %q %v", p, spec, ok)
		}
	}
	if _, ok := GitURL(work); ok {
		t.Fatal("a work tree was taken for a repository")
	}
	spec, _ := GitURL(bare)
	dir, commit, err := Clone(context.Background(), layout, spec+"#path=plugins/one")
	if err != nil {
		t.Fatal(err)
	}
	defer DiscardClone(layout, dir)
	plan, err := Preview(store, dir, InstallOptions{Origin: spec + "#path=plugins/one", Commit: commit})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := Install(store, layout, plan)
	if err != nil || rec.Source != spec+"#path=plugins/one" || rec.Version != "2.0.0" {
		t.Fatalf("record %+v: %v", rec, err)
	}
}

func TestSourceWithSubdir(t *testing.T) {
	s, _ := ParseSource("git:github.com/o/r@v1")
	sub, err := s.WithSubdir("./plugins/x")
	if err != nil || sub.Spec != "https://github.com/o/r#ref=v1&path=plugins%2Fx" {
		t.Fatalf("%+v %v", sub, err)
	}
	if _, err := s.WithSubdir("../x"); err == nil {
		t.Fatal("a folder above the repository was accepted")
	}
	local := Source{Dir: "/m"}
	if d, _ := local.WithSubdir("plugins/x"); d.Dir != filepath.Join("/m", "plugins", "x") || d.IsGit() {
		t.Fatalf("local %+v", d)
	}
}

// githubMirror makes https://github.com/<owner>/<repo> resolve, for git, to
// the local bare repositories under the returned folder (git's own
// url.insteadOf, through a global config only this test's processes read),
// so the GitHub forms are cloned as written without the network.
func githubMirror(t *testing.T) string {
	t.Helper()
	mirror := t.TempDir()
	cfg := filepath.Join(t.TempDir(), "gitconfig")
	body := "[url \"" + fileURL(mirror) + "/\"]\n\tinsteadOf = https://github.com/\n"
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", cfg)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	return mirror
}

// The GitHub forms of the guide and of READMEs, each cloned as written and
// each recorded so that cloning the record again gives the same folder.
func TestGitHubFormsClone(t *testing.T) {
	_, bare, v1 := twoVersionRepo(t)
	mirror := githubMirror(t)
	if err := os.MkdirAll(filepath.Join(mirror, "acme"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(bare, filepath.Join(mirror, "acme", "plugins")); err != nil {
		t.Fatal(err)
	}
	_, layout := newStore(t)
	for _, tc := range []struct{ source, version, base string }{
		{"https://github.com/acme/plugins/tree/main/plugins/one", "2.0.0", "one"},
		{"https://github.com/acme/plugins/tree/feature/x/plugins/one", "1.0.0", "one"},
		{"https://github.com/acme/plugins/tree/v1/plugins/one/", "1.0.0", "one"},
		{"https://github.com/acme/plugins/tree/" + v1 + "/plugins/one", "1.0.0", "one"},
		{"git:github.com/acme/plugins@v1#path=plugins/one", "1.0.0", "one"},
		{"acme/plugins@v1#path=plugins/one", "1.0.0", "one"},
		{"git:github.com/acme/plugins", "", "src"},
	} {
		t.Run(tc.source, func(t *testing.T) {
			spec, ok := GitURL(tc.source)
			if !ok {
				t.Fatalf("GitURL(%q) is not a repository", tc.source)
			}
			dir, _, err := Clone(context.Background(), layout, spec)
			if err != nil {
				t.Fatal(err)
			}
			defer DiscardClone(layout, dir)
			if filepath.Base(dir) != tc.base {
				t.Fatalf("dir %s", dir)
			}
			if tc.version == "" {
				if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
					t.Fatal("the repository root was not cloned")
				}
				return
			}
			if pkg, err := LoadPackage(dir); err != nil || pkg.Version != tc.version {
				t.Fatalf("package %+v: %v", pkg, err)
			}
		})
	}
}

// A file:// URL of a folder that is no repository is the folder (git would
// refuse to clone it); of a repository, a clone.
func TestFileURLOfAFolder(t *testing.T) {
	dir := fixture(t, "marketplace")
	src, err := ParseSource(fileURL(dir) + "#path=plugins/hookify")
	if err != nil || src.IsGit() || src.Dir != filepath.Join(dir, "plugins", "hookify") {
		t.Fatalf("%+v %v", src, err)
	}
	if _, ok := GitURL(fileURL(dir)); ok {
		t.Fatal("a plain folder's URL was taken for a repository")
	}
	store, _ := newStore(t)
	plan, err := Preview(store, fileURL(dir)+"#path=plugins/hookify", InstallOptions{})
	if err != nil || plan.Name != "hookify" || plan.Source != filepath.Join(resolvedOrSelf(dir), "plugins", "hookify") {
		t.Fatalf("preview of a folder's URL: %+v %v", plan, err)
	}
	if _, err := ParseSource(fileURL(dir) + "#ref=main"); err == nil || !strings.Contains(err.Error(), "it has no ref") {
		t.Fatalf("a ref on a folder: %v", err)
	}
	work, bare, _ := twoVersionRepo(t)
	for _, p := range []string{work, bare} {
		if s, err := ParseSource(fileURL(p)); err != nil || !s.IsGit() {
			t.Errorf("%s: %+v %v", p, s, err)
		}
	}
}
