package proc

import (
	"errors"
	"fmt"
	"os/exec"
	"sync"
	"unsafe"

	"golang.org/x/sys/windows"
)

// jobs maps the pid of every child started by Start to its job object, from
// Start until Forget.
var jobs struct {
	mu sync.Mutex
	m  map[int]windows.Handle
}

// startCmd starts cmd suspended, puts it in a new job object that kills
// every process in it when its last handle closes (this host's, at Forget
// or at the host's death), then lets it run. Whatever the child starts is
// in the job too, so TerminateJobObject ends the whole tree.
func startCmd(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = Attr()
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_SUSPENDED | windows.CREATE_NO_WINDOW
	cmd.SysProcAttr.HideWindow = true
	if err := cmd.Start(); err != nil {
		return err
	}
	pid := cmd.Process.Pid
	job, err := jobFor(pid)
	if err == nil {
		jobs.mu.Lock()
		if jobs.m == nil {
			jobs.m = map[int]windows.Handle{}
		}
		jobs.m[pid] = job
		jobs.mu.Unlock()
		if err = resume(pid); err != nil {
			err = fmt.Errorf("resume pid %d: %w", pid, err)
			KillGroup(pid)
			forgetJob(pid)
		}
	}
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return err
	}
	return nil
}

// jobFor makes a kill-on-close job object holding pid.
func jobFor(pid int) (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("job object: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(job)
		return 0, fmt.Errorf("job object limits: %w", err)
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		_ = windows.CloseHandle(job)
		return 0, fmt.Errorf("open pid %d: %w", pid, err)
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(job, h); err != nil {
		_ = windows.CloseHandle(job)
		return 0, fmt.Errorf("assign pid %d to its job object: %w", pid, err)
	}
	return job, nil
}

// resume resumes the threads of a process started suspended (it has one).
func resume(pid int) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("thread snapshot: %w", err)
	}
	defer windows.CloseHandle(snap)
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != uint32(pid) {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return fmt.Errorf("open thread %d: %w", te.ThreadID, err)
		}
		_, err = windows.ResumeThread(th)
		_ = windows.CloseHandle(th)
		if err != nil {
			return fmt.Errorf("resume thread %d: %w", te.ThreadID, err)
		}
		resumed++
	}
	if !errors.Is(err, windows.ERROR_NO_MORE_FILES) {
		return fmt.Errorf("list threads: %w", err)
	}
	if resumed == 0 {
		return errors.New("no thread found")
	}
	return nil
}

// KillGroup ends every process in the job of pid (the child started by
// Start and all it started) with TerminateJobObject. A pid that Start did
// not start, or that was forgotten, is left alone.
func KillGroup(pid int) {
	jobs.mu.Lock()
	job, ok := jobs.m[pid]
	jobs.mu.Unlock()
	if ok {
		_ = windows.TerminateJobObject(job, 1)
	}
}

// forgetJob closes pid's job handle: with kill-on-close, what was left in
// the job ends with it.
func forgetJob(pid int) {
	jobs.mu.Lock()
	job, ok := jobs.m[pid]
	delete(jobs.m, pid)
	jobs.mu.Unlock()
	if ok {
		_ = windows.CloseHandle(job)
	}
}

// killMarked: the job objects already hold every descendant.
func killMarked(string) {}
