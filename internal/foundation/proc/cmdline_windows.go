package proc

import "syscall"

// setCmdLine hands CreateProcess a raw command line when the Spec has one.
func setCmdLine(attr *syscall.SysProcAttr, line string) {
	if line != "" {
		attr.CmdLine = line
	}
}
