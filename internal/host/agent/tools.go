package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/proc"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Limits of the built-in tools.
const (
	ReadCap            = 256 << 10
	OutputCap          = 64 << 10
	DefaultCommandTime = 60 * time.Second
	MaxCommandTime     = 10 * time.Minute
)

// Tool is one tool the model may call.
type Tool struct {
	Name        string
	Description string
	Parameters  json.RawMessage
	// ReadOnly tools run without asking; the others need approval.
	ReadOnly bool
	Run      func(ctx context.Context, workspace string, args json.RawMessage) (string, error)
}

// Schema is the tool as offered to the model.
func (t Tool) Schema() protocol.ProviderToolSchema {
	return protocol.ProviderToolSchema{Name: t.Name, Description: t.Description, Parameters: t.Parameters}
}

// BuiltinTools are the workspace tools: every path is confined to the
// workspace root, symlinks included.
func BuiltinTools() []Tool {
	return []Tool{
		{Name: "read_file", ReadOnly: true, Description: "Read a UTF-8 text file in the workspace.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
			Run:        readFile},
		{Name: "list_dir", ReadOnly: true, Description: "List a directory in the workspace.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`),
			Run:        listDir},
		{Name: "write_file", Description: "Create or overwrite a file in the workspace.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}},"required":["path","content"]}`),
			Run:        writeFile},
		{Name: "run_command", Description: "Run a shell command in the workspace root.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"},"timeoutSeconds":{"type":"integer"}},"required":["command"]}`),
			Run:        runCommand},
	}
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
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.Command("/bin/sh", "-c", a.Command)
	cmd.Dir = root
	out := &capped{max: OutputCap}
	cmd.Stdout, cmd.Stderr = out, out
	// The host's one process runner: its own group, registered with the
	// watchdog, so nothing it starts outlives the call or the host.
	if err := proc.Start(cmd); err != nil {
		return "", err
	}
	pid := cmd.Process.Pid
	defer func() {
		proc.KillGroup(pid) // what it left running in the background too
		proc.Forget(pid)
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		proc.KillGroup(pid)
		<-done // reap; the stop is the error that matters
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return out.String(), fmt.Errorf("command timed out after %s", timeout)
		}
		return out.String(), fmt.Errorf("command stopped: %w", ctx.Err())
	}
	text := out.String()
	if err != nil {
		return text, fmt.Errorf("command failed: %w", err)
	}
	return text, nil
}

// capped keeps at most max bytes and notes the truncation.
type capped struct {
	buf       bytes.Buffer
	max       int
	truncated bool
}

func (c *capped) Write(p []byte) (int, error) {
	room := c.max - c.buf.Len()
	if room <= 0 {
		c.truncated = true
		return len(p), nil
	}
	if len(p) > room {
		c.buf.Write(p[:room])
		c.truncated = true
		return len(p), nil
	}
	return c.buf.Write(p)
}

func (c *capped) String() string {
	if c.truncated {
		return c.buf.String() + fmt.Sprintf("\n[output truncated at %d bytes]", c.max)
	}
	return c.buf.String()
}
