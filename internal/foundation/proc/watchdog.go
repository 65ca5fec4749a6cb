package proc

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// WatchdogCommand is the hidden subcommand that runs ServeWatchdog.
const WatchdogCommand = "__reasonix-watchdog"

// tellTimeout bounds one registration write to the watchdog.
const tellTimeout = time.Second

// The process-wide watchdog client: configured once by the host's main,
// started on the first Start that needs it.
var wd struct {
	mu      sync.Mutex
	path    string
	args    []string
	env     []string
	started bool
	broken  bool // the watchdog could not start or its pipe failed
	w       *os.File
	pid     int
	token   string
	log     *slog.Logger
}

// EnableWatchdog says how to run the watchdog: path re-executed with args
// (and env, nil for the host's environment). Nothing runs until the first
// plugin process starts. Without it, Start only relies on the process group
// and the parent-death signal.
func EnableWatchdog(path string, args, env []string, log *slog.Logger) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	wd.mu.Lock()
	defer wd.mu.Unlock()
	wd.path, wd.args, wd.env, wd.log = path, args, env, log
}

// WatchdogPID is the watchdog's pid, 0 while none runs.
func WatchdogPID() int {
	wd.mu.Lock()
	defer wd.mu.Unlock()
	return wd.pid
}

// startWatchdogLocked starts the watchdog once; a failure is logged and
// leaves the host with the parent-death signal only.
func startWatchdogLocked() {
	if wd.started || wd.path == "" || !watchdogNeeded {
		return
	}
	wd.started = true
	r, w, err := os.Pipe()
	if err != nil {
		wd.broken = true
		wd.log.Warn("watchdog not started", "error", err)
		return
	}
	cmd := exec.Command(wd.path, wd.args...)
	cmd.Env = wd.env
	cmd.Stdin = r // its only input: EOF means the host is gone
	cmd.SysProcAttr = watchdogAttr()
	err = cmd.Start()
	_ = r.Close()
	if err != nil {
		_ = w.Close()
		wd.broken = true
		wd.log.Warn("watchdog not started", "error", err)
		return
	}
	wd.w, wd.pid = w, cmd.Process.Pid
	// Reap it whenever it ends (with the host's pipe closed, or killed).
	go func() { _ = cmd.Wait() }()
	// The mark every plugin process carries in its environment, so the
	// watchdog also finds descendants that left the group (setsid).
	wd.token = newToken()
	if _, err := fmt.Fprintf(w, "t%s\n", wd.token); err != nil {
		wd.broken = true
		wd.log.Warn("watchdog gone: plugin processes rely on the parent-death signal only", "error", err)
	}
}

func newToken() string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return strconv.Itoa(os.Getpid())
	}
	return hex.EncodeToString(b[:])
}

// TokenVar names the environment variable that marks a plugin process and
// everything it starts, for the watchdog.
const TokenVar = "REASONIX_WATCHDOG_TOKEN"

// watchdogToken starts the watchdog if it is enabled and returns the mark
// for the child's environment ("" without a watchdog).
func watchdogToken() string {
	wd.mu.Lock()
	defer wd.mu.Unlock()
	startWatchdogLocked()
	if wd.broken {
		return ""
	}
	return wd.token
}

// tell sends one registration line; a failed write leaves the watchdog
// broken (logged once), never the spawn.
func tell(op byte, pid int) {
	wd.mu.Lock()
	defer wd.mu.Unlock()
	if op == '+' {
		startWatchdogLocked()
	}
	if wd.w == nil || wd.broken {
		return
	}
	// Bounded: a watchdog that stopped reading must not hold every spawn.
	_ = wd.w.SetWriteDeadline(time.Now().Add(tellTimeout))
	if _, err := fmt.Fprintf(wd.w, "%c%d\n", op, pid); err != nil {
		wd.broken = true
		wd.log.Warn("watchdog gone: plugin processes rely on the parent-death signal only", "error", err)
	}
}

// Start starts cmd in its own process group (Attr unless cmd already has a
// SysProcAttr) and registers the group with the watchdog. Forget it once
// the process was reaped and its group killed.
func Start(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = Attr()
	}
	if token := watchdogToken(); token != "" {
		env := cmd.Env
		if env == nil {
			env = os.Environ()
		}
		cmd.Env = append(env[:len(env):len(env)], TokenVar+"="+token)
	}
	if err := startCmd(cmd); err != nil {
		return fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	tell('+', cmd.Process.Pid)
	return nil
}

// Forget unregisters a group that is gone (after KillGroup and the reap),
// so the watchdog never kills a later group that reuses the number.
func Forget(pid int) {
	if pid > 0 {
		tell('-', pid)
		forgetJob(pid)
	}
}

// RunWatchdog is the hidden subcommand: the watchdog serves its stdin,
// ignoring the polite signals, since only the end of its input (the host's
// end) may end it.
func RunWatchdog() {
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	ServeWatchdog(os.Stdin)
}

// ServeWatchdog reads registrations from r until EOF (the host died or
// exited), then SIGKILLs every group still registered and returns how many
// it killed. Where the system lists processes' environments (Linux), it
// also kills every process still carrying the host's mark: descendants that
// left their group with setsid.
func ServeWatchdog(r io.Reader) int {
	groups := map[int]bool{}
	token := ""
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if len(line) < 2 {
			continue
		}
		if line[0] == 't' {
			token = line[1:]
			continue
		}
		pid, err := strconv.Atoi(line[1:])
		if err != nil || pid <= 0 {
			continue
		}
		switch line[0] {
		case '+':
			groups[pid] = true
		case '-':
			delete(groups, pid)
		}
	}
	// First everything under each leader (Linux), wherever it moved: a
	// one-shot run's reaper has every orphan of its run as a child, and a
	// sidecar's descendants that called setsid are still under it.
	leaders := make([]int, 0, len(groups))
	for pid := range groups {
		leaders = append(leaders, pid)
	}
	killTree(leaders, os.Getpid())
	for pid := range groups {
		KillGroup(pid)
	}
	if token != "" {
		killMarked(TokenVar + "=" + token)
	}
	return len(groups)
}
