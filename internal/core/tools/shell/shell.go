// Package shell is the agent's shell: run_command, whose output streams to
// the tool card while it runs and which the user can stop, and the
// background jobs a chat keeps (run_command with run_in_background, then
// bash_output, kill_shell and wait, as the Reasonix host names them).
//
// Every command runs through internal/foundation/proc: its own process
// group (a job object on Windows), registered with the watchdog, the whole
// tree killed on a stop, a timeout or the chat's end. On Unix the shell is
// bash when there is one (the real host's choice: the model writes bash),
// else /bin/sh; on Windows it is a real bash (Git for Windows) when one is
// installed, else PowerShell 7 (pwsh), else Windows PowerShell, as the real
// host resolves it.
package shell

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/extensions/gate"
	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
)

// Limits of run_command.
const (
	// OutputCap is how much output the model gets: the first and the last
	// half of it when the command printed more.
	OutputCap          = 64 << 10
	DefaultCommandTime = 60 * time.Second
	MaxCommandTime     = 10 * time.Minute
	// StreamTail is the most of the output tail a WithOutput reporter gets.
	StreamTail = 16 << 10
	// StreamEvery is the shortest time between two reports.
	StreamEvery = 100 * time.Millisecond
)

// ErrStopped is the error of a command whose context ended while it ran:
// the user pressed Stop on its call (or ended the turn).
var ErrStopped = errors.New("stopped by the user")

type outputKey struct{}

// WithOutput makes a run_command started with ctx report its output as it
// arrives: fn gets the tail so far (control sequences stripped by termsafe,
// at most StreamTail bytes, redacted), at most every StreamEvery and once at
// the end; never concurrently.
func WithOutput(ctx context.Context, fn func(tail string)) context.Context {
	return context.WithValue(ctx, outputKey{}, fn)
}

func outputReporter(ctx context.Context) func(string) {
	fn, _ := ctx.Value(outputKey{}).(func(string))
	return fn
}

// runArgs is run_command's arguments. timeoutSeconds is this host's name
// (kept from before); run_in_background is the real host's.
type runArgs struct {
	Command         string `json:"command"`
	TimeoutSeconds  int    `json:"timeoutSeconds"`
	RunInBackground bool   `json:"run_in_background"`
}

const runSchema = `{"type":"object","properties":{` +
	`"command":{"type":"string","description":"Shell command to execute"},` +
	`"timeoutSeconds":{"type":"integer","description":"Foreground time limit in seconds (default 60, at most 600)."},` +
	`"run_in_background":{"type":"boolean","description":"Run detached: returns a job id immediately and keeps running across turns (no foreground timeout). Read new output with bash_output, wait with wait, stop it with kill_shell. Use for long-running commands like servers, watchers, or builds you don't need to block on."}` +
	`},"required":["command"]}`

// toolSteer points the model at the file tools, as the real host's does.
const toolSteer = " Use for builds, tests, git, package managers, etc. To search/read/list/edit/move files, " +
	"prefer the dedicated tools (grep, read_file, ls, glob, edit_file, move_file) over shell grep/cat/ls/find/sed/mv — " +
	"they behave identically on every OS."

// RunCommandTool is run_command: a shell command in the workspace root,
// its combined output returned (and streamed to a WithOutput reporter), or
// with run_in_background a job of the Jobs the call's context carries
// (WithJobs).
func RunCommandTool() gate.Tool {
	sh := hostShell()
	return gate.Tool{
		Name:        "run_command",
		Description: sh.description(),
		Parameters:  json.RawMessage(runSchema),
		Run: func(ctx context.Context, workspace string, raw json.RawMessage) (string, error) {
			return runCommand(ctx, sh, workspace, raw)
		},
	}
}

func runCommand(ctx context.Context, sh shell, workspace string, raw json.RawMessage) (string, error) {
	var a runArgs
	if err := decodeArgs(raw, &a); err != nil {
		return "", err
	}
	if strings.TrimSpace(a.Command) == "" {
		return "", errors.New("command is empty")
	}
	if err := sh.check(a.Command); err != nil {
		return "", err
	}
	if a.RunInBackground {
		j := JobsFrom(ctx)
		if j == nil {
			return "", errors.New("background jobs are not available in this context")
		}
		id, err := j.start(a.Command)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("Started background job %q. It keeps running across turns; read new output with bash_output(job_id=%q), "+
			"wait for it with wait, or stop it with kill_shell(job_id=%q).", id, id, id), nil
	}
	timeout := DefaultCommandTime
	if a.TimeoutSeconds > 0 {
		timeout = min(time.Duration(a.TimeoutSeconds)*time.Second, MaxCommandTime)
	}
	return run(ctx, sh, workspace, a.Command, timeout, outputReporter(ctx))
}

// run runs command to its end, its time or ctx's, and returns what it
// printed (OutputCap of it) with why it did not succeed.
func run(ctx context.Context, sh shell, dir, command string, timeout time.Duration, report func(string)) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", ErrStopped
	}
	child, err := proc.Spawn(ctx, sh.spec(command, dir))
	if err != nil {
		return "", fmt.Errorf("start the shell %s: %w", sh.path, err)
	}
	_ = child.Stdin.Close() // a command reading its input gets EOF, never the host's terminal
	out := newCapture(OutputCap)
	var w io.Writer = out
	var stream *streamer
	if report != nil {
		stream = newStreamer(report, StreamEvery)
		w = io.MultiWriter(out, stream)
	}
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		_, _ = io.Copy(w, child.Stdout)
	}()

	limit := time.NewTimer(timeout)
	var why error
	select {
	case <-child.Exited():
	case <-ctx.Done():
		child.Kill("stopped")
		why = ErrStopped
	case <-limit.C:
		child.Kill("timed out")
		why = fmt.Errorf("command timed out after %s", timeout)
	}
	limit.Stop()
	<-child.Exited()
	drainOutput(child.Stdout, copied)
	<-child.Done()
	if errText := strings.TrimSpace(child.Tail().String()); errText != "" {
		// Only where stderr could not join stdout (PowerShell): after it.
		_, _ = io.WriteString(w, "\n[stderr]\n"+errText+"\n")
	}
	if stream != nil {
		stream.finish()
	}
	text := out.String()
	if why != nil {
		return text, why
	}
	if exit := child.ExitErr(); exit != nil {
		var ee *exec.ExitError
		if errors.As(exit, &ee) {
			return text, fmt.Errorf("command failed: %w", exit)
		}
		return text, fmt.Errorf("command: %w", exit)
	}
	return text, nil
}

// drainOutput waits for the copy of a child's stdout after it exited, at
// most proc.DrainWait (a descendant that left the group may hold the pipe),
// then closes the read end under it.
func drainOutput(stdout io.Closer, copied <-chan struct{}) {
	bound := time.NewTimer(proc.DrainWait)
	select {
	case <-copied:
	case <-bound.C:
	}
	bound.Stop()
	_ = stdout.Close()
	<-copied
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
