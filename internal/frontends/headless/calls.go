package headless

import (
	"fmt"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/core/tools/todo"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

// toolCard prints a tool call's new state: its line, then what finished
// calls returned. A file-changing call's diff is printed with its
// approval; a call no approval asked about (an earlier "session" answer
// covers it) gets its diff on its done card instead, so every write is
// shown. A call whose output streamed prints only what did not stream.
// The caller holds f.mu.
func (f *Frontend) toolCard(c *agent.ToolCall) {
	line := i18n.T("[tool] %s %s — %s", safe(c.Name), safe(c.Arguments), toolState(c.State))
	if c.Reason != "" {
		line += ": " + safe(c.Reason)
	}
	ended := c.State == agent.ToolDone || c.State == agent.ToolFailed
	if !ended {
		if c.State == agent.ToolDenied || c.State == agent.ToolBlocked {
			delete(f.diffed, c.ID) // the call's last state: forget it
		}
		fmt.Fprintln(f.opts.Out, line)
		return
	}
	if o := f.outputs[c.ID]; o != nil {
		delete(f.outputs, c.ID)
		if rest := o.rest(); rest != "" {
			fmt.Fprint(f.opts.Out, outputLines(rest+"\n"))
		}
		fmt.Fprintln(f.opts.Out, line)
		// The result is the whole output: print what came after the
		// last tail streamed (an exit status, a truncation note).
		if i := strings.LastIndex(c.Result, o.last); o.last != "" && i >= 0 {
			if extra := strings.TrimSpace(c.Result[i+len(o.last):]); extra != "" {
				fmt.Fprintln(f.opts.Out, indent(firstLines(safe(extra), 8)))
			}
			return
		}
	} else {
		fmt.Fprintln(f.opts.Out, line)
	}
	if c.Result != "" {
		fmt.Fprintln(f.opts.Out, indent(firstLines(safe(c.Result), 8)))
	}
	if c.State == agent.ToolDone && !f.diffed[c.ID] {
		fmt.Fprint(f.opts.Out, diffText(c.Diff, f.opts.Color))
	}
	delete(f.diffed, c.ID)
}

// progress prints a running call's report: the new lines of its streamed
// output, or how far it is. The caller holds f.mu.
func (f *Frontend) progress(c *agent.ToolCall, p *agent.ToolProgress) {
	if p.Output == "" {
		fmt.Fprintln(f.opts.Out, progressLine(c.Name, p))
		return
	}
	o := f.outputs[c.ID]
	if o == nil {
		o = &outputTail{}
		f.outputs[c.ID] = o
	}
	fmt.Fprint(f.opts.Out, outputLines(o.next(p.Output)))
}

// outputLines is complete lines of a command's output, each made safe and
// indented under its card.
func outputLines(s string) string {
	if s == "" {
		return ""
	}
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString("  │ " + safe(strings.TrimSuffix(l, "\n")) + "\n")
		}
	}
	return b.String()
}

// todoText is the model's todo list as a checklist: "[x]" done, "[>]" under
// way (with its active form when it has one), "[ ]" still to do.
func todoText(items []todo.Item) string {
	if len(items) == 0 {
		return i18n.T("[todo] the list is empty") + "\n"
	}
	done := 0
	var b strings.Builder
	for _, it := range items {
		mark, text := "[ ]", it.Content
		switch it.Status {
		case "completed":
			mark = "[x]"
			done++
		case "in_progress":
			mark = "[>]"
			if it.ActiveForm != "" {
				text = it.ActiveForm
			}
		}
		fmt.Fprintf(&b, "    %s %s\n", mark, safe(text))
	}
	return i18n.T("[todo] %d/%d done", done, len(items)) + "\n" + b.String()
}

// toolStates are a call's states as a person reads them.
var toolStates = map[agent.ToolState]string{
	agent.ToolStreaming: i18n.M("streaming"), agent.ToolPending: i18n.M("pending"), agent.ToolRunning: i18n.M("running"),
	agent.ToolDone: i18n.M("done"), agent.ToolFailed: i18n.M("failed"), agent.ToolBlocked: i18n.M("blocked"),
	agent.ToolDenied: i18n.M("denied"),
}

// toolState is s in the language in use (an unknown state as it is).
func toolState(s agent.ToolState) string {
	if label, ok := toolStates[s]; ok {
		return i18n.T(label)
	}
	return string(s)
}
