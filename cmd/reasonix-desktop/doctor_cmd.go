package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/reasonix/reasonix-desktop/internal/host/plugin"
	"github.com/reasonix/reasonix-desktop/internal/host/sidecar"
	"github.com/reasonix/reasonix-desktop/internal/redact"
	"github.com/reasonix/reasonix-desktop/internal/termsafe"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Budgets of `plugin doctor`, the same a generation uses.
const (
	doctorStartBudget = 30 * time.Second
	catalogTimeout    = 10 * time.Second
)

// pluginDoctor starts one installed plugin alone, handshakes, prints its
// declaration, its provider catalog and the timings, and shuts it down. It
// succeeds only if every step worked.
func pluginDoctor(ctx context.Context, e *pluginEnv, args []string) error {
	_, _, rec, err := e.installed(args)
	if err != nil {
		return err
	}
	name := rec.Name
	m, err := plugin.LoadManifest(rec.Root)
	if err != nil {
		return err
	}
	out := e.stdout
	fmt.Fprintf(out, "plugin %s %s (%s)\n", rec.Name, safe(m.Version), termsafe.String(rec.Root))
	if !rec.Enabled {
		fmt.Fprintln(out, "note: the plugin is disabled; doctor starts it anyway")
	}
	workspace := e.workspace
	if workspace == "" {
		workspace = rec.Root
	}
	startCtx, cancel := context.WithTimeout(ctx, doctorStartBudget)
	defer cancel()
	began := time.Now()
	c, err := sidecar.Start(startCtx, sidecar.Options{
		Name:     rec.Name,
		Root:     rec.Root,
		Manifest: m,
		Session:  protocol.SessionContext{SessionID: uuid.NewString(), WorkspaceRoot: workspace, Generation: 1, Epoch: uuid.NewString()},
		UIHost:   protocol.UIHostHeadless,
	})
	if err != nil {
		if se, ok := err.(*sidecar.StartError); ok {
			fmt.Fprint(out, termsafe.String(se.Report()))
		}
		return err
	}
	defer c.Shutdown(context.WithoutCancel(ctx))
	fmt.Fprintf(out, "handshake:   ok in %s\n", c.HandshakeTime().Round(time.Microsecond))
	printDeclaration(e, c.Declaration())

	failed := false
	if len(m.ProviderRefs()) > 0 {
		catCtx, cancel := context.WithTimeout(ctx, catalogTimeout)
		t0 := time.Now()
		var cat protocol.ProviderCatalogResult
		err := c.Call(catCtx, protocol.MethodProviderCatalog, protocol.ProviderCatalogParams{}, &cat)
		cancel()
		if err != nil {
			fmt.Fprintf(out, "catalog:     FAILED: %s\n", termsafe.String(redact.String(err.Error())))
			failed = true
		} else {
			fmt.Fprintf(out, "catalog:     %d model(s) in %s\n", len(cat.Providers), time.Since(t0).Round(time.Microsecond))
			for _, d := range cat.Providers {
				fmt.Fprintf(out, "  %s/%s  %q  context %d\n", safe(d.Ref), safe(d.Model), redact.String(d.DisplayName), d.ContextWindow)
			}
		}
	}
	t0 := time.Now()
	c.Shutdown(ctx)
	fmt.Fprintf(out, "shutdown:    %s in %s\n", strings.ToLower(string(c.State())), time.Since(t0).Round(time.Microsecond))
	fmt.Fprintf(out, "total:       %s\n", time.Since(began).Round(time.Microsecond))
	if f := c.Failure(); c.State() == sidecar.StateFailed && f != nil {
		return fmt.Errorf("the sidecar failed: %v", f)
	}
	if failed {
		return fmt.Errorf("doctor found problems with %s", name)
	}
	fmt.Fprintln(out, "doctor: all checks passed")
	return nil
}

func printDeclaration(e *pluginEnv, d protocol.InitializeResult) {
	if e.json {
		b, _ := json.MarshalIndent(d, "", "  ")
		fmt.Fprintln(e.stdout, redact.String(string(b)))
		return
	}
	list := func(xs []string) string {
		if len(xs) == 0 {
			return "-"
		}
		return safe(strings.Join(xs, ", "))
	}
	var providers, actions []string
	for _, p := range d.Providers {
		providers = append(providers, p.Ref+"/"+p.Model)
	}
	for _, a := range d.UIActions {
		actions = append(actions, a.ActionID)
	}
	fmt.Fprintf(e.stdout, "declared:    %s %s (protocol %s)\n", safe(d.Name), safe(d.Version), safe(d.ProtocolVersion))
	fmt.Fprintf(e.stdout, "  subscriptions: %s\n", list(d.Subscriptions))
	fmt.Fprintf(e.stdout, "  replaces:      %s\n", list(d.Replaces))
	fmt.Fprintf(e.stdout, "  providers:     %s\n", list(providers))
	fmt.Fprintf(e.stdout, "  ui actions:    %s\n", list(actions))
}
