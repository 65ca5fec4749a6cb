package plugin

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
)

// Installing from where plugins live: a git URL, or the owner/repo
// shorthand of a GitHub repository, is cloned (git CLI, --depth 1) into a
// staging folder of the data directory; the clone then goes through the same
// preview and FULL TRUST block as a folder, and the record keeps the URL and
// commit so `plugin update` can fetch it again.

// StagingDir holds clones waiting for the user's authorization.
func (l Layout) StagingDir() string { return filepath.Join(l.Root, "staging") }

// stagingMaxAge is how long an unused clone is kept: a preview nobody
// authorized is removed at the next clone after that.
const stagingMaxAge = time.Hour

// A clone has a deadline: a server that accepts and then says nothing
// kept git (and its staging folder) waiting forever. cloneTimeout bounds
// the whole clone; over HTTP git also gives up when less than
// lowSpeedLimit bytes a second arrive for lowSpeedTime. ssh is left as the
// user configured it (GIT_SSH_COMMAND would override their core.sshCommand):
// the overall deadline bounds it.
var cloneTimeout = 5 * time.Minute

const (
	lowSpeedLimit = "1000" // bytes a second
	lowSpeedTime  = "30"   // seconds
)

// Clone fetches the repository source names (any form ParseSource reads:
// GitURL's answer, a recorded origin) into a new folder under the staging
// folder, at its ref, and returns the package's folder in it (the
// repository's root or its subfolder) with the commit it is at. A branch
// or tag is cloned at depth 1; a commit is fetched and checked out. The
// .git folder is removed: the install copies a plain folder. git's own
// output is returned in the error.
func Clone(ctx context.Context, layout Layout, source string) (dir, commit string, err error) {
	src, err := ParseSource(source)
	if err != nil {
		return "", "", err
	}
	if !src.IsGit() {
		return "", "", fmt.Errorf("%s is a folder, not a repository to clone", source)
	}
	url := src.URL
	if _, err := exec.LookPath("git"); err != nil {
		return "", "", fmt.Errorf("install from %s needs git on PATH: %w", url, err)
	}
	if err := os.MkdirAll(layout.StagingDir(), 0o700); err != nil {
		return "", "", err
	}
	removeStale(layout.StagingDir())
	parent, err := os.MkdirTemp(layout.StagingDir(), "clone-")
	if err != nil {
		return "", "", err
	}
	root := filepath.Join(parent, "src")
	fail := func(err error) (string, string, error) {
		os.RemoveAll(parent)
		return "", "", err
	}
	ctx, cancel := context.WithTimeout(ctx, cloneTimeout)
	defer cancel()
	if src.treeRest != "" {
		src.Ref, src.Subdir = resolveTreeRef(ctx, url, src.treeRest)
	}
	if out, err := cloneAt(ctx, url, src.Ref, root); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return fail(fmt.Errorf("git clone %s: no complete answer within %s; gave up (the staging folder is removed): %s", url, cloneTimeout, out))
		}
		return fail(fmt.Errorf("git clone %s: %w: %s", url, err, out))
	}
	out, err := git(ctx, root, "rev-parse", "HEAD")
	if err != nil {
		return fail(fmt.Errorf("git rev-parse in the clone of %s: %w: %s", url, err, out))
	}
	if err := os.RemoveAll(filepath.Join(root, ".git")); err != nil {
		return fail(err)
	}
	dir = root
	if src.Subdir != "" {
		dir = filepath.Join(root, filepath.FromSlash(src.Subdir))
		fi, err := os.Lstat(dir)
		switch {
		case err != nil:
			return fail(fmt.Errorf("%s has no folder %s at %s: %w", url, src.Subdir, refName(src.Ref), err))
		case !fi.IsDir():
			return fail(fmt.Errorf("%s: %s at %s is not a folder", url, src.Subdir, refName(src.Ref)))
		}
		// A folder reached through a link could lead out of the clone.
		if r, err := filepath.EvalSymlinks(dir); err != nil || !within(resolvedOrSelf(root), r) {
			return fail(fmt.Errorf("%s: %s leaves the repository", url, src.Subdir))
		}
	}
	return dir, strings.TrimSpace(out), nil
}

func refName(ref string) string {
	if ref == "" {
		return "the default branch"
	}
	return ref
}

// commitRE is a commit id, full or abbreviated.
var commitRE = regexp.MustCompile(`^[0-9a-fA-F]{7,64}$`)

// cloneAt clones url into dir at ref: the default branch, a branch or a
// tag at depth 1; a commit (which clone --branch cannot take) with the
// history, then checked out.
func cloneAt(ctx context.Context, url, ref, dir string) (string, error) {
	switch {
	case ref == "":
		return git(ctx, "", "clone", "--depth", "1", "--quiet", "--", url, dir)
	case commitRE.MatchString(ref):
		if out, err := git(ctx, "", "clone", "--no-checkout", "--quiet", "--", url, dir); err != nil {
			return out, err
		}
		return git(ctx, dir, "checkout", "--quiet", "--detach", ref)
	default:
		return git(ctx, "", "clone", "--depth", "1", "--quiet", "--branch", ref, "--", url, dir)
	}
}

// resolveTreeRef splits what follows /tree/ in a GitHub URL into the ref
// and the folder: the longest leading part that names a branch or tag of
// the repository (feature/x/plugins/y is branch feature/x when it exists),
// else the first segment, GitHub's own reading when refs cannot be listed.
func resolveTreeRef(ctx context.Context, url, rest string) (ref, sub string) {
	parts := strings.Split(rest, "/")
	ref, sub = parts[0], strings.Join(parts[1:], "/")
	if len(parts) == 1 || len(ref) == 40 && commitRE.MatchString(ref) {
		return ref, sub // a full commit id names no branch: no need to ask
	}
	out, err := gitCapped(ctx, "", 4<<20, "ls-remote", "--heads", "--tags", "--", url)
	if err != nil {
		return ref, sub
	}
	refs := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		name := strings.TrimSuffix(f[1], "^{}")
		name = strings.TrimPrefix(strings.TrimPrefix(name, "refs/heads/"), "refs/tags/")
		refs[name] = true
	}
	for i := len(parts); i >= 1; i-- {
		if cand := strings.Join(parts[:i], "/"); refs[cand] {
			return cand, strings.Join(parts[i:], "/")
		}
	}
	return ref, sub
}

// DiscardClone removes a staged clone (after its install, or when the
// preview was dismissed). Anything outside the staging folder is left alone.
func DiscardClone(layout Layout, dir string) {
	// dir may be a folder deep in the clone (a package in a subfolder):
	// the whole staged clone goes, the folder directly under staging.
	rel, err := filepath.Rel(filepath.Clean(layout.StagingDir()), filepath.Clean(dir))
	if err != nil || rel == "." || !within(layout.StagingDir(), dir) {
		return
	}
	top := strings.Split(rel, string(filepath.Separator))[0]
	os.RemoveAll(filepath.Join(layout.StagingDir(), top))
}

func removeStale(staging string) {
	entries, _ := os.ReadDir(staging)
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > stagingMaxAge {
			os.RemoveAll(filepath.Join(staging, e.Name()))
		}
	}
}

// git runs git without a terminal prompt (a private repository fails
// instead of waiting for a password nobody can type), in its own process
// group: a cancelled clone kills git and the git-remote-http helper it
// started, which would otherwise hold the output pipe and the connection
// open (killing git alone leaves it waiting on a silent server).
func git(ctx context.Context, dir string, args ...string) (string, error) {
	return gitCapped(ctx, dir, 2048, args...)
}

// gitCapped is git keeping up to limit bytes of its output (a repository's
// ref list is longer than an error message).
func gitCapped(ctx context.Context, dir string, limit int, args ...string) (string, error) {
	path, err := exec.LookPath("git")
	if err != nil {
		return "", err
	}
	env := append(os.Environ(), "GIT_TERMINAL_PROMPT=0",
		"GIT_HTTP_LOW_SPEED_LIMIT="+lowSpeedLimit, "GIT_HTTP_LOW_SPEED_TIME="+lowSpeedTime)
	res, err := proc.Run(ctx, proc.Spec{Path: path, Args: args, Dir: dir, Env: env, Combined: true, OutputCap: limit})
	if err == nil {
		err = res.Exit
	}
	if errors.Is(ctx.Err(), context.Canceled) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		err = ctx.Err()
	}
	s := strings.TrimSpace(string(res.Stdout))
	if res.Truncated {
		s += "…"
	}
	return s, err
}
