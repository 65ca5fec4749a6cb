package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/extensions/gate"
	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
)

// Limits of the built-in tools.
const (
	ReadCap            = 256 << 10
	OutputCap          = 64 << 10
	DefaultCommandTime = 60 * time.Second
	MaxCommandTime     = 10 * time.Minute
)

// Tool is one tool the model may call (internal/plugins/host/extension).
type Tool = gate.Tool

// BuiltinTools are the workspace tools: gate.Builtins' declarations
// with their implementations. Every path is confined to the workspace
// root, symlinks included.
func BuiltinTools() []Tool {
	run := map[string]func(context.Context, string, json.RawMessage) (string, error){
		"read_file": readFile, "list_dir": listDir, "write_file": writeFile, "run_command": runCommand}
	tools := gate.Builtins()
	for i := range tools {
		tools[i].Run = run[tools[i].Name]
	}
	return tools
}

// ErrOutsideWorkspace marks a path that escapes the workspace root.
var ErrOutsideWorkspace = errors.New("path escapes the workspace root")

// Confine resolves p against root and refuses anything outside it,
// following symlinks of the part of the path that exists.
func Confine(root, p string) (string, error) {
	if p == "" {
		p = "."
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("workspace root %s: %w", root, err)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	p = filepath.Clean(p)
	if !within(root, p) && !within(realRoot, p) {
		return "", fmt.Errorf("%s: %w", p, ErrOutsideWorkspace)
	}
	// Resolve the deepest existing ancestor so a symlink cannot lead out.
	existing, rest := p, ""
	for {
		if _, err := os.Lstat(existing); err == nil {
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
	resolved, err := filepath.EvalSymlinks(existing)
	if err != nil {
		return "", fmt.Errorf("%s: %w", p, err)
	}
	full := filepath.Join(resolved, rest)
	if !within(realRoot, full) {
		return "", fmt.Errorf("%s: %w (through a symlink)", p, ErrOutsideWorkspace)
	}
	return full, nil
}

func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func decodeArgs(args json.RawMessage, v any) error {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage(`{}`)
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("invalid arguments: %w", err)
	}
	return nil
}

// pathArg decodes {"path": …} and confines the path to the workspace.
func pathArg(root string, raw json.RawMessage) (string, error) {
	var a struct {
		Path string `json:"path"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return "", err
	}
	return Confine(root, a.Path)
}

func readFile(_ context.Context, root string, raw json.RawMessage) (string, error) {
	p, err := pathArg(root, raw)
	if err != nil {
		return "", err
	}
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	buf, err := io.ReadAll(io.LimitReader(f, ReadCap+1))
	if err != nil {
		return "", err
	}
	if len(buf) > ReadCap {
		return string(buf[:ReadCap]) + fmt.Sprintf("\n[truncated at %d bytes]", ReadCap), nil
	}
	return string(buf), nil
}

func listDir(_ context.Context, root string, raw json.RawMessage) (string, error) {
	p, err := pathArg(root, raw)
	if err != nil {
		return "", err
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return "", err
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			name += "/"
		}
		names = append(names, name)
	}
	sort.Strings(names)
	return strings.Join(names, "\n"), nil
}

func writeFile(_ context.Context, root string, raw json.RawMessage) (string, error) {
	var a struct {
		Path    string `json:"path"`
		Content string `json:"content"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return "", err
	}
	p, err := Confine(root, a.Path)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(p, []byte(a.Content), 0o644); err != nil {
		return "", err
	}
	return fmt.Sprintf("wrote %d bytes to %s", len(a.Content), a.Path), nil
}

func runCommand(ctx context.Context, root string, raw json.RawMessage) (string, error) {
	var a struct {
		Command        string `json:"command"`
		TimeoutSeconds int    `json:"timeoutSeconds"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return "", err
	}
	if strings.TrimSpace(a.Command) == "" {
		return "", errors.New("command is empty")
	}
	timeout := DefaultCommandTime
	if a.TimeoutSeconds > 0 {
		timeout = min(time.Duration(a.TimeoutSeconds)*time.Second, MaxCommandTime)
	}
	// The host's one process runner: its own group, registered with the
	// watchdog, killed with everything it left running when it ends, so
	// nothing it starts outlives the call or the host.
	res, err := proc.Run(ctx, proc.Spec{Path: "/bin/sh", Args: []string{"-c", a.Command}, Dir: root,
		Timeout: timeout, OutputCap: OutputCap, Combined: true})
	text := string(res.Stdout)
	if res.Truncated {
		text += fmt.Sprintf("\n[output truncated at %d bytes]", OutputCap)
	}
	switch {
	case errors.Is(err, proc.ErrTimeout):
		return text, fmt.Errorf("command timed out after %s", timeout)
	case err != nil && ctx.Err() != nil:
		return text, fmt.Errorf("command stopped: %w", ctx.Err())
	case err != nil:
		return text, fmt.Errorf("command: %w", err)
	case res.Exit != nil:
		return text, fmt.Errorf("command failed: %w", res.Exit)
	}
	return text, nil
}
