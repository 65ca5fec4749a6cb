package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/foundation/textwidth"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// runIn runs the binary with only locale (LANG=…, LANGUAGE=…) deciding
// its language: the host's own locale variables are dropped.
func (h *host) runIn(locale []string, stdin string, args ...string) cliResult {
	h.t.Helper()
	cmd := h.command(args...)
	env := append([]string{}, locale...)
	for _, kv := range cmd.Env {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE":
		default:
			env = append(env, kv)
		}
	}
	cmd.Env = env
	var out, errb strings.Builder
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(stdin), &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(interface{ ExitCode() int }); ok && err != nil {
		code = ee.ExitCode()
	} else if err != nil {
		h.t.Fatal(err)
	}
	return cliResult{code, out.String(), errb.String()}
}

// Under a Chinese locale the CLI speaks Chinese, and its tables line up by
// display width: plugin list's STATE column holds 已启用 for one plugin and
// 已禁用, 已链接 for the other, and the ROOT column after it starts at the
// same terminal column on every line (text/tabwriter padded by runes, so
// the paths started 1 column further per Chinese character). settings.json's
// "language" wins over the locale.
func TestCLISpeaksTheLocalesLanguageInAlignedTables(t *testing.T) {
	h := newHost(t)
	if r := h.run("", "plugin", "install", "--yes", testutil.ExamplePlugin(t, "echo-provider")); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if r := h.run("", "plugin", "link", "--yes", testutil.ExamplePlugin(t, "hello-surfaces")); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if r := h.run("", "plugin", "disable", "hello-surfaces"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	zh := []string{"LANG=zh_CN.UTF-8"}
	r := h.runIn(zh, "", "plugin", "list")
	if r.code != 0 {
		t.Fatalf("plugin list: %s", r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "名称") || !strings.Contains(r.stdout, "已启用") || !strings.Contains(r.stdout, "已禁用, 已链接") {
		t.Fatalf("plugin list in Chinese:\n%s", r.stdout)
	}
	col := func(line, needle string) int {
		i := strings.Index(line, needle)
		if i < 0 {
			t.Fatalf("%q not in %q", needle, line)
		}
		return textwidth.Width(line[:i])
	}
	want := col(lines[0], "目录")
	for _, l := range lines[1:3] {
		if got := col(l, string(filepath.Separator)); got != want {
			t.Errorf("ROOT column at cell %d, header at %d:\n%s", got, want, r.stdout)
		}
	}

	if r := h.runIn(zh, "", "session", "show-me"); r.code != 2 || !strings.Contains(r.stderr, "未知命令") || !strings.Contains(r.stderr, "用法：") {
		t.Errorf("an unknown session command in Chinese (%d):\n%s", r.code, r.stderr)
	}
	if r := h.runIn([]string{"LANG=en_US.UTF-8"}, "", "plugin", "list"); !strings.HasPrefix(r.stdout, "NAME") {
		t.Errorf("plugin list in English:\n%s", r.stdout)
	}
	if err := os.WriteFile(filepath.Join(h.data, "settings.json"), []byte(`{"language": "en"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := h.runIn(zh, "", "plugin", "list"); !strings.HasPrefix(r.stdout, "NAME") {
		t.Errorf("settings' language en under LANG=zh_CN:\n%s", r.stdout)
	}
}
