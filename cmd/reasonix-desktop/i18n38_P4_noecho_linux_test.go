package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// openPTY opens a pseudo-terminal pair: what the program writes to slave
// (its terminal) is read from master, what is written to master it reads.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		t.Skipf("unlock the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		t.Skipf("name the pseudo-terminal: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("open the pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { m.Close(); s.Close() })
	return m, s
}

// A key typed at connect's prompt on a terminal is not shown: the echo is
// off while it is read (the terminal shows only the prompt), and on again
// when the command ends.
func TestConnectKeyTypedOnATerminalIsNotShown(t *testing.T) {
	fake := newDeepseekServer(t)
	h := newHost(t)
	master, slave := openPTY(t)
	cmd := h.command("provider", "connect", "deepseek", "--base-url", fake.srv.URL)
	cmd.Env = append(cmd.Env, agent.BundledDirEnv+"="+filepath.Dir(testutil.ExamplePlugin(t, "openai-provider")))
	var stdout strings.Builder
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, &stdout, slave
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}

	var (
		mu     sync.Mutex
		screen strings.Builder
	)
	prompted := make(chan struct{})
	go func() { // the terminal's screen: everything the program and the echo wrote
		buf := make([]byte, 4096)
		once := sync.OnceFunc(func() { close(prompted) })
		for {
			n, err := master.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			seen := strings.Contains(screen.String(), "API key for DeepSeek")
			mu.Unlock()
			if seen {
				once()
			}
			if err != nil {
				return
			}
		}
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var err error
	select {
	case <-prompted:
		if _, err := master.Write([]byte(deepseekKey + "\n")); err != nil {
			t.Fatal(err)
		}
		err = <-exited
	case err = <-exited: // ended without asking: the checks below say how
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	mu.Lock()
	shown := screen.String()
	mu.Unlock()
	if err != nil || !strings.Contains(stdout.String(), "2 models found") {
		t.Fatalf("connect: %v\n%s\nterminal:\n%s", err, stdout.String(), shown)
	}
	if strings.Contains(shown, deepseekKey) || strings.Contains(shown, deepseekKey[:12]) {
		t.Errorf("the key was shown on the terminal:\n%q", shown)
	}
	tio, err := unix.IoctlGetTermios(int(slave.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if tio.Lflag&unix.ECHO == 0 {
		t.Error("the terminal's echo was left off")
	}
}
