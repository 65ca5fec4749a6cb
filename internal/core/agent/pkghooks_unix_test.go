//go:build unix

package agent_test

import "syscall"

var syscallZero = syscall.Signal(0)
