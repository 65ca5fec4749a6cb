package plugin

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// chainPackage writes a "runs no code" package whose skill is a relative
// link that stays inside on paper but resolves outside on disk through a
// chain (a/b/x -> ../.., a/b/y -> x/..), and the secret it reaches. It
// returns the package folder (resolved) and the secret's text.
func chainPackage(t testing.TB) (string, string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	secret := "secret-of-the-user-" + filepath.Base(base)
	if err := os.WriteFile(filepath.Join(base, "secret.txt"), []byte(secret), 0o600); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "pkg")
	for _, d := range []string{"a/b", "skills/leak"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(root, ManifestFile), `{"apiVersion":"reasonix.io/plugin/v2","name":"leaky","version":"1.0.0","contributes":{"skills":["skills"]}}`)
	link(t, "../..", filepath.Join(root, "a/b/x"))
	link(t, "x/..", filepath.Join(root, "a/b/y"))
	link(t, "../../a/b/y/secret.txt", filepath.Join(root, "skills/leak/SKILL.md"))
	return root, secret
}

func write(t testing.TB, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func link(t testing.TB, target, at string) {
	t.Helper()
	if err := os.Symlink(target, at); err != nil {
		t.Fatal(err)
	}
}

func TestPackageFSConfinesReads(t *testing.T) {
	root, secret := chainPackage(t)
	// The chain really leaves: read without the root, the secret comes out.
	if b, err := os.ReadFile(filepath.Join(root, "skills/leak/SKILL.md")); err != nil || string(b) != secret {
		t.Fatalf("the fixture does not reach the secret: %q %v", b, err)
	}
	outside := filepath.Join(filepath.Dir(root), "secret.txt")
	link(t, outside, filepath.Join(root, "abs.md"))
	write(t, filepath.Join(root, "docs/real.md"), "inside")
	link(t, "../docs/real.md", filepath.Join(root, "a/inside.md"))
	link(t, "docs", filepath.Join(root, "docs-link"))
	for _, tc := range []struct {
		name, path, want, err string
	}{
		{"chain of relative links", "skills/leak/SKILL.md", "", "skills/leak/SKILL.md: a link that leaves the package (resolves outside " + root + ")"},
		{"absolute path of the link", filepath.Join(root, "skills/leak/SKILL.md"), "", "skills/leak/SKILL.md: a link that leaves the package"},
		{"absolute link outside", "abs.md", "", "abs.md: a link that leaves the package"},
		{"dot-dot name", "../secret.txt", "", "a link that leaves the package"},
		{"absolute name outside", outside, "", "a link that leaves the package"},
		{"link inside", "a/inside.md", "inside", ""},
		{"folder link inside", "docs-link/real.md", "inside", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ReadPackageFile(root, tc.path, 1<<20)
			if tc.err == "" {
				if err != nil || string(b) != tc.want {
					t.Fatalf("read = %q, %v; want %q", b, err, tc.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, ErrLeavesPackage) {
				t.Fatalf("read = %q, %v; want an error with %q", b, err, tc.err)
			}
			if strings.Contains(string(b), secret) {
				t.Fatal("the secret was read")
			}
		})
	}
}

func TestInstallRefusesLinksLeavingThePackage(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T) string
		err   string
	}{
		{"chain of relative links", func(t *testing.T) string { r, _ := chainPackage(t); return r }, "a/b/y: a link that leaves the package (resolves outside "},
		{"skill link through a chain elsewhere", func(t *testing.T) string {
			r, _ := chainPackage(t)
			// The chain's links sit after the skill in walk order.
			if err := os.Rename(filepath.Join(r, "a"), filepath.Join(r, "z")); err != nil {
				t.Fatal(err)
			}
			os.Remove(filepath.Join(r, "skills/leak/SKILL.md"))
			link(t, "../../z/b/y/secret.txt", filepath.Join(r, "skills/leak/SKILL.md"))
			return r
		}, "skills/leak/SKILL.md: a link that leaves the package"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, layout := newStore(t)
			src := tc.setup(t)
			_, err := Preview(s, src, InstallOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("preview: %v; want %q", err, tc.err)
			}
			if _, err := os.Stat(layout.PluginDir("leaky")); !os.IsNotExist(err) {
				t.Fatalf("something was installed: %v", err)
			}
		})
	}
}

func TestLoadRefusesSkillFolderLeaving(t *testing.T) {
	root, _ := chainPackage(t)
	// The skills path itself resolves outside through the chain.
	os.RemoveAll(filepath.Join(root, "skills"))
	link(t, "a/b/y", filepath.Join(root, "skills"))
	_, err := LoadPackage(root)
	if err == nil || !strings.Contains(err.Error(), `skills path "skills" escapes the plugin root through a symlink: skills: a link that leaves the package`) {
		t.Fatalf("load: %v", err)
	}
}

func TestLoadRefusesHookFilesLeaving(t *testing.T) {
	for _, tc := range []struct {
		name, hook, err string
	}{
		{"contextFile through the chain", `{"contextFile":"a/b/y/secret.txt"}`, `hooks.SessionStart[0].contextFile: a/b/y/secret.txt: a link that leaves the package`},
		{"contextFile under the root variable", `{"contextFile":"${REASONIX_PLUGIN_ROOT}/a/b/y/secret.txt"}`, `contextFile: a/b/y/secret.txt: a link that leaves the package`},
		{"command script", `{"command":"a/b/y/run.sh"}`, `hooks.SessionStart[0].command: a/b/y/run.sh: a link that leaves the package`},
		{"shell line's script", `{"command":"${CLAUDE_PLUGIN_ROOT}/a/b/y/run.sh --x","shell":"bash"}`, `command: a/b/y/run.sh: a link that leaves the package`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, _ := chainPackage(t)
			write(t, filepath.Join(root, ManifestFile), `{"apiVersion":"reasonix.io/plugin/v2","name":"leaky","version":"1.0.0","contributes":{"hooks":{"SessionStart":[`+tc.hook+`]}}}`)
			_, err := LoadPackage(root)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("load: %v; want %q", err, tc.err)
			}
		})
	}
	// Inside, the same hooks load.
	root, _ := chainPackage(t)
	write(t, filepath.Join(root, "ctx.md"), "context")
	write(t, filepath.Join(root, ManifestFile), `{"apiVersion":"reasonix.io/plugin/v2","name":"leaky","version":"1.0.0","contributes":{"hooks":{"SessionStart":[{"contextFile":"a/b/x/ctx.md"}]}}}`)
	if _, err := LoadPackage(root); err != nil {
		t.Fatalf("a contextFile through a link that stays inside: %v", err)
	}
}

func TestLoadRefusesMCPProgramLeaving(t *testing.T) {
	root, _ := chainPackage(t)
	write(t, filepath.Join(root, ManifestFile), `{"apiVersion":"reasonix.io/plugin/v2","name":"leaky","version":"1.0.0","contributes":{"mcpServers":{"srv":{"command":"${REASONIX_PLUGIN_ROOT}/a/b/y/bin/server"}}}}`)
	if _, err := LoadPackage(root); err == nil || !strings.Contains(err.Error(), "mcpServers.srv.command: a/b/y/bin/server: a link that leaves the package") {
		t.Fatalf("load: %v", err)
	}
}

func TestManifestLinkLeavingIsRefused(t *testing.T) {
	root, _ := chainPackage(t)
	write(t, filepath.Join(filepath.Dir(root), "m.json"), `{"apiVersion":"reasonix.io/plugin/v2","name":"leaky","version":"1.0.0"}`)
	os.Remove(filepath.Join(root, ManifestFile))
	link(t, "a/b/y/m.json", filepath.Join(root, ManifestFile))
	if _, err := LoadPackage(root); err == nil || !strings.Contains(err.Error(), ManifestFile+": a link that leaves the package") {
		t.Fatalf("load: %v", err)
	}
}

func TestInventorySkipsFilesLeaving(t *testing.T) {
	root, _ := chainPackage(t)
	write(t, filepath.Join(root, "skills/ok/SKILL.md"), "---\nname: fine\n---\nbody")
	pkg, err := LoadPackage(root)
	if err != nil {
		t.Fatal(err)
	}
	if inv := pkg.Inventory(); strings.Join(inv.Skills, ",") != "fine" {
		t.Fatalf("skills listed: %q (the leaking one must not be read)", inv.Skills)
	}
}

func TestMCPServerNameWithDoubleUnderscore(t *testing.T) {
	for _, tc := range []struct {
		name, manifest, file, body, err string
	}{
		{"native", ManifestFile, "", "", `mcpServers.a__b: MCP server name "a__b" cannot name tools apart`},
		{"native trailing underscore", ManifestFile, "", "", `mcpServers.a_: MCP server name "a_" cannot name tools apart`},
		{"contributes", ManifestFile, "", "", `MCP server name "x__y" cannot name tools apart`},
		{"claude .mcp.json", ClaudeManifestFile, claudeMCPFile, `{"mcpServers":{"a__b":{"command":"srv"}}}`, ""},
		{"claude .mcp.json trailing", ClaudeManifestFile, claudeMCPFile, `{"mcpServers":{"a_b__":{"command":"srv"}}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newStore(t)
			root := t.TempDir()
			switch tc.name {
			case "native":
				write(t, filepath.Join(root, tc.manifest), `{"apiVersion":"reasonix.io/plugin/v2","name":"p","version":"1.0.0","mcpServers":{"a__b":{"command":"srv"}}}`)
			case "native trailing underscore":
				write(t, filepath.Join(root, tc.manifest), `{"apiVersion":"reasonix.io/plugin/v2","name":"p","version":"1.0.0","mcpServers":{"a_":{"command":"srv"}}}`)
			case "contributes":
				write(t, filepath.Join(root, tc.manifest), `{"apiVersion":"reasonix.io/plugin/v2","name":"p","version":"1.0.0","contributes":{"mcpServers":{"ok":{"command":"srv"},"x__y":{"command":"srv"}}}}`)
			default:
				write(t, filepath.Join(root, tc.manifest), `{"name":"p","version":"1.0.0"}`)
				write(t, filepath.Join(root, tc.file), tc.body)
			}
			plan, err := Preview(s, root, InstallOptions{})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("preview: %v; want %q", err, tc.err)
				}
				return
			}
			// A Claude server keeps working under a name without "__".
			if err != nil {
				t.Fatal(err)
			}
			if got := plan.Package.MCPServerNames(); len(got) != 1 || got[0] != "a_b" {
				t.Fatalf("servers %v, want [a_b]", got)
			}
		})
	}
}

func TestLoadRefusesRuntimeCommandLeaving(t *testing.T) {
	root, _ := chainPackage(t)
	write(t, filepath.Join(root, ManifestFile), `{"apiVersion":"reasonix.io/plugin/v2","name":"leaky","version":"1.0.0","runtime":{"command":"${REASONIX_PLUGIN_ROOT}/a/b/y/bin/run"}}`)
	if _, err := LoadPackage(root); err == nil || !strings.Contains(err.Error(), "runtime.command: a/b/y/bin/run: a link that leaves the package") {
		t.Fatalf("load: %v", err)
	}
	// A program outside the package named by its own path is the author's choice.
	write(t, filepath.Join(root, ManifestFile), `{"apiVersion":"reasonix.io/plugin/v2","name":"leaky","version":"1.0.0","runtime":{"command":"/usr/bin/env"}}`)
	if _, err := LoadPackage(root); err != nil {
		t.Fatalf("load with an absolute command: %v", err)
	}
}
