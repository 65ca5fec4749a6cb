package hook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// spawned is what running one hook left, before a verdict. Its output is
// as the hook wrote it: a verdict reads the data (a FormatBus revise must
// reach the call as written); what is shown is redacted (runOne).
type spawned struct {
	code           int
	stdout, stderr string
	timedOut       bool
	truncated      bool
	err            error // it could not run (or ctx ended it)
	signal         error // a signal ended it (code -1, err nil)
}

// spec builds the process of h: the shell form when h has no Argv, the
// exec form otherwise.
func spec(h Resolved, stdin []byte) proc.Spec {
	s := proc.Spec{Dir: h.Cwd, Env: environ(h.Env), Stdin: bytes.NewReader(stdin),
		Timeout: h.Timeout, OutputCap: OutputCap}
	if h.Argv != nil {
		s.Path, s.Args = h.Command, h.Argv
		return s
	}
	s.Path, s.Args, s.CmdLine = shellInvocation(h.Shell, h.Command)
	return s
}

// shellInvocation is the process that runs a command line: sh -c by
// default, cmd.exe on Windows (with a raw command line: `/s /c "<line>"`
// hands the line to cmd as written, quotes included), or the shell the
// entry names.
func shellInvocation(shell, line string) (path string, args []string, cmdLine string) {
	switch shell {
	case "bash":
		return "bash", []string{"-c", line}, ""
	case "powershell", "pwsh":
		exe := shell
		if shell == "powershell" && runtime.GOOS != "windows" {
			exe = "pwsh"
		}
		return exe, []string{"-NoProfile", "-NonInteractive", "-Command", line}, ""
	case "cmd":
		return cmdInvocation(line)
	}
	if runtime.GOOS == "windows" {
		return cmdInvocation(line)
	}
	return "/bin/sh", []string{"-c", line}, ""
}

func cmdInvocation(line string) (string, []string, string) {
	exe := os.Getenv("ComSpec")
	if exe == "" {
		exe = "cmd.exe"
	}
	args := []string{"/d", "/s", "/c", line}
	return exe, args, `"` + exe + `" /d /s /c "` + line + `"`
}

// environ is the host's environment with the hook's added (sorted, so a
// run is reproducible).
func environ(extra map[string]string) []string {
	env := os.Environ()
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+extra[k])
	}
	return env
}

// spawn runs h with stdin, to its end or its timeout (the whole process
// tree is killed then), or reads its context file.
func spawn(ctx context.Context, h Resolved, stdin []byte) spawned {
	if h.ContextFile != "" {
		return readContext(h.Root, h.ContextFile)
	}
	res, err := proc.Run(ctx, spec(h, stdin))
	s := spawned{code: res.ExitCode, truncated: res.Truncated, stdout: string(res.Stdout), stderr: string(res.Stderr)}
	switch {
	case errors.Is(err, proc.ErrTimeout):
		s.timedOut = true
	case err != nil:
		s.err = err
	case res.ExitCode < 0:
		s.signal = res.Exit
	}
	return s
}

// readContext takes a context file as the hook's stdout. It is opened
// inside the package (plugin.PackageFS): a file that is, or becomes after
// the load checked it, a link out of the package is refused, naming it.
func readContext(root, path string) spawned {
	pkg, err := plugin.OpenPackageFS(root)
	if err != nil {
		return spawned{code: -1, err: fmt.Errorf("context file %s: %w", path, err)}
	}
	defer pkg.Close()
	f, err := pkg.Open(path)
	if err != nil {
		return spawned{code: -1, err: fmt.Errorf("context file: %w", err)}
	}
	defer f.Close()
	buf := make([]byte, OutputCap+1)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return spawned{code: -1, err: fmt.Errorf("context file %s: %w", path, err)}
	}
	text := strings.ToValidUTF8(string(buf[:min(n, OutputCap)]), "\uFFFD")
	return spawned{code: 0, stdout: text, truncated: n > OutputCap}
}
