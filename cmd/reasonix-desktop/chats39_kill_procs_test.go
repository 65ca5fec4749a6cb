package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
)

// The kill test's view of processes (Linux /proc): what of a killed app
// still lives.

// lockedBuffer is a child's stderr, read after it ended.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// watchdogTokenOf is the watchdog mark in the environment of the host's
// plugin processes ("" when none carries one).
func watchdogTokenOf(procs map[int]string) string {
	for pid := range procs {
		env, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		for _, kv := range strings.Split(string(env), "\x00") {
			if v, ok := strings.CutPrefix(kv, proc.TokenVar+"="); ok {
				return v
			}
		}
	}
	return ""
}

// procsWithEnv lists live processes whose environment holds the line kv.
func procsWithEnv(kv string) []int {
	var out []int
	envs, _ := filepath.Glob("/proc/[0-9]*/environ")
	for _, f := range envs {
		b, err := os.ReadFile(f)
		if err != nil || !bytes.Contains(b, []byte(kv)) {
			continue
		}
		for _, line := range bytes.Split(b, []byte{0}) {
			if string(line) == kv {
				pid, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(f, "/proc/"), "/environ"))
				if !zombie(pid) {
					out = append(out, pid)
				}
				break
			}
		}
	}
	return out
}

// childrenWithArg lists the children of pid with arg on their command line.
func childrenWithArg(pid int, arg string) []int {
	var out []int
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		for _, field := range strings.Fields(string(b)) {
			child, err := strconv.Atoi(field)
			if err != nil {
				continue
			}
			cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", child))
			if bytes.Contains(cmdline, []byte(arg)) {
				out = append(out, child)
			}
		}
	}
	return out
}

// waitGoneOf polls until none of pids lives, up to limit, and returns those
// still alive (as waitGone, the processes are not the test's children).
func waitGoneOf(pids []int, limit time.Duration) []int {
	deadline := time.Now().Add(limit)
	for {
		live := alive(pids)
		if len(live) == 0 || time.Now().After(deadline) {
			return live
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// alive keeps the pids that are still running (not zombies).
func alive(pids []int) []int {
	var out []int
	for _, p := range pids {
		if syscall.Kill(p, 0) == nil && !zombie(p) {
			out = append(out, p)
		}
	}
	return out
}

func zombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true // gone
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z")
}

func uniq(pids []int) []int {
	seen := map[int]bool{}
	var out []int
	for _, p := range pids {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

func describeProcs(pids []int) string {
	parts := make([]string, 0, len(pids))
	for _, p := range pids {
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
		state := "?"
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) {
			state = string(stat[i+2])
		}
		wchan, _ := os.ReadFile(fmt.Sprintf("/proc/%d/wchan", p))
		parts = append(parts, fmt.Sprintf("%d [%s %s] %s", p, state, wchan, truncate(strings.ReplaceAll(string(cmdline), "\x00", " "), 80)))
	}
	return strings.Join(parts, "; ")
}
