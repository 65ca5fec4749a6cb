//go:build unix

package shell

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/extensions/gate"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

type chat struct {
	t     *testing.T
	jobs  *Jobs
	ctx   context.Context
	tools map[string]gate.Tool
}

func newChat(t *testing.T) *chat {
	j := NewJobs(t.TempDir(), nil)
	t.Cleanup(j.Close)
	c := &chat{t: t, jobs: j, ctx: WithJobs(context.Background(), j), tools: map[string]gate.Tool{"run_command": RunCommandTool()}}
	for _, tool := range j.Tools() {
		c.tools[tool.Name] = tool
	}
	return c
}

func (c *chat) call(name string, args map[string]any) (string, error) {
	c.t.Helper()
	raw, _ := json.Marshal(args)
	return c.tools[name].Run(c.ctx, "", raw)
}

func (c *chat) must(name string, args map[string]any) string {
	c.t.Helper()
	out, err := c.call(name, args)
	if err != nil {
		c.t.Fatalf("%s %v: %v", name, args, err)
	}
	return out
}

func (c *chat) background(command string) string {
	c.t.Helper()
	out := c.must("run_command", map[string]any{"command": command, "run_in_background": true})
	id := strings.Split(out, `"`)[1]
	if !strings.HasPrefix(out, "Started background job "+strconv.Quote(id)) {
		c.t.Fatalf("start: %q", out)
	}
	return id
}

// A job's output is read while it runs (only what is new each time), then
// kill_shell stops it, and it reads as killed.
func TestJobIsReadWhileRunningThenKilled(t *testing.T) {
	c := newChat(t)
	gateFile := fifo(t)
	id := c.background("echo started; read x < " + gateFile + "; echo finished")
	if id != "bash-1" {
		t.Fatalf("id %q", id)
	}
	var seen string
	testutil.Eventually(t, "the job's first line", func() bool {
		seen += c.must("bash_output", map[string]any{"job_id": id})
		return strings.Contains(seen, "started")
	})
	if !strings.Contains(seen, "[bash-1] running\nstarted") {
		t.Fatalf("output %q", seen)
	}
	if out := c.must("bash_output", map[string]any{"job_id": id}); out != "[bash-1] running\n(no new output)" {
		t.Fatalf("second read %q", out)
	}
	if out := c.must("kill_shell", map[string]any{"job_id": id}); out != `Killed background job "bash-1".` {
		t.Fatal(out)
	}
	if out := c.must("bash_output", map[string]any{"job_id": id}); out != "[bash-1] killed\n(no new output)" {
		t.Fatalf("after the kill %q", out)
	}
	if out := c.must("kill_shell", map[string]any{"job_id": id}); !strings.Contains(out, "was not running") {
		t.Fatal(out)
	}
	if _, err := c.call("bash_output", map[string]any{"job_id": "bash-9"}); err == nil {
		t.Fatal("an unknown job was read")
	}
}

// wait blocks until the job ends and gives its state (a failure's exit
// status) and its unread output; with a time limit it returns the job still
// running.
func TestWaitForJobs(t *testing.T) {
	c := newChat(t)
	id := c.background("echo one; exit 2")
	out := c.must("wait", map[string]any{"job_ids": []string{id}})
	if out != "[bash-1 (echo one; exit 2)] failed (exit status 2)\none" {
		t.Fatalf("wait %q", out)
	}
	if out := c.must("wait", map[string]any{}); out != "No background jobs to wait for." {
		t.Fatalf("wait for none %q", out)
	}
	gateFile := fifo(t)
	slow := c.background("read x < " + gateFile)
	if out := c.must("wait", map[string]any{"timeout_seconds": 1}); out != "[bash-2 (read x < "+gateFile+")] running" {
		t.Fatalf("wait with a limit %q", out)
	}
	release(t, gateFile)
	if out := c.must("wait", map[string]any{"job_ids": []string{slow}}); !strings.HasSuffix(out, "] done") {
		t.Fatalf("%q", out)
	}
	if _, err := c.call("wait", map[string]any{"job_ids": []string{"bash-7"}}); err == nil {
		t.Fatal("waited for an unknown job")
	}
}

// bash_output's filter keeps the matching lines.
func TestJobOutputFilter(t *testing.T) {
	c := newChat(t)
	id := c.background("printf 'a1\\nb2\\na3\\n'")
	<-c.jobs.get(id).done
	if out := c.must("bash_output", map[string]any{"job_id": id, "filter": "^a"}); out != "[bash-1] done\na1\na3" {
		t.Fatalf("%q", out)
	}
	if _, err := c.call("bash_output", map[string]any{"job_id": id, "filter": "("}); err == nil {
		t.Fatal("a bad filter was taken")
	}
}

// Close (the chat ending) kills every job's processes, what they started
// included, and no job starts after it.
func TestCloseLeavesNoProcess(t *testing.T) {
	c := newChat(t)
	var pids []int
	for range 2 {
		id := c.background("sleep 300 & echo $!; wait")
		pid := 0
		testutil.Eventually(t, "the job's child pid", func() bool {
			out := c.must("bash_output", map[string]any{"job_id": id})
			pid, _ = strconv.Atoi(strings.TrimPrefix(out, "[bash-"+id[5:]+"] running\n"))
			return pid > 0
		})
		if !testutil.Alive(pid) {
			t.Fatalf("job %s: child %d is not running", id, pid)
		}
		pids = append(pids, pid, c.jobs.get(id).child.Pid())
	}
	c.jobs.Close()
	for _, pid := range pids {
		testutil.Eventually(t, "process "+strconv.Itoa(pid)+" to be gone", func() bool { return !testutil.Alive(pid) })
	}
	if out := c.must("bash_output", map[string]any{"job_id": "bash-1"}); !strings.HasPrefix(out, "[bash-1] killed") {
		t.Fatalf("%q", out)
	}
	if _, err := c.call("run_command", map[string]any{"command": "true", "run_in_background": true}); err == nil ||
		!strings.Contains(err.Error(), "closed") {
		t.Fatalf("a job started after Close: %v", err)
	}
}
