package proc

import (
	"encoding/json"
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

// ReapCommand is the hidden argument that makes the host binary a child's
// reaper (see runReaper): `<host> __reasonix-reap`, the command to run read
// from its fd 3. It is served from this package's init, before main, so no
// command-line parsing of the host's sees it.
const ReapCommand = "__reasonix-reap"

// The reaper's extra files: it reads the command (a JSON array: path, then
// arguments) from fd 3 to EOF, and writes why the command could not start
// to fd 4, or closes it once the command runs. The command is not in the
// reaper's own arguments, so only the command's process shows it.
const (
	reapArgvFD   = 3
	reapStatusFD = 4
)

func init() {
	if len(os.Args) == 2 && os.Args[1] == ReapCommand {
		os.Exit(runReaper())
	}
}

// reaperPath is the host binary's name, set with the watchdog
// (EnableWatchdog); "" runs children without the reaper. A watchdog that
// could not start does not stop the reaper: it cleans up at its own
// parent-death signal.
func reaperPath() string {
	wd.mu.Lock()
	defer wd.mu.Unlock()
	return wd.path
}

// reaperLink is the host's side of one reaper's start.
type reaperLink struct {
	argv           []byte   // the command, JSON
	name           string   // the command's path, for errors
	argvW, statusR *os.File // the host's ends
	child          []*os.File
}

// withReaper makes cmd (built, not started) run under the reaper: the
// reaper is the process started, in the group, and it starts the command.
// It returns the link the caller passes to awaitReaper once started (or
// closes if the start failed), or nil when cmd runs as it is.
func withReaper(cmd *exec.Cmd) (*reaperLink, error) {
	self := reaperPath()
	if self == "" || cmd.Err != nil {
		return nil, nil
	}
	argv, err := json.Marshal(append([]string{cmd.Path}, cmd.Args[1:]...))
	if err != nil {
		return nil, fmt.Errorf("reaper for %s: %w", cmd.Path, err)
	}
	argvR, argvW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("reaper for %s: %w", cmd.Path, err)
	}
	statusR, statusW, err := os.Pipe()
	if err != nil {
		_, _ = argvR.Close(), argvW.Close()
		return nil, fmt.Errorf("reaper for %s: %w", cmd.Path, err)
	}
	link := &reaperLink{argv: argv, name: cmd.Path, argvW: argvW, statusR: statusR, child: []*os.File{argvR, statusW}}
	// This very binary serves ReapCommand (this package's init), and
	// /proc/self/exe is it even once its file was replaced or removed (an
	// upgrade while the host runs): the reaper always speaks this host's
	// protocol. The name shown is the host's.
	cmd.Path, cmd.Args = "/proc/self/exe", []string{self, ReapCommand}
	cmd.ExtraFiles = link.child // fds 3 and 4
	// No parent-death SIGKILL for the reaper: when the host dies it must
	// live to kill its tree (it gets SIGTERM for that, see runReaper), and
	// the watchdog finds everything under it.
	cmd.SysProcAttr.Pdeathsig = syscall.SIGTERM
	return link, nil
}

// close closes every end (the start failed).
func (l *reaperLink) close() {
	for _, f := range append(l.child, l.argvW, l.statusR) {
		_ = f.Close()
	}
}

// awaitReaper hands the started reaper its command and reads its status:
// EOF once the command started, or the reason it could not, which is
// Start's error.
func awaitReaper(l *reaperLink) error {
	for _, f := range l.child {
		_ = f.Close() // the reaper has its copies
	}
	_, werr := l.argvW.Write(l.argv)
	_ = l.argvW.Close()
	b, err := io.ReadAll(io.LimitReader(l.statusR, 4096))
	_ = l.statusR.Close()
	switch {
	case len(b) > 0:
		return fmt.Errorf("start %s: %s", l.name, b)
	case werr != nil:
		return fmt.Errorf("start %s: handing it to the reaper: %w", l.name, werr)
	case err != nil:
		return fmt.Errorf("start %s: reaper status: %w", l.name, err)
	}
	return nil
}

// runReaper is the reaper: it becomes the child subreaper of what it
// starts, so every process the command leaves behind, even one that
// called setsid and cleared its environment, is re-parented to it rather
// than to init. When the command exits it kills all of them, then exits
// as the command did (the same code, or the same signal). When the host
// dies (its parent-death SIGTERM) it kills its whole tree at once.
func runReaper() int {
	// The command must hold neither file.
	syscall.CloseOnExec(reapArgvFD)
	syscall.CloseOnExec(reapStatusFD)
	status := os.NewFile(reapStatusFD, "reaper-status")
	fail := func(err error) int {
		if status != nil {
			_, _ = fmt.Fprint(status, err)
		}
		return 127
	}
	var argv []string
	if in := os.NewFile(reapArgvFD, "reaper-argv"); in == nil {
		return fail(errors.New("no command on fd 3"))
	} else if err := json.NewDecoder(in).Decode(&argv); err != nil || len(argv) == 0 {
		return fail(fmt.Errorf("reading the command from fd 3: %v", err))
	} else {
		_ = in.Close()
	}
	path, args := argv[0], argv[1:]
	// A kernel or sandbox that refuses it leaves the reaper a plain
	// parent: the command still runs, its tree is still killed by parent
	// links while it runs, only orphans are lost to init.
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	// Caught, not ignored: an ignored signal stays ignored in the command
	// across exec, a caught one is back to its default there.
	hostGone := make(chan os.Signal, 1)
	signal.Notify(hostGone, syscall.SIGTERM)
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
	// The command has its stdio; the reaper's copies would keep the host's
	// pipes open past the command's end.
	if null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0); err == nil {
		for fd := range 3 {
			_ = unix.Dup3(int(null.Fd()), fd, 0)
		}
		_ = null.Close()
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
