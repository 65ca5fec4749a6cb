//go:build !windows

package shell

import "os/exec"

// resolveShell is bash when PATH has one (the real host runs bash, and the
// model writes bash), else /bin/sh.
func resolveShell() shell {
	if p, err := exec.LookPath("bash"); err == nil {
		return shell{kind: posix, path: p}
	}
	return shell{kind: posix, path: "/bin/sh"}
}
