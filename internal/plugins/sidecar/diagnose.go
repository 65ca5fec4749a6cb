package sidecar

import (
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// Stage names where a start failed.
type Stage string

// Start stages, in order.
const (
	StageResolve   Stage = "resolve"
	StageSpawn     Stage = "spawn"
	StageHandshake Stage = "handshake"
	// StageNotStarted: never spawned, the generation's start budget ran
	// out while other plugins used it.
	StageNotStarted Stage = "not started"
)

// StartError explains why a sidecar did not start, with everything a user
// needs to act on it. All plugin-provided text in it is redacted.
type StartError struct {
	Plugin     string
	Stage      Stage
	Command    string
	File       FileFacts
	Elapsed    time.Duration
	StderrTail string // redacted
	StdoutLine string // redacted first non-JSON line on stdout, if any
	Err        error
}

// FileFacts says what is at the command path.
type FileFacts struct {
	Exists     bool
	Executable bool
	// Kind is "ELF x86-64", "script (#!/usr/bin/env python3)", "directory", …
	Kind string
	// ForThisMachine is false for a binary built for another OS or CPU.
	ForThisMachine bool
}

func (e *StartError) Error() string {
	if e.Stage == StageNotStarted {
		return fmt.Sprintf("start %s: %v", e.Plugin, e.Err)
	}
	msg := fmt.Sprintf("start %s: %s stage: %v", e.Plugin, e.Stage, e.Err)
	if e.StdoutLine != "" {
		msg += fmt.Sprintf(" (stdout had a non-JSON line: %q)", e.StdoutLine)
	}
	return msg
}

func (e *StartError) Unwrap() error { return e.Err }

// Report renders the diagnostics as the multi-line text the plugin manager
// and `plugin doctor` show.
func (e *StartError) Report() string {
	var b strings.Builder
	fmt.Fprintf(&b, "plugin %s failed to start\n", e.Plugin)
	fmt.Fprintf(&b, "  stage:      %s\n", e.Stage)
	fmt.Fprintf(&b, "  error:      %s\n", redact.String(fmt.Sprint(e.Err)))
	fmt.Fprintf(&b, "  command:    %s\n", redact.String(e.Command))
	if e.Command != "" {
		fmt.Fprintf(&b, "  exists:     %t\n", e.File.Exists)
		if e.File.Exists {
			fmt.Fprintf(&b, "  executable: %t\n", e.File.Executable)
			fmt.Fprintf(&b, "  file:       %s", e.File.Kind)
			if !e.File.ForThisMachine {
				fmt.Fprintf(&b, " (not runnable on %s/%s)", runtime.GOOS, runtime.GOARCH)
			}
			b.WriteString("\n")
		}
	}
	fmt.Fprintf(&b, "  elapsed:    %s\n", e.Elapsed.Round(time.Millisecond))
	if e.StdoutLine != "" {
		fmt.Fprintf(&b, "  stdout:     %q (not a JSON-RPC frame: stdout is reserved for the protocol)\n", e.StdoutLine)
	}
	if e.StderrTail != "" {
		b.WriteString("  stderr tail:\n")
		for _, line := range strings.Split(strings.TrimRight(e.StderrTail, "\n"), "\n") {
			b.WriteString("    " + line + "\n")
		}
	}
	return b.String()
}

// inspectFile gathers FileFacts for a command path.
func inspectFile(path string) FileFacts {
	st, err := os.Stat(path)
	if err != nil {
		return FileFacts{}
	}
	_, runnable := proc.Executable(path)
	f := FileFacts{Exists: true, Executable: runnable}
	if st.IsDir() {
		f.Kind, f.Executable = "directory", false
		return f
	}
	fh, err := os.Open(path)
	if err != nil {
		f.Kind = "unreadable: " + err.Error()
		return f
	}
	defer fh.Close()
	head := make([]byte, 256)
	n, _ := io.ReadFull(fh, head)
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, []byte("#!")):
		line, _, _ := bytes.Cut(head[2:], []byte("\n"))
		f.Kind = fmt.Sprintf("script (#!%s)", strings.TrimSpace(string(line)))
		f.ForThisMachine = true
	case bytes.HasPrefix(head, []byte("\x7fELF")):
		ef, err := elf.NewFile(fh)
		if err != nil {
			f.Kind = "ELF (unreadable header)"
			return f
		}
		f.Kind = "ELF " + ef.Machine.String()
		f.ForThisMachine = runtime.GOOS == "linux" && machineMatches(ef.Machine)
	default:
		f.Kind = "not a binary or a #! script"
	}
	return f
}

func machineMatches(m elf.Machine) bool {
	switch runtime.GOARCH {
	case "amd64":
		return m == elf.EM_X86_64
	case "arm64":
		return m == elf.EM_AARCH64
	case "386":
		return m == elf.EM_386
	case "arm":
		return m == elf.EM_ARM
	case "riscv64":
		return m == elf.EM_RISCV
	}
	return true
}

// errNonJSONStdout marks a sidecar that printed something that is not a frame.
var errNonJSONStdout = errors.New("sidecar wrote a non-JSON line to stdout")
