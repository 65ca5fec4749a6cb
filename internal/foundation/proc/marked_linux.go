package proc

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// killMarked SIGKILLs every process (but this one) whose environment holds
// the line mark. It scans a few times: a process being killed may have
// forked a moment before.
func killMarked(mark string) {
	want := []byte(mark)
	self := os.Getpid()
	for range 3 {
		found := 0
		dirs, _ := filepath.Glob("/proc/[0-9]*")
		for _, dir := range dirs {
			pid, err := strconv.Atoi(filepath.Base(dir))
			if err != nil || pid == self {
				continue
			}
			env, err := os.ReadFile(filepath.Join(dir, "environ"))
			if err != nil {
				continue
			}
			for _, kv := range bytes.Split(env, []byte{0}) {
				if bytes.Equal(kv, want) {
					_ = syscall.Kill(pid, syscall.SIGKILL)
					found++
					break
				}
			}
		}
		if found == 0 {
			return
		}
	}
}
