// Package tools is the host's workspace file tools, by the real Reasonix
// host's names, argument names, limits and texts (esengine/DeepSeek-Reasonix
// internal/tool/builtin): read_file, ls (and list_dir, the name this host
// used first), glob, grep, write_file, edit_file, multi_edit and move_file.
//
// The tools that change files are planned before they run: PlanEdit
// computes the bytes each file will hold, writing nothing, so the approval
// can show the diff (Edit.Diffs) and Edit.Apply writes exactly what was
// shown, refusing when a file changed in between. Files are read and
// written in their own encoding (UTF-8 with or without a BOM, UTF-16 with
// a BOM, GB18030/GBK, Big5, Shift-JIS) and CRLF files stay CRLF. Every
// path is confined to the workspace, symlinks included.
package tools

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/reasonix/reasonix-desktop/internal/extensions/gate"
)

// Builtins is every workspace file tool with its Run set. A new slice on
// every call.
func Builtins() []gate.Tool {
	return []gate.Tool{
		{Name: "read_file", ReadOnly: true, Run: readFile,
			Description: "Read a text file with optional line offset/limit. Output prefixes each line with its 1-based number (e.g. `   42→...`) so subsequent edit_file calls can target exact lines. Use `offset` and `limit` to page through large files; the tool reports pagination hints in a trailer.",
			Parameters:  json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"File path"},"offset":{"type":"integer","description":"0-based line offset to start reading from (default 0)","minimum":0},"limit":{"type":"integer","description":"Maximum lines to return (default 2000)","minimum":1}},"required":["path"]}`)},
		{Name: "ls", ReadOnly: true, Run: ls,
			Description: "List the entries of a directory. Directories are shown with a trailing slash; files show their byte size. Set recursive=true to list all nested files depth-first (skips .git/node_modules).",
			Parameters:  json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"Directory path (default \".\")"},"recursive":{"type":"boolean","description":"When true, recursively list all nested files (default false)"}}}`)},
		{Name: "list_dir", ReadOnly: true, Run: listDir,
			Description: "List a directory in the workspace: one name a line, directories with a trailing slash.",
			Parameters:  json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"Directory path (default \".\")"}}}`)},
		{Name: "glob", ReadOnly: true, Run: glob,
			Description: "Find files matching a glob pattern (e.g. \"*.go\", \"internal/*/*.go\", \"**/*.test.ts\"). Supports shell metacharacters * ? [] and the recursive ** pattern. Skips .git, node_modules and files matched by .gitignore; paths are relative to the workspace, sorted, capped at 1000.",
			Parameters:  json.RawMessage(`{"type":"object","properties":{"pattern":{"type":"string","description":"Glob pattern (supports ** for recursive matching)"}},"required":["pattern"]}`)},
		{Name: "grep", ReadOnly: true, Run: grep,
			Description: "Search for a regular expression in a file, or recursively under a directory (skips hidden files, node_modules, binary files and files matched by .gitignore). Returns matching lines as path:line:text, capped at 200 matches.",
			Parameters:  json.RawMessage(`{"type":"object","properties":{"pattern":{"type":"string","description":"Regular expression (RE2 syntax)"},"path":{"type":"string","description":"File or directory to search (default \".\")"},"glob":{"type":"string","description":"Only search files whose path matches this glob (e.g. \"*.go\", \"src/**/*.ts\")"},"timeout_seconds":{"type":"integer","description":"Abort and return partial matches after this many seconds (default 30, max 300). Raise it for a large tree; lower it for a quick probe.","minimum":1}},"required":["pattern"]}`)},
		{Name: "write_file", Run: planned("write_file"),
			Description: "Write content to a file at the given path (overwriting existing content). Creates parent directories as needed. An existing file keeps its encoding.",
			Parameters:  json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"File path"},"content":{"type":"string","description":"Full content to write"}},"required":["path","content"]}`)},
		{Name: "edit_file", Run: planned("edit_file"),
			Description: "Replace an exact string in a file with another. old_string must occur exactly once; add surrounding context to disambiguate. Use for targeted edits instead of rewriting the whole file.",
			Parameters:  json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"File path"},"old_string":{"type":"string","description":"Exact text to replace (must be unique in the file)"},"new_string":{"type":"string","description":"Replacement text (may be empty to delete)"},"replace_all":{"type":"boolean","description":"Replace every occurrence instead of requiring uniqueness (default false)"},"encoding":{"type":"string","description":"File encoding override (e.g. \"UTF-8\", \"GB18030\"). When omitted, auto-detection is used."}},"required":["path","old_string","new_string"]}`)},
		{Name: "multi_edit", Run: planned("multi_edit"),
			Description: "Apply a list of edits to a single file atomically: each edit runs against the result of the previous one, all in memory; the file is rewritten only if every edit succeeds. Cheaper and safer than chaining edit_file calls — a failure in step 3 leaves the file untouched instead of half-edited.",
			Parameters:  json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"File path"},"edits":{"type":"array","minItems":1,"description":"Ordered edits. Each step sees the file as left by the previous step.","items":{"type":"object","properties":{"old_string":{"type":"string","description":"Exact text to find. Without replace_all, must match exactly once."},"new_string":{"type":"string","description":"Replacement text (empty deletes)."},"replace_all":{"type":"boolean","description":"Replace every occurrence instead of requiring uniqueness."}},"required":["old_string","new_string"]}}},"required":["path","edits"]}`)},
		{Name: "move_file", Run: planned("move_file"),
			Description: "Move or rename a file from source_path to destination_path. Creates the destination parent directory as needed. Use instead of shell mv for file moves so workspace confinement and file-edit permissions apply.",
			Parameters:  json.RawMessage(`{"type":"object","properties":{"source_path":{"type":"string","description":"Existing file path to move"},"destination_path":{"type":"string","description":"Destination file path; must not already exist"}},"required":["source_path","destination_path"]}`)},
	}
}

// decodeArgs decodes a call's arguments, refusing a field the tool does
// not take: it is nearly always a misnamed argument ("file_path" for
// "path"), and ignoring it would run the tool on a default instead.
func decodeArgs(args json.RawMessage, v any) error {
	if len(bytes.TrimSpace(args)) == 0 || string(bytes.TrimSpace(args)) == "null" {
		args = json.RawMessage(`{}`)
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("invalid arguments: %w", err)
	}
	return nil
}
