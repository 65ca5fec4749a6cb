package shell

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/extensions/gate"
	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// Limits of the background jobs.
const (
	// JobOutput is the ring of output kept per job.
	JobOutput = 256 << 10
	// MaxRunningJobs bounds the jobs of one chat running at once: a model
	// looping on run_in_background must not fill the machine.
	MaxRunningJobs = 16
	// closeWait bounds Close's wait for the killed jobs to be reaped.
	closeWait = 5 * time.Second
)

// Job states, as bash_output and wait print them (the real host's words).
const (
	stateRunning = "running"
	stateDone    = "done"
	stateFailed  = "failed"
	stateKilled  = "killed"
)

// Jobs are one chat's background jobs: commands started with
// run_command(run_in_background) that keep running across turns, each in
// its own process group, until they end, kill_shell stops them or Close
// (the chat ends) kills them all. Safe for concurrent use.
type Jobs struct {
	workspace string
	log       *slog.Logger
	sh        shell

	mu     sync.Mutex
	seq    int
	jobs   map[string]*job
	order  []string
	closed bool
}

type job struct {
	id, label string
	child     *proc.Child
	done      chan struct{} // closed once reaped, its output read and its state set

	mu    sync.Mutex
	out   ring
	read  int64 // what bash_output has shown
	state string
	exit  string // why it failed ("exit status 2")
}

// NewJobs makes a chat's job table; jobs run in workspace.
func NewJobs(workspace string, log *slog.Logger) *Jobs {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Jobs{workspace: workspace, log: log, sh: hostShell(), jobs: map[string]*job{}}
}

type jobsKey struct{}

// WithJobs gives a tool call's context the chat's jobs, so that
// run_command(run_in_background) can start one there.
func WithJobs(ctx context.Context, j *Jobs) context.Context {
	return context.WithValue(ctx, jobsKey{}, j)
}

// JobsFrom is ctx's jobs, nil when the caller has none.
func JobsFrom(ctx context.Context) *Jobs {
	j, _ := ctx.Value(jobsKey{}).(*Jobs)
	return j
}

// start runs command as a new job and returns its id ("bash-1", as the
// real host numbers them).
func (j *Jobs) start(command string) (string, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return "", errors.New("background jobs are closed: the chat is ending")
	}
	running := 0
	for _, jb := range j.jobs {
		if jb.current() == stateRunning {
			running++
		}
	}
	if running >= MaxRunningJobs {
		return "", fmt.Errorf("%d background jobs are running already (the most a chat keeps): stop one with kill_shell first", running)
	}
	// The job's context bounds its start only: it outlives this call.
	child, err := proc.Spawn(context.Background(), j.sh.spec(command, j.workspace))
	if err != nil {
		return "", fmt.Errorf("start the shell %s: %w", j.sh.path, err)
	}
	_ = child.Stdin.Close()
	j.seq++
	jb := &job{id: fmt.Sprintf("bash-%d", j.seq), label: preview(command), child: child,
		done: make(chan struct{}), out: ring{size: JobOutput}, state: stateRunning}
	j.jobs[jb.id] = jb
	j.order = append(j.order, jb.id)
	j.log.Debug("background job started", "job", jb.id, "pid", child.Pid(), "command", jb.label)
	go jb.follow()
	return jb.id, nil
}

// follow copies the job's output into its ring until it ends, then sets
// its state.
func (jb *job) follow() {
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		_, _ = io.Copy(jobWriter{jb}, jb.child.Stdout)
	}()
	<-jb.child.Exited()
	drainOutput(jb.child.Stdout, copied)
	<-jb.child.Done()
	jb.mu.Lock()
	if t := strings.TrimSpace(jb.child.Tail().String()); t != "" {
		jb.out.write([]byte("\n[stderr]\n" + t + "\n"))
	}
	if jb.state == stateRunning {
		jb.state = stateDone
		if err := jb.child.ExitErr(); err != nil {
			jb.state, jb.exit = stateFailed, err.Error()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				jb.exit = "wait: " + err.Error()
			}
		}
	}
	jb.mu.Unlock()
	close(jb.done)
}

type jobWriter struct{ jb *job }

func (w jobWriter) Write(p []byte) (int, error) {
	w.jb.mu.Lock()
	w.jb.out.write(p)
	w.jb.mu.Unlock()
	return len(p), nil
}

func (jb *job) current() string {
	jb.mu.Lock()
	defer jb.mu.Unlock()
	return jb.status()
}

// status is the state as shown, with a failure's exit; jb.mu is held.
func (jb *job) status() string {
	if jb.state == stateFailed && jb.exit != "" {
		return jb.state + " (" + jb.exit + ")"
	}
	return jb.state
}

// unread returns the output bash_output has not shown yet and marks it
// shown, redacted (a job's output is a command's, like run_command's).
func (jb *job) unread() (string, string) {
	jb.mu.Lock()
	defer jb.mu.Unlock()
	kept, lost := jb.out.since(jb.read)
	jb.read = jb.out.total
	text := string(kept)
	if lost > 0 {
		text = fmt.Sprintf("[%d earlier bytes dropped: the job printed more than %d KiB since the last read]\n", lost, JobOutput>>10) + text
	}
	return strings.TrimRight(redact.String(text), "\n"), jb.status()
}

func (j *Jobs) get(id string) *job {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.jobs[id]
}

// kill stops a running job and waits (bounded) for it to be reaped; false
// when it was not running.
func (j *Jobs) kill(id string) bool {
	jb := j.get(id)
	if jb == nil {
		return false
	}
	jb.mu.Lock()
	running := jb.state == stateRunning
	if running {
		jb.state = stateKilled
	}
	jb.mu.Unlock()
	if !running {
		return false
	}
	jb.child.Kill("kill_shell")
	waitBounded(jb.done, closeWait)
	return true
}

// Close kills every job's process tree and waits, at most a few seconds,
// for them to be reaped. No job starts after it. Idempotent.
func (j *Jobs) Close() {
	j.mu.Lock()
	j.closed = true
	all := make([]*job, 0, len(j.jobs))
	for _, id := range j.order {
		all = append(all, j.jobs[id])
	}
	j.mu.Unlock()
	for _, jb := range all {
		jb.mu.Lock()
		if jb.state == stateRunning {
			jb.state = stateKilled
		}
		jb.mu.Unlock()
		jb.child.Kill("the chat ended")
	}
	deadline := time.NewTimer(closeWait)
	defer deadline.Stop()
	for _, jb := range all {
		select {
		case <-jb.done:
		case <-deadline.C:
			j.log.Warn("background jobs still being reaped after the chat ended", "job", jb.id)
			return
		}
	}
}

func waitBounded(done <-chan struct{}, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}

// preview is a job's one-line label.
func preview(command string) string {
	command = strings.Join(strings.Fields(command), " ")
	if r := []rune(command); len(r) > 48 {
		return string(r[:48]) + "…"
	}
	return command
}

// Tools are the real host's background-job tools over these jobs:
// bash_output, kill_shell and wait. (Jobs start with run_command's
// run_in_background, given WithJobs.)
func (j *Jobs) Tools() []gate.Tool {
	return []gate.Tool{
		{Name: "bash_output", ReadOnly: true,
			Description: "Read new output from a background job started with run_command(run_in_background=true). Returns the output produced since the last bash_output call for that job, plus its status (running/done/failed/killed). Does not block.",
			Parameters:  json.RawMessage(`{"type":"object","properties":{"job_id":{"type":"string","description":"The background job id (e.g. \"bash-1\") returned when it was started."},"filter":{"type":"string","description":"Optional regular expression; only matching lines of the new output are returned."}},"required":["job_id"]}`),
			Run:         j.runOutput},
		{Name: "kill_shell",
			Description: "Terminate a running background job started with run_in_background. A no-op if the job has already finished or the id is unknown.",
			Parameters:  json.RawMessage(`{"type":"object","properties":{"job_id":{"type":"string","description":"The background job id to terminate (e.g. \"bash-1\")."}},"required":["job_id"]}`),
			Run:         j.runKill},
		{Name: "wait", ReadOnly: true,
			Description: "Block until background jobs finish, then return each job's status and its output not read yet. Use to collect the result of a run_command(run_in_background) before continuing. Omit job_ids to wait for every running job.",
			Parameters:  json.RawMessage(`{"type":"object","properties":{"job_ids":{"type":"array","items":{"type":"string"},"description":"Background job ids to wait for. Omit to wait for every currently-running job."},"timeout_seconds":{"type":"integer","description":"Optional maximum seconds to block before returning current progress. Omit to wait until the jobs finish.","minimum":1}}}`),
			Run:         j.runWait},
	}
}

func (j *Jobs) runOutput(_ context.Context, _ string, raw json.RawMessage) (string, error) {
	var a struct {
		JobID  string `json:"job_id"`
		Filter string `json:"filter"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return "", err
	}
	if a.JobID == "" {
		return "", errors.New("job_id is required")
	}
	var rx *regexp.Regexp
	if a.Filter != "" {
		var err error
		if rx, err = regexp.Compile(a.Filter); err != nil {
			return "", fmt.Errorf("invalid filter regexp: %w", err)
		}
	}
	jb := j.get(a.JobID)
	if jb == nil {
		return "", fmt.Errorf("no background job %q", a.JobID)
	}
	text, status := jb.unread()
	if rx != nil {
		var keep []string
		for _, line := range strings.Split(text, "\n") {
			if rx.MatchString(line) {
				keep = append(keep, line)
			}
		}
		text = strings.Join(keep, "\n")
	}
	header := fmt.Sprintf("[%s] %s", a.JobID, status)
	if strings.TrimSpace(text) == "" {
		return header + "\n(no new output)", nil
	}
	return header + "\n" + text, nil
}

func (j *Jobs) runKill(_ context.Context, _ string, raw json.RawMessage) (string, error) {
	var a struct {
		JobID string `json:"job_id"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return "", err
	}
	if a.JobID == "" {
		return "", errors.New("job_id is required")
	}
	if j.kill(a.JobID) {
		return fmt.Sprintf("Killed background job %q.", a.JobID), nil
	}
	return fmt.Sprintf("Background job %q was not running (already finished or unknown).", a.JobID), nil
}

func (j *Jobs) runWait(ctx context.Context, _ string, raw json.RawMessage) (string, error) {
	var a struct {
		JobIDs         []string `json:"job_ids"`
		TimeoutSeconds int      `json:"timeout_seconds"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return "", err
	}
	var jobs []*job
	j.mu.Lock()
	if len(a.JobIDs) == 0 {
		for _, id := range j.order {
			if jb := j.jobs[id]; jb.current() == stateRunning {
				jobs = append(jobs, jb)
			}
		}
	} else {
		for _, id := range a.JobIDs {
			jb := j.jobs[id]
			if jb == nil {
				j.mu.Unlock()
				return "", fmt.Errorf("no background job %q", id)
			}
			jobs = append(jobs, jb)
		}
	}
	j.mu.Unlock()
	if len(jobs) == 0 {
		return "No background jobs to wait for.", nil
	}
	var limit <-chan time.Time
	if a.TimeoutSeconds > 0 {
		t := time.NewTimer(time.Duration(a.TimeoutSeconds) * time.Second)
		defer t.Stop()
		limit = t.C
	}
wait:
	for _, jb := range jobs {
		select {
		case <-jb.done:
		case <-limit:
			break wait
		case <-ctx.Done():
			return "", ErrStopped
		}
	}
	var b strings.Builder
	for i, jb := range jobs {
		if i > 0 {
			b.WriteString("\n\n")
		}
		text, status := jb.unread()
		fmt.Fprintf(&b, "[%s (%s)] %s", jb.id, jb.label, status)
		if strings.TrimSpace(text) != "" {
			b.WriteString("\n" + text)
		}
	}
	return b.String(), nil
}
