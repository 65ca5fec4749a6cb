package proc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// ReapCommand is the hidden first argument that makes the host binary a
// one-shot run's reaper (see runReaper): `<host> __reasonix-reap <path>
// <args>...`. It is served from this package's init, before main, so no
// command-line parsing of the host's sees it.
const ReapCommand = "__reasonix-reap"

// reapStatusFD is the reaper's fd 3: it writes why the command could not
// start there, or closes it once the command runs.
const reapStatusFD = 3

func init() {
	if len(os.Args) >= 3 && os.Args[1] == ReapCommand {
		os.Exit(runReaper(os.Args[2], os.Args[3:]))
	}
}

// reaperPath is the binary that serves ReapCommand: the host's, as the
// watchdog is (EnableWatchdog); "" runs one-shot commands without it.
func reaperPath() string {
	wd.mu.Lock()
	defer wd.mu.Unlock()
	if wd.broken {
		return ""
	}
	return wd.path
}

// withReaper makes cmd (built, not started) run under the reaper: the
// reaper is the process started, in the group, and it starts the command.
// It returns the read end of the reaper's status pipe (the caller passes
// it to awaitReaper once started), or nil when cmd runs as it is.
func withReaper(cmd *exec.Cmd) (*os.File, error) {
	self := reaperPath()
	if self == "" || cmd.Err != nil {
		return nil, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("reaper status pipe: %w", err)
	}
	cmd.Args = append([]string{self, ReapCommand, cmd.Path}, cmd.Args[1:]...)
	cmd.Path = self
	cmd.ExtraFiles = []*os.File{w}
	// No parent-death SIGKILL for the reaper: when the host dies it must
	// live to kill its tree (it gets SIGTERM for that, see runReaper), and
	// the watchdog finds everything under it.
	cmd.SysProcAttr.Pdeathsig = syscall.SIGTERM
	return r, nil
}

// awaitReaper reads the reaper's status: EOF once the command started, or
// the reason it could not, which is Start's error.
func awaitReaper(cmd *exec.Cmd, r *os.File) error {
	_ = cmd.ExtraFiles[0].Close() // the reaper has its copy
	b, err := io.ReadAll(io.LimitReader(r, 4096))
	_ = r.Close()
	if err != nil {
		return fmt.Errorf("start %s: reaper status: %w", cmd.Args[2], err)
	}
	if len(b) > 0 {
		return fmt.Errorf("start %s: %s", cmd.Args[2], b)
	}
	return nil
}

// runReaper is the reaper: it becomes the child subreaper of what it
// starts, so every process the command leaves behind, even one that
// called setsid and cleared its environment, is re-parented to it rather
// than to init. When the command exits it kills all of them, then exits
// as the command did (the same code, or the same signal). When the host
// dies (its parent-death SIGTERM) it kills its whole tree at once.
func runReaper(path string, args []string) int {
	status := os.NewFile(reapStatusFD, "reaper-status")
	syscall.CloseOnExec(reapStatusFD) // the command must not hold it
	fail := func(err error) int {
		if status != nil {
			_, _ = fmt.Fprint(status, err)
		}
		return 127
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fail(fmt.Errorf("become a subreaper: %w", err))
	}
	hostGone := make(chan os.Signal, 1)
	signal.Notify(hostGone, syscall.SIGTERM)
	signal.Ignore(syscall.SIGINT, syscall.SIGHUP, syscall.SIGPIPE)
	cmd := exec.Command(path, args...)
	cmd.Env = execEnviron()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// Same group as the reaper (the host's kill of the group is the
	// command's); a parent-death signal in case the reaper is killed.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return fail(err)
	}
	if status != nil {
		_ = status.Close()
	}
	self := os.Getpid()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var err error
	select {
	case err = <-waited:
	case <-hostGone:
		killTree([]int{self}, self)
		err = <-waited
	}
	reapAll(self)
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			// End as the command ended, so the host sees the same signal.
			signal.Reset(ws.Signal())
			_ = syscall.Kill(self, ws.Signal())
			return 128 + int(ws.Signal()) // a signal that does not end a process
		}
		return exit.ExitCode()
	}
	if err != nil {
		return 127
	}
	return 0
}

// reapAll kills every process under self (the command's leftovers, all
// re-parented to the subreaper by now or by the time their parents die)
// and reaps them, until self has no child left.
func reapAll(self int) {
	for {
		if killTree([]int{self}, self) == 0 && !hasChildren(self) {
			return
		}
		var ws syscall.WaitStatus
		if _, err := syscall.Wait4(-1, &ws, 0, nil); errors.Is(err, syscall.ECHILD) {
			return
		}
	}
}

// hasChildren: some process (a zombie too) has self as its parent.
func hasChildren(self int) bool {
	for _, e := range procTable() {
		if e.ppid == self {
			return true
		}
	}
	return false
}

// execEnviron is the environment the reaper was started with, as the
// kernel keeps it: the host binary's package inits (Fyne's locale fix, see
// envlocale) may have changed os.Environ since, and the command must get
// exactly the run's environment.
func execEnviron() []string {
	b, err := os.ReadFile("/proc/self/environ")
	if err != nil {
		return os.Environ()
	}
	var env []string
	for kv := range strings.SplitSeq(string(b), "\x00") {
		if kv != "" {
			env = append(env, kv)
		}
	}
	return env
}
