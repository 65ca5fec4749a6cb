package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// liveChat is a headless line loop the test talks to while it runs: it
// writes lines when what it waits for has been printed.
type liveChat struct {
	t      *testing.T
	stdin  io.WriteCloser
	lines  chan string
	out    []string
	exited chan error
}

// startChat starts `chat --headless --repl` with args; its standard error
// (the questions) is merged into the lines read.
func (h *host) startChat(t *testing.T, args ...string) *liveChat {
	t.Helper()
	cmd := h.command(append([]string{"chat", "--headless", "--repl", "--model", xdevEchoModel}, args...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &liveChat{t: t, stdin: stdin, lines: make(chan string, 1024), exited: make(chan error, 1)}
	go func() {
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	go func() {
		err := cmd.Wait()
		pw.Close()
		c.exited <- err
	}()
	t.Cleanup(func() { cmd.Process.Kill() })
	return c
}

func (c *liveChat) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.stdin, line+"\n"); err != nil {
		c.t.Fatalf("write %q: %v", line, err)
	}
}

// waitLine reads lines until one holds want.
func (c *liveChat) waitLine(want string) {
	c.t.Helper()
	timeout := time.After(runGuard)
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				c.t.Fatalf("the output ended before %q:\n%s", want, strings.Join(c.out, "\n"))
			}
			c.out = append(c.out, l)
			if strings.Contains(l, want) {
				return
			}
		case <-timeout:
			c.t.Fatalf("no %q within %v:\n%s", want, runGuard, strings.Join(c.out, "\n"))
		}
	}
}

// end closes the input and waits for the chat to exit with status code
// (1 when a line failed).
func (c *liveChat) end(code int) {
	c.t.Helper()
	c.stdin.Close()
	for l := range c.lines {
		c.out = append(c.out, l)
	}
	select {
	case err := <-c.exited:
		got := 0
		if ee, ok := err.(*exec.ExitError); ok {
			got = ee.ExitCode()
		} else if err != nil {
			c.t.Fatal(err)
		}
		if got != code {
			c.t.Fatalf("the chat exited %d, want %d:\n%s", got, code, strings.Join(c.out, "\n"))
		}
	case <-time.After(runGuard):
		c.t.Fatalf("the chat did not end:\n%s", strings.Join(c.out, "\n"))
	}
}

// Background jobs: run_command's run_in_background starts one, wait
// collects its output, bash_output reads a running one, kill_shell ends one
// (its process gone while the chat goes on), and a job still running when
// the chat ends dies with it.
func TestHeadlessBackgroundJobs(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	c := h.startChat(t)
	c.send(callLine("run_command", map[string]any{"command": "echo job-out", "run_in_background": true}))
	c.send("o") // the approval's answer: a line typed while a question is asked goes to it
	c.waitLine(`Tool result: Started background job "bash-1"`)
	c.send(callLine("wait", map[string]any{"job_ids": []string{"bash-1"}}))
	c.waitLine("    [bash-1 (echo job-out)] done")
	c.waitLine("    job-out")

	// startJob starts a job that writes its pid to name and sleeps; it
	// returns the pid once written.
	startJob := func(id, name string) int {
		t.Helper()
		c.send(callLine("run_command", map[string]any{"command": "echo $$ > " + name + "; exec sleep 300", "run_in_background": true}))
		c.send("o")
		c.waitLine(`Tool result: Started background job "` + id + `"`)
		var pid int
		testutil.Eventually(t, "the job writing its pid", func() bool {
			b, err := os.ReadFile(filepath.Join(h.workdir, name))
			if err != nil || !strings.HasSuffix(string(b), "\n") {
				return false
			}
			pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
			return err == nil
		})
		return pid
	}
	killed := startJob("bash-2", "killed.pid")
	c.send(callLine("bash_output", map[string]any{"job_id": "bash-2"}))
	c.waitLine("Tool result: [bash-2] running")
	c.send(callLine("kill_shell", map[string]any{"job_id": "bash-2"}))
	c.send("o")
	c.waitLine(`Tool result: Killed background job "bash-2".`)
	testutil.WaitDead(t, killed)
	c.send(callLine("bash_output", map[string]any{"job_id": "bash-2"}))
	c.waitLine("Tool result: [bash-2] killed")

	left := startJob("bash-3", "left.pid")
	c.end(0)
	testutil.WaitDead(t, left)
}

// A file changed outside the agent after its last change is named, and
// the rewind refused, until the user forces it; a code-only rewind keeps
// the conversation.
func TestHeadlessRewindRefusesAFileChangedOutside(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	h.writeFile("story.txt", []byte("one\n"))
	c := h.startChat(t)
	c.send(callLine("edit_file", map[string]any{"path": "story.txt", "old_string": "one", "new_string": "ONE"}))
	c.send("o")
	c.waitLine("Tool result: edited story.txt")
	h.writeFile("story.txt", []byte("ONE\nmine\n")) // the user's own change
	c.send("/rewind")
	c.waitLine("changed outside the agent: story.txt (needs --force)")
	c.send("/rewind 0 code")
	c.waitLine("error: rewind refused: story.txt changed outside the agent")
	h.fileIs(t, "story.txt", []byte("ONE\nmine\n"), cliResult{stdout: strings.Join(c.out, "\n")})
	c.send("/rewind 0 code --force")
	c.waitLine("rewound to message 0 (code); restored story.txt")
	c.send("/sessions") // a line whose answer follows the rewind's, so the rewind's whole answer is in c.out
	c.waitLine("(current)")
	if out := strings.Join(c.out, "\n"); strings.Contains(out, "your message is back") {
		t.Errorf("a code-only rewind gave the message back:\n%s", out)
	}
	h.fileIs(t, "story.txt", []byte("one\n"), cliResult{stdout: strings.Join(c.out, "\n")})
	c.send("/rewind")
	c.waitLine("0  call edit_file") // the conversation is still there
	c.end(1)                        // the refused rewind failed its line
}

// Approving covers exactly the diff shown: a file changed while its
// approval was asked is not written over, and the model is told why.
func TestHeadlessApprovalCoversOnlyTheDiffShown(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	h.writeFile("plan.txt", []byte("draft\n"))
	c := h.startChat(t)
	c.send(callLine("edit_file", map[string]any{"path": "plan.txt", "old_string": "draft", "new_string": "final"}))
	c.waitLine("+final") // the diff is on screen, the question asked
	h.writeFile("plan.txt", []byte("draft\nthe user's line\n"))
	c.send("o")
	c.waitLine("Tool result: error: plan.txt: the file changed since the change was shown")
	c.end(0)
	h.fileIs(t, "plan.txt", []byte("draft\nthe user's line\n"), cliResult{stdout: strings.Join(c.out, "\n")})
}
