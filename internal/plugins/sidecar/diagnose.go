package sidecar

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
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
	// 4 KiB reaches a PE header's signature wherever a linker put it.
	head := make([]byte, 4096)
	n, _ := io.ReadFull(fh, head)
	head = head[:n]
	if kind, goos, arch, ok := binaryFormat(head); ok {
		f.Kind = kind
		f.ForThisMachine = goos == runtime.GOOS && (arch == "" || arch == runtime.GOARCH)
		return f
	}
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

// binaryFormat names a Windows (PE) or macOS (Mach-O) executable from its
// first bytes and says which OS and CPU it is for (arch "" is any: a
// universal Mach-O). ok is false for anything else. Without it every .exe
// read as "not a binary", so on Windows a start that failed for any reason
// was reported as a command that is not runnable.
func binaryFormat(head []byte) (kind, goos, arch string, ok bool) {
	if len(head) >= 0x40 && string(head[:2]) == "MZ" {
		at := int(binary.LittleEndian.Uint32(head[0x3c:]))
		if at < 0x40 || at+6 > len(head) || string(head[at:at+4]) != "PE\x00\x00" {
			return "", "", "", false
		}
		machine := binary.LittleEndian.Uint16(head[at+4:])
		arch, name := peMachine(machine)
		return "PE " + name, "windows", arch, true
	}
	if len(head) >= 8 {
		switch binary.LittleEndian.Uint32(head) {
		case 0xfeedfacf, 0xfeedface:
			cpu := binary.LittleEndian.Uint32(head[4:])
			arch, name := machOCPU(cpu)
			return "Mach-O " + name, "darwin", arch, true
		}
		if binary.BigEndian.Uint32(head) == 0xcafebabe && binary.BigEndian.Uint32(head[4:]) < 32 {
			// A fat binary's count of architectures is small; a Java class
			// file shares the magic and has a version number (45 or more) there.
			return "Mach-O universal", "darwin", "", true
		}
	}
	return "", "", "", false
}

func peMachine(m uint16) (arch, name string) {
	switch m {
	case 0x8664:
		return "amd64", "x86-64"
	case 0xaa64:
		return "arm64", "ARM64"
	case 0x14c:
		return "386", "i386"
	}
	return fmt.Sprintf("machine 0x%x", m), fmt.Sprintf("machine 0x%x", m)
}

func machOCPU(c uint32) (arch, name string) {
	switch c {
	case 0x01000007:
		return "amd64", "x86-64"
	case 0x0100000c:
		return "arm64", "ARM64"
	}
	return fmt.Sprintf("cpu 0x%x", c), fmt.Sprintf("cpu 0x%x", c)
}
