package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Budgets of the doctor, the same a generation uses.
const (
	doctorStartBudget = 30 * time.Second
	doctorCatalog     = 10 * time.Second
	doctorTailLines   = 40
)

// DoctorOptions tune a doctor run.
type DoctorOptions struct {
	// Workspace is the workspace root sent in the session (default: the
	// plugin folder).
	Workspace string
	UIHost    protocol.UIHost // default headless
	// Env gives entries added after the manifest env (saved provider keys); Plugins.Doctor defaults it.
	Env func(plugin string, m *plugin.Manifest) []string
}

// DoctorReport is what the doctor found about one plugin: the one report
// both front ends show (`reasonix-desktop plugin doctor` prints Text, the
// desktop shows the same Text). Every string in it is redacted.
type DoctorReport struct {
	Plugin  PluginRecord `json:"plugin"`
	Notes   []string     `json:"notes,omitempty"`
	Running *DoctorLive  `json:"running,omitempty"` // the core's live view; nil without a core
	// StartReport explains why the doctor's own start failed.
	StartReport string             `json:"startReport,omitempty"`
	Handshake   time.Duration      `json:"handshakeNanos,omitempty"`
	Declaration *DoctorDeclaration `json:"declaration,omitempty"`
	Catalog     *DoctorCatalog     `json:"catalog,omitempty"`
	Shutdown    string             `json:"shutdown,omitempty"` // the process state after the shutdown
	ShutdownIn  time.Duration      `json:"shutdownNanos,omitempty"`
	Total       time.Duration      `json:"totalNanos"`
	// Problems is empty when every check passed.
	Problems []string `json:"problems,omitempty"`
}

// DoctorLive is the plugin in the core's current generation.
type DoctorLive struct {
	State       string        `json:"state"`
	Generation  int64         `json:"generation,omitempty"`
	Handshake   time.Duration `json:"handshakeNanos,omitempty"`
	Failure     string        `json:"failure,omitempty"`
	StartReport string        `json:"startReport,omitempty"`
	StderrTail  string        `json:"stderrTail,omitempty"`
}

// DoctorDeclaration is what the sidecar declared in its initialize result.
type DoctorDeclaration struct {
	Name          string   `json:"name"`
	Version       string   `json:"version"`
	Protocol      string   `json:"protocolVersion"`
	Subscriptions []string `json:"subscriptions,omitempty"`
	Replaces      []string `json:"replaces,omitempty"`
	Providers     []string `json:"providers,omitempty"` // ref/model
	Actions       []string `json:"actions,omitempty"`
}

// DoctorCatalog is the provider catalog fetch.
type DoctorCatalog struct {
	Models  []DoctorModel `json:"models,omitempty"`
	Elapsed time.Duration `json:"elapsedNanos"`
	Error   string        `json:"error,omitempty"`
}

// DoctorModel is one catalog entry.
type DoctorModel struct {
	ID            string `json:"id"` // ref/model
	DisplayName   string `json:"displayName,omitempty"`
	ContextWindow int64  `json:"contextWindow,omitempty"`
}

// OK reports whether every check passed.
func (r DoctorReport) OK() bool { return len(r.Problems) == 0 }

// Doctor starts the installed plugin name alone (even when disabled),
// handshakes, reads its declaration and provider catalog, shuts it down and
// reports what happened. The error is only for a doctor that could not run
// (the plugin is not installed); a failing plugin is a report with Problems.
func (p *Plugins) Doctor(ctx context.Context, name string, opts DoctorOptions) (DoctorReport, error) {
	rec, err := p.get(name)
	if err != nil {
		return DoctorReport{}, err
	}
	if opts.Env == nil {
		opts.Env = OpenProviderKeys(p.layout, nil, nil).Env
	}
	return doctor(ctx, rec, opts), nil
}

// doctor is the one implementation of the checks.
func doctor(ctx context.Context, rec plugin.Record, opts DoctorOptions) DoctorReport {
	began := time.Now()
	r := DoctorReport{Plugin: recordOf(rec)}
	r.Plugin.Version, r.Plugin.Description = redact.String(r.Plugin.Version), redact.String(r.Plugin.Description)
	checks(ctx, &r, rec, opts)
	r.Total = time.Since(began)
	return r
}

// checks starts the plugin alone and fills r as far as it gets.
func checks(ctx context.Context, r *DoctorReport, rec plugin.Record, opts DoctorOptions) {
	if !rec.Enabled {
		r.Notes = append(r.Notes, "the plugin is disabled; doctor starts it anyway")
	}
	pkg, err := plugin.LoadPackage(rec.Root)
	if err != nil {
		r.Problems = append(r.Problems, "manifest: "+redact.String(err.Error()))
		return
	}
	// The compatibility report, as the install preview and `plugin show`
	// give it: it carries the loader's warnings too, so each is said once.
	rep := compatReport(pkg)
	r.Notes = append(r.Notes, "compatibility: "+rep.Summary())
	for _, l := range rep.Lines {
		r.Notes = append(r.Notes, "package: "+l.String())
	}
	m := pkg.Manifest
	if m == nil || !m.HasRuntime() {
		// A package: nothing to start (its hooks and MCP servers run when
		// the agent uses them).
		r.Plugin.Version = redact.String(pkg.Version)
		r.Notes = append(r.Notes, "a package without a runtime: no sidecar to start")
		return
	}
	r.Plugin.Version = redact.String(m.Version)
	if opts.Workspace == "" {
		opts.Workspace = rec.Root
	}
	if opts.UIHost == "" {
		opts.UIHost = protocol.UIHostHeadless
	}
	startCtx, cancel := context.WithTimeout(ctx, doctorStartBudget)
	defer cancel()
	var env []string
	if opts.Env != nil {
		env = opts.Env(rec.Name, m)
	}
	c, err := sidecar.Start(startCtx, sidecar.Options{Name: rec.Name, Root: rec.Root, Manifest: m, UIHost: opts.UIHost, ExtraEnv: env,
		Session: protocol.SessionContext{SessionID: uuid.NewString(), WorkspaceRoot: opts.Workspace, Generation: 1, Epoch: uuid.NewString()}})
	if err != nil {
		var se *sidecar.StartError
		if errors.As(err, &se) {
			r.StartReport = redact.String(se.Report())
		}
		r.Problems = append(r.Problems, "start: "+redact.String(err.Error()))
		return
	}
	defer c.Shutdown(context.WithoutCancel(ctx))
	r.Handshake = c.HandshakeTime()
	r.Declaration = declarationOf(c.Declaration())
	if len(m.ProviderRefs()) > 0 {
		r.Catalog = catalog(ctx, c)
		if r.Catalog.Error != "" {
			r.Problems = append(r.Problems, "catalog: "+r.Catalog.Error)
		}
	}
	t0 := time.Now()
	c.Shutdown(ctx)
	r.ShutdownIn = time.Since(t0)
	r.Shutdown = strings.ToLower(string(c.State()))
	if f := c.Failure(); c.State() == sidecar.StateFailed && f != nil {
		r.Problems = append(r.Problems, "the sidecar failed: "+redact.String(f.Error()))
	}
}

func catalog(ctx context.Context, c *sidecar.Client) *DoctorCatalog {
	ctx, cancel := context.WithTimeout(ctx, doctorCatalog)
	defer cancel()
	t0 := time.Now()
	var res protocol.ProviderCatalogResult
	err := c.Call(ctx, protocol.MethodProviderCatalog, protocol.ProviderCatalogParams{}, &res)
	out := &DoctorCatalog{Elapsed: time.Since(t0)}
	if err != nil {
		out.Error = redact.String(err.Error())
		return out
	}
	for _, d := range res.Providers {
		out.Models = append(out.Models, DoctorModel{ID: redact.String(d.Ref + "/" + d.Model),
			DisplayName: redact.String(d.DisplayName), ContextWindow: d.ContextWindow})
	}
	return out
}

func declarationOf(d protocol.InitializeResult) *DoctorDeclaration {
	r := redact.String
	out := &DoctorDeclaration{Name: r(d.Name), Version: r(d.Version), Protocol: r(d.ProtocolVersion),
		Subscriptions: redactAll(d.Subscriptions), Replaces: redactAll(d.Replaces)}
	for _, p := range d.Providers {
		out.Providers = append(out.Providers, r(p.Ref+"/"+p.Model))
	}
	for _, a := range d.UIActions {
		out.Actions = append(out.Actions, r(a.ActionID))
	}
	return out
}

func redactAll(xs []string) []string {
	if len(xs) == 0 {
		return nil
	}
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = redact.String(x)
	}
	return out
}

// Text renders the report: the one text rendering of the doctor.
func (r DoctorReport) Text() string {
	var b strings.Builder
	us := func(d time.Duration) time.Duration { return d.Round(time.Microsecond) }
	list := func(xs []string) string {
		if len(xs) == 0 {
			return "-"
		}
		return strings.Join(xs, ", ")
	}
	fmt.Fprintf(&b, "plugin %s %s (%s)\n", r.Plugin.Name, r.Plugin.Version, r.Plugin.Root)
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	if l := r.Running; l != nil {
		fmt.Fprintf(&b, "running:     %s", l.State)
		if l.Generation > 0 {
			fmt.Fprintf(&b, " in generation %d", l.Generation)
		}
		if l.Handshake > 0 {
			fmt.Fprintf(&b, " (handshake %s)", us(l.Handshake))
		}
		b.WriteString("\n")
		if l.Failure != "" {
			fmt.Fprintf(&b, "  failure:   %s\n", l.Failure)
		}
		b.WriteString(indent(l.StartReport, "  "))
		if l.StderrTail != "" {
			b.WriteString("  stderr tail:\n" + indent(lastLines(l.StderrTail, doctorTailLines), "    "))
		}
	}
	b.WriteString(r.StartReport)
	if d := r.Declaration; d != nil {
		fmt.Fprintf(&b, "handshake:   ok in %s\n", us(r.Handshake))
		fmt.Fprintf(&b, "declared:    %s %s (protocol %s)\n", d.Name, d.Version, d.Protocol)
		fmt.Fprintf(&b, "  subscriptions: %s\n  replaces:      %s\n  providers:     %s\n  ui actions:    %s\n",
			list(d.Subscriptions), list(d.Replaces), list(d.Providers), list(d.Actions))
	}
	if c := r.Catalog; c != nil {
		if c.Error != "" {
			fmt.Fprintf(&b, "catalog:     FAILED: %s\n", c.Error)
		} else {
			fmt.Fprintf(&b, "catalog:     %d model(s) in %s\n", len(c.Models), us(c.Elapsed))
			for _, m := range c.Models {
				fmt.Fprintf(&b, "  %s  %q  context %d\n", m.ID, m.DisplayName, m.ContextWindow)
			}
		}
	}
	if r.Shutdown != "" {
		fmt.Fprintf(&b, "shutdown:    %s in %s\n", r.Shutdown, us(r.ShutdownIn))
	}
	fmt.Fprintf(&b, "total:       %s\n", us(r.Total))
	if r.OK() {
		b.WriteString("doctor: all checks passed\n")
	} else {
		fmt.Fprintf(&b, "doctor: %d problem(s)\n", len(r.Problems))
		for _, p := range r.Problems {
			fmt.Fprintf(&b, "  - %s\n", p)
		}
	}
	return redact.String(b.String())
}

func indent(s, prefix string) string {
	if s == "" {
		return ""
	}
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n") + "\n"
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
