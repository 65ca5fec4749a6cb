package plugin

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkInventory is the install preview's listing of a Claude package of
// 200 skill folders (each SKILL.md 4 KiB with a references/ file) and 200
// commands: what one scan shared with the runtime costs the preview.
func BenchmarkInventory(b *testing.B) {
	root := b.TempDir()
	files := map[string]string{ClaudeManifestFile: `{"name":"big"}`}
	body := strings.Repeat("A line of a long playbook.\n", 150)
	for i := range 200 {
		files[fmt.Sprintf("skills/s%03d/SKILL.md", i)] = fmt.Sprintf("---\nname: s%03d\ndescription: skill %d\n---\n%s", i, i, body)
		files[fmt.Sprintf("skills/s%03d/references/r.md", i)] = body
		files[fmt.Sprintf("commands/c%03d.md", i)] = "---\ndescription: c\n---\nRun $ARGUMENTS\n"
	}
	writeFilesB(b, root, files)
	pkg, err := LoadPackage(root)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if inv := pkg.Inventory(); len(inv.Skills) != 200 || len(inv.Commands) != 200 {
			b.Fatalf("%d skills %d commands", len(inv.Skills), len(inv.Commands))
		}
	}
}
