package agent_test

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// /form waits up to FormWait for a form not published yet, and no longer:
// the bound is the core's own clock, so it runs on a fake one (synctest)
// and is checked exactly, without waiting five real seconds.
func TestFormWaitEndsAtItsBound(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		c := e.open(t, &recorder{})
		start := time.Now()
		_, err := c.Exec(context.Background(), "/form nothing-here")
		if err == nil || !strings.Contains(err.Error(), `no form "nothing-here"`) {
			t.Fatalf("err %v", err)
		}
		if waited := time.Since(start); waited != agent.FormWait {
			t.Fatalf("/form gave up after %v, want FormWait (%v)", waited, agent.FormWait)
		}
	})
}
