package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// The window itself is exercised by internal/desktop's tests (Fyne's test
// driver) and by scripts/xvfb-start-test.sh (the real binary under Xvfb);
// here only what runs before a display is needed.

func TestGUIFlagErrors(t *testing.T) {
	for _, args := range [][]string{{"--no-such-flag"}, {"extra"}, {"--exit-after", "soon"}} {
		var out, errb bytes.Buffer
		if code := runGUI(context.Background(), args, &out, &errb); code != 2 {
			t.Errorf("runGUI(%q) = %d, want 2 (stderr %q)", args, code, errb.String())
		}
	}
}

func TestUsageMentionsTheWindow(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"help"}, nil, &out, &errb); code != 0 {
		t.Fatalf("help exited %d", code)
	}
	if !strings.Contains(out.String(), "gui ") || !strings.Contains(out.String(), "no command") {
		t.Fatalf("usage does not mention the window:\n%s", out.String())
	}
}
