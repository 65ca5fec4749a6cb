//go:build !nogui

package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// The window itself is exercised by internal/frontends/desktop's tests (Fyne's test
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

func TestGUIHiddenFlagsAreLeftOutOfTheUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runGUI(context.Background(), []string{"--no-such-flag"}, &out, &errb); code != 2 {
		t.Fatalf("exit %d", code)
	}
	usage := errb.String()
	if !strings.Contains(usage, "-screenshot") {
		t.Fatalf("usage lacks the visible flags:\n%s", usage)
	}
	if !strings.Contains(usage, "-session") {
		t.Errorf("usage lacks --session:\n%s", usage)
	}
	for _, hidden := range []string{"-stats", "-send"} {
		if strings.Contains(usage, hidden+" ") || strings.Contains(usage, hidden+"\n") {
			t.Errorf("usage shows hidden %s:\n%s", hidden, usage)
		}
	}
}

// Without a display (an ssh session) the window says so in words and
// exits, instead of GLFW's panic and a Go trace.
func TestGUIWithoutADisplaySaysSo(t *testing.T) {
	t.Setenv("DISPLAY", "")
	if displayMissing() == nil {
		t.Skip("this platform's window needs no X display")
	}
	var out, errb bytes.Buffer
	code := runGUI(context.Background(), []string{"--data-dir", t.TempDir()}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "DISPLAY is not set") || strings.Contains(errb.String(), "panic") {
		t.Fatalf("exit %d, stderr:\n%s", code, errb.String())
	}
}
