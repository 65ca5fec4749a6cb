package proc

import (
	"os/exec"
	"runtime"
	"sync"
)

// Linux delivers a parent-death signal (Attr's Pdeathsig, the reaper's
// SIGTERM) when the THREAD that forked the child exits, not the process
// (prctl(2), PR_SET_PDEATHSIG: "the parent thread"). A Go program's threads
// are the runtime's: one exits whenever a goroutine locked to it
// (runtime.LockOSThread) returns without unlocking, and any goroutine of the
// process may lock the thread an earlier spawn happened to run on. A
// plugin would then be killed while its host runs on. So children are
// forked by one goroutine that locks its thread: no other goroutine runs on
// that thread, and it ends only when the spawner does, which is once every
// child it forked was reaped and forgotten (nothing is left for a
// parent-death signal to reach; the next spawn starts a new spawner). While
// children live, their parent-death signal means exactly "the host died".
// Forks are serialized by syscall.ForkLock anyway: the one thread costs no
// parallelism.
var spawner spawnerState

type spawnerState struct {
	mu   sync.Mutex
	reqs chan spawnReq // nil while no spawner runs
	live map[int]bool  // children it forked, not yet forgotten
}

type spawnReq struct {
	cmd  *exec.Cmd
	done chan error
}

// startCmd starts cmd (already in its own process group through Attr) on
// the spawner's thread.
func startCmd(cmd *exec.Cmd) error {
	spawner.mu.Lock()
	if spawner.reqs == nil {
		spawner.reqs = make(chan spawnReq)
		spawner.live = map[int]bool{}
		go spawnLoop(spawner.reqs)
	}
	reqs := spawner.reqs
	// Held across the start: forgetJob cannot end the spawner between
	// this request and the child it makes.
	defer spawner.mu.Unlock()
	done := make(chan error, 1)
	reqs <- spawnReq{cmd, done}
	if err := <-done; err != nil {
		spawner.idleLocked()
		return err
	}
	spawner.live[cmd.Process.Pid] = true
	return nil
}

// forgetJob: process groups need no handle closed, but the spawner may
// end once none of its children is left.
func forgetJob(pid int) {
	spawner.mu.Lock()
	defer spawner.mu.Unlock()
	delete(spawner.live, pid)
	spawner.idleLocked()
}

// idleLocked ends the spawner when it has no child left (mu held).
func (s *spawnerState) idleLocked() {
	if s.reqs != nil && len(s.live) == 0 {
		close(s.reqs)
		s.reqs = nil
	}
}

// spawnLoop serves starts until reqs is closed, on its own locked thread.
// It returns still locked, so the runtime ends the thread with it: no
// child of that thread is alive by then (see spawner).
func spawnLoop(reqs <-chan spawnReq) {
	runtime.LockOSThread()
	for r := range reqs {
		r.done <- r.cmd.Start()
	}
}
