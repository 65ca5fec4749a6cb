//go:build windows

package shell

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// resolveShell follows the real host: a real bash (Git for Windows) when
// one is installed, so the model's POSIX habits work; else PowerShell 7
// (pwsh), else Windows PowerShell. The bash.exe under %SystemRoot% is WSL's
// launcher, which runs in another file system: never that one.
func resolveShell() shell {
	if p, err := exec.LookPath("bash"); err == nil && !underSystemRoot(p) {
		return shell{kind: posix, path: p}
	}
	for _, p := range gitBashCandidates() {
		if isFile(p) {
			return shell{kind: posix, path: p}
		}
	}
	for _, name := range []string{"pwsh", "powershell"} {
		if p, err := exec.LookPath(name); err == nil {
			return shell{kind: powerShell, path: p}
		}
		for _, p := range powerShellCandidates(name) {
			if isFile(p) {
				return shell{kind: powerShell, path: p}
			}
		}
	}
	return shell{kind: powerShell, path: "powershell.exe"}
}

func underSystemRoot(p string) bool {
	root := os.Getenv("SystemRoot")
	if root == "" {
		root = os.Getenv("windir")
	}
	if root == "" {
		return false
	}
	prefix := strings.ToLower(filepath.Clean(root)) + string(filepath.Separator)
	return strings.HasPrefix(strings.ToLower(filepath.Clean(p)), prefix)
}

func programRoots() []string {
	var roots []string
	for _, env := range []string{"ProgramFiles", "ProgramW6432", "ProgramFiles(x86)"} {
		if v := os.Getenv(env); v != "" {
			roots = append(roots, v)
		}
	}
	return roots
}

func gitBashCandidates() []string {
	roots := programRoots()
	if v := os.Getenv("LOCALAPPDATA"); v != "" {
		roots = append(roots, filepath.Join(v, "Programs"))
	}
	var out []string
	for _, r := range roots {
		out = append(out, filepath.Join(r, "Git", "bin", "bash.exe"), filepath.Join(r, "Git", "usr", "bin", "bash.exe"))
	}
	return out
}

func powerShellCandidates(name string) []string {
	if name == "pwsh" {
		var out []string
		for _, r := range programRoots() {
			out = append(out, filepath.Join(r, "PowerShell", "7", "pwsh.exe"))
		}
		return out
	}
	root := os.Getenv("SystemRoot")
	if root == "" {
		root = os.Getenv("windir")
	}
	if root == "" {
		return nil
	}
	return []string{filepath.Join(root, "System32", "WindowsPowerShell", "v1.0", "powershell.exe")}
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}
