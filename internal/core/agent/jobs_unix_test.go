//go:build unix

package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// A chat's background jobs end when the user leaves the chat: a job the
// model started keeps running across its turns, never into another chat.
func TestBackgroundJobsEndWhenTheChatIsLeft(t *testing.T) {
	t.Parallel()
	fe := &recorder{approve: agent.ApproveOnce}
	e, c := echoCore(t, fe)
	ctx := context.Background()
	if err := c.Send(ctx, `call run_command {"command":"echo $$ > job.pid; exec sleep 300","run_in_background":true}`); err != nil {
		t.Fatal(err)
	}
	if got := fe.text(agent.EventText); !strings.Contains(got, "Started background job") {
		t.Fatalf("reply %q", got)
	}
	var pid int
	testutil.Eventually(t, "the job's pid file", func() bool {
		data, err := os.ReadFile(filepath.Join(e.workspace, "job.pid"))
		pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		return err == nil && pid > 0
	})
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("the job is not running: %v", err)
	}
	if err := c.NewSession(ctx, ""); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, "the job to end with its chat", func() bool { return syscall.Kill(pid, 0) != nil })
}
