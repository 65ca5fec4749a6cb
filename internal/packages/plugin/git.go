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

// shorthandRE is owner/repo (GitHub's name rules, loosely).
var shorthandRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+$`)

// GitURL tells whether source names a git repository rather than a local
// folder, and returns the URL to clone. An existing local path is always a
// folder; owner/repo becomes https://github.com/owner/repo.
func GitURL(source string) (string, bool) {
	s := strings.TrimSpace(source)
	if s == "" {
		return "", false
	}
	if _, err := os.Stat(s); err == nil {
		return "", false
	}
	for _, scheme := range []string{"https://", "http://", "ssh://", "git://", "file://"} {
		if strings.HasPrefix(s, scheme) {
			return s, true
		}
	}
	if strings.HasPrefix(s, "git@") && strings.Contains(s, ":") {
		return s, true
	}
	if shorthandRE.MatchString(s) {
		return "https://github.com/" + strings.TrimSuffix(s, ".git"), true
	}
	return "", false
}

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

// Clone fetches url (depth 1) into a new folder under the staging folder
// and returns it with the commit it is at. The .git folder is removed: the
// install copies a plain folder. git's own output is returned in the error.
func Clone(ctx context.Context, layout Layout, url string) (dir, commit string, err error) {
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
	dir = filepath.Join(parent, "src")
	ctx, cancel := context.WithTimeout(ctx, cloneTimeout)
	defer cancel()
	if out, err := git(ctx, "", "clone", "--depth", "1", "--quiet", "--", url, dir); err != nil {
		os.RemoveAll(parent)
		if errors.Is(err, context.DeadlineExceeded) {
			return "", "", fmt.Errorf("git clone %s: no complete answer within %s; gave up (the staging folder is removed): %s", url, cloneTimeout, out)
		}
		return "", "", fmt.Errorf("git clone %s: %w: %s", url, err, out)
	}
	out, err := git(ctx, dir, "rev-parse", "HEAD")
	if err != nil {
		os.RemoveAll(parent)
		return "", "", fmt.Errorf("git rev-parse in the clone of %s: %w: %s", url, err, out)
	}
	if err := os.RemoveAll(filepath.Join(dir, ".git")); err != nil {
		os.RemoveAll(parent)
		return "", "", err
	}
	return dir, strings.TrimSpace(out), nil
}

// DiscardClone removes a staged clone (after its install, or when the
// preview was dismissed). Anything outside the staging folder is left alone.
func DiscardClone(layout Layout, dir string) {
	parent := filepath.Dir(dir)
	if within(layout.StagingDir(), parent) && filepath.Clean(parent) != filepath.Clean(layout.StagingDir()) {
		os.RemoveAll(parent)
	}
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
	path, err := exec.LookPath("git")
	if err != nil {
		return "", err
	}
	env := append(os.Environ(), "GIT_TERMINAL_PROMPT=0",
		"GIT_HTTP_LOW_SPEED_LIMIT="+lowSpeedLimit, "GIT_HTTP_LOW_SPEED_TIME="+lowSpeedTime)
	res, err := proc.Run(ctx, proc.Spec{Path: path, Args: args, Dir: dir, Env: env, Combined: true, OutputCap: 2048})
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
