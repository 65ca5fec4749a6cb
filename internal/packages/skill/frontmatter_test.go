package skill_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/packages/skill"
)

// The scalar shapes published skills write their frontmatter in. A
// description written as a YAML block scalar used to load as "|" or ">",
// and its lines holding a colon ("Use when: …") became keys of their own.
func TestSplitFrontmatterScalars(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     map[string]string
		body     string
	}{
		{"literal block, a colon inside",
			"---\nname: pdf\ndescription: |\n  Extract text and tables from PDFs.\n  Use when: the user mentions a PDF.\nlicense: MIT\n---\nbody",
			map[string]string{"name": "pdf", "description": "Extract text and tables from PDFs.\nUse when: the user mentions a PDF.\n", "license": "MIT"}, "body"},
		{"folded block, paragraphs",
			"---\ndescription: >\n  Use this skill\n  for code reviews.\n\n  It reads the diff first.\nname: review\n---\n",
			map[string]string{"description": "Use this skill for code reviews.\nIt reads the diff first.\n", "name": "review"}, ""},
		{"folded strip, Chinese",
			"---\nname: 代码审查\ndescription: >-\n  审查代码中的问题，\n  给出修改建议。\n---\n",
			map[string]string{"name": "代码审查", "description": "审查代码中的问题， 给出修改建议。"}, ""},
		{"literal keep",
			"---\ndescription: |+\n  a\n  b\n\n---\n",
			map[string]string{"description": "a\nb\n\n"}, ""},
		{"literal strip",
			"---\ndescription: |-\n  a\n   b\n---\n",
			map[string]string{"description": "a\n b"}, ""},
		{"indentation indicator, chomping first",
			"---\ndescription: |-2\n    indented code\n  text\n---\n",
			map[string]string{"description": "  indented code\ntext"}, ""},
		{"folded keeps more-indented lines",
			"---\ndescription: >\n  Steps:\n    1. read\n    2. write\n  Then done.\n---\n",
			map[string]string{"description": "Steps:\n  1. read\n  2. write\nThen done.\n"}, ""},
		{"header comment",
			"---\ndescription: > # folded\n  a\n  b\n---\n",
			map[string]string{"description": "a b\n"}, ""},
		{"a rule inside the block is not the fence",
			"---\ndescription: |\n  above\n  ---\n  below\nname: x\n---\nbody\n",
			map[string]string{"description": "above\n---\nbelow\n", "name": "x"}, "body\n"},
		{"empty block",
			"---\ndescription: |\nname: x\n---\n",
			map[string]string{"name": "x"}, ""},
		{"nested block under metadata",
			"---\nmetadata:\n  short-description: >-\n    Short\n    text\nname: x\n---\n",
			map[string]string{"short-description": "Short text", "name": "x"}, ""},
		{"plain value continued on indented lines",
			"---\ndescription: Use this skill when\n  the user asks for a review.\n\n  Not for: commits.\nname: r\n---\n",
			map[string]string{"description": "Use this skill when the user asks for a review.\nNot for: commits.", "name": "r"}, ""},
		{"double quotes with escapes over two lines",
			"---\ndescription: \"Say \\\"hi\\\" to \\u4F60\n  and more\" # note\n---\n",
			map[string]string{"description": `Say "hi" to 你 and more`}, ""},
		{"single quotes",
			"---\ndescription: 'It''s fine: really'\n---\n",
			map[string]string{"description": "It's fine: really"}, ""},
		{"unclosed quote stays one line",
			"---\ndescription: \"oops\nname: x\n---\n",
			map[string]string{"description": "oops", "name": "x"}, ""},
		{"a bar inside a plain value is text",
			"---\ndescription: |x| the absolute value\n---\n",
			map[string]string{"description": "|x| the absolute value"}, ""},
		{"comment lines",
			"---\n# generated: by a tool\nname: x\n---\n",
			map[string]string{"name": "x"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fm, body := skill.SplitFrontmatter(tc.in)
			if !reflect.DeepEqual(fm, tc.want) || body != tc.body {
				t.Fatalf("got  %q %q\nwant %q %q", fm, body, tc.want, tc.body)
			}
		})
	}
}

// A skill whose description is a block scalar is listed with its text in
// the pinned index, not with "|", on one line: a break between two Chinese
// characters joins them without a space, any other with one.
func TestLoadSkillBlockDescription(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "skills", "review")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	md := "---\nname: review\ndescription: |\n  审查当前分支\n  的改动。\n\n  Use when: the user asks\n  for a review.\n---\nRead the diff.\n"
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	sks, errs := skill.LoadSkills([]skill.Root{{Path: filepath.Dir(dir), Plugin: "kit"}})
	if len(errs) > 0 || len(sks) != 1 {
		t.Fatalf("skills %v, errors %v", sks, errs)
	}
	if want := "审查当前分支的改动。 Use when: the user asks for a review."; sks[0].Description != want {
		t.Fatalf("description %q, want %q", sks[0].Description, want)
	}
	if idx := skill.IndexBlock(sks); !strings.Contains(idx, "审查当前分支的改动。") {
		t.Fatalf("the index does not show the description:\n%s", idx)
	}
}

// BenchmarkSplitFrontmatter reads a published skill's frontmatter: plain
// values, a list, a section and (block) a description as a folded block.
func BenchmarkSplitFrontmatter(b *testing.B) {
	plain := "---\nname: pdf\ndescription: Comprehensive PDF manipulation toolkit for extracting text and tables, creating new PDFs, merging and splitting documents.\nlicense: Proprietary. LICENSE.txt has complete terms\nallowed-tools:\n  - read_file\n  - run_command\nmetadata:\n  short-description: PDFs\n---\n# PDF\n\nBody text.\n"
	block := strings.Replace(plain, "description: Comprehensive PDF manipulation toolkit for extracting text and tables, creating new PDFs, merging and splitting documents.",
		"description: >\n  Comprehensive PDF manipulation toolkit for extracting text\n  and tables, creating new PDFs, merging and splitting documents.", 1)
	for _, c := range []struct{ name, in string }{{"plain", plain}, {"block", block}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				skill.SplitFrontmatter(c.in)
			}
		})
	}
}
