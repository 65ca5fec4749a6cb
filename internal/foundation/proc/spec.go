package proc

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Spec says what to run. Spawn and Run both start it in its own process
// group, registered with the watchdog, in exec form (never through a shell
// the Spec does not name itself).
type Spec struct {
	Path string   // the executable
	Args []string // after the program name
	// Env is the child's whole environment; nil means the host's. The
	// watchdog's mark (TokenVar) is added to it.
	Env []string
	Dir string // working directory; "" is the host's
	// CmdLine, on Windows only, is the whole command line handed to
	// CreateProcess instead of one quoted from Path and Args: cmd.exe
	// parses its own line with rules Go's argument quoting does not follow
	// (a hook's `cmd.exe /d /s /c "<command>"`). Ignored elsewhere.
	CmdLine string

	// Log receives the child's stderr lines, redacted (Spawn only); nil
	// discards them. StderrLevel is their level (the zero value is Info).
	Log         *slog.Logger
	StderrLevel slog.Level
	// TailBytes sizes the stderr ring of a spawned child (0: TailBytes).
	TailBytes int

	// Run only: Stdin is written to the child's stdin, then closed (nil:
	// an empty stdin). Timeout bounds the whole run (0: only ctx does).
	// OutputCap is kept of each of stdout and stderr (0: DefaultOutputCap);
	// the rest is read and dropped. Combined sends stderr to stdout's pipe,
	// in the order written.
	Stdin     io.Reader
	Timeout   time.Duration
	OutputCap int
	Combined  bool
}

// Timing of the end of a child.
const (
	// DrainWait bounds reading what a child wrote after it exited and its
	// group was killed: a descendant that left the group (setsid) may still
	// hold the pipes.
	DrainWait = time.Second
	// DefaultOutputCap is how much of each output stream Run keeps.
	DefaultOutputCap = 64 << 10
)

// ErrTimeout is a Run that used its Spec.Timeout; the child's group was
// killed.
var ErrTimeout = errors.New("timed out")

// group is one started child's process group. Its number is only killed
// while it is registered: once forgotten it may name someone else's group.
// kill and forget may be called from any goroutine.
type group struct {
	pid       int
	reaper    bool // the leader is the reaper (see runReaper)
	mu        sync.Mutex
	forgotten bool
}

// killTree SIGKILLs everything under the leader, whatever group or session
// it moved to (Linux: parent links; see killTree), then the whole group,
// unless the group was forgotten. A stop before the leader exits uses it.
// A reaper leader is spared: it reaps what was killed (killed with it, its
// children would be re-parented to init, which may leave them zombies)
// and then exits as its killed command did; kill ends a reaper that does
// not.
func (g *group) killTree() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.forgotten {
		return
	}
	if g.reaper {
		killTree([]int{g.pid}, g.pid)
		return
	}
	killTree([]int{g.pid}, os.Getpid())
	KillGroup(g.pid)
}

// kill SIGKILLs the whole group unless it was forgotten.
func (g *group) kill() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.forgotten {
		KillGroup(g.pid)
	}
}

// forget kills what the reaped leader left in its group and unregisters the
// group from the watchdog. Call it once the leader was reaped.
func (g *group) forget() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.forgotten {
		return
	}
	KillGroup(g.pid)
	Forget(g.pid)
	g.forgotten = true
}

// pipes makes os.Pipe pairs and closes them all on a failure, or the
// child's ends once it started.
type pipes struct{ parent, child []*os.File }

// pipe returns (read, write); toChild says which end the child gets: the
// read end for its stdin, the write end for its output.
func (p *pipes) pipe(toChild bool) (r, w *os.File, err error) {
	r, w, err = os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("pipe: %w", err)
	}
	if toChild {
		p.child, p.parent = append(p.child, r), append(p.parent, w)
	} else {
		p.child, p.parent = append(p.child, w), append(p.parent, r)
	}
	return r, w, nil
}

func (p *pipes) closeChild() {
	for _, f := range p.child {
		_ = f.Close()
	}
}

func (p *pipes) closeAll() {
	p.closeChild()
	for _, f := range p.parent {
		_ = f.Close()
	}
}

// start runs the Spec's command with the given stdio through Start (own
// group, watchdog). The files are os.Pipe ends (or nil for /dev/null), so
// cmd.Wait only waits for the process: a descendant holding a pipe cannot
// wedge the reap.
// The command starts under the reaper where there is one (Linux, with
// the watchdog enabled): see runReaper.
func (s Spec) start(stdin, stdout, stderr *os.File) (*exec.Cmd, *group, error) {
	if s.Path == "" {
		return nil, nil, errors.New("start: no command")
	}
	cmd := exec.Command(s.Path, s.Args...)
	cmd.Env, cmd.Dir = s.Env, s.Dir
	// Typed nil files would be taken for real ones.
	if stdin != nil {
		cmd.Stdin = stdin
	}
	if stdout != nil {
		cmd.Stdout = stdout
	}
	if stderr != nil {
		cmd.Stderr = stderr
	}
	cmd.SysProcAttr = Attr()
	setCmdLine(cmd.SysProcAttr, s.CmdLine)
	link, err := withReaper(cmd)
	if err != nil {
		return nil, nil, err
	}
	if err := Start(cmd); err != nil {
		if link != nil {
			link.close()
			return nil, nil, fmt.Errorf("start %s (under the reaper): %w", link.name, err)
		}
		return nil, nil, err
	}
	if link != nil {
		if err := awaitReaper(link); err != nil {
			_ = cmd.Wait() // the reaper exits at once; its group is its own
			KillGroup(cmd.Process.Pid)
			Forget(cmd.Process.Pid)
			return nil, nil, err
		}
	}
	return cmd, &group{pid: cmd.Process.Pid, reaper: link != nil}, nil
}
