package gate

import "context"

// Progress is how far a running extension tool call is (an MCP server's
// notifications/progress). Total is 0 when the tool does not know it;
// Message is the tool's own text, redacted by the reporter.
type Progress struct {
	Progress, Total float64
	Message         string
}

type progressKey struct{}

// WithProgress gives a tool call's context a reporter: the core passes it
// to Tool.Run so the call's card shows how far it is. report may be called
// from any goroutine, also after Run returned (the caller ignores those).
func WithProgress(ctx context.Context, report func(Progress)) context.Context {
	return context.WithValue(ctx, progressKey{}, report)
}

// ProgressReporter is ctx's reporter, nil when the caller wants none (a
// tool then need not ask for progress at all).
func ProgressReporter(ctx context.Context) func(Progress) {
	f, _ := ctx.Value(progressKey{}).(func(Progress))
	return f
}
