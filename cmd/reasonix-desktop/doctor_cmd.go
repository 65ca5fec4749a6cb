package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/termsafe"
)

// errDoctorFailed marks a doctor report with problems (already printed).
var errDoctorFailed = errors.New("doctor found problems")

// pluginDoctor runs the core's doctor on one installed plugin, or on every
// one without NAME (started alone, handshake, declaration, provider
// catalog, shutdown, timings) and prints each report: the same report the
// desktop's Doctor button shows. It succeeds only if every check passed.
func pluginDoctor(ctx context.Context, e *pluginEnv, args []string) error {
	if len(args) > 1 {
		return usageError(i18n.T("want at most one NAME, got %d arguments", len(args)))
	}
	store, err := e.open()
	if err != nil {
		return err
	}
	var names []string
	if len(args) == 1 {
		r, err := store.Get(args[0])
		if err != nil {
			return err
		}
		names = []string{r.Name}
	} else {
		recs, err := store.List()
		if err != nil {
			return err
		}
		for _, r := range recs {
			names = append(names, r.Name)
		}
		if len(names) == 0 {
			fmt.Fprintln(e.stdout, i18n.T("No plugins installed."))
			return nil
		}
	}
	var failed []string
	reports := make([]agent.DoctorReport, 0, len(names))
	for i, name := range names {
		report, err := store.Doctor(ctx, name, agent.DoctorOptions{Workspace: e.workspace})
		if err != nil {
			return err
		}
		if !report.OK() {
			failed = append(failed, name)
		}
		if e.json {
			reports = append(reports, report)
			continue
		}
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		fmt.Fprint(e.stdout, termsafe.String(report.Text()))
	}
	if e.json {
		var v any = reports
		if len(args) == 1 {
			v = reports[0]
		}
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return fmt.Errorf("doctor report: %w", err)
		}
		fmt.Fprintln(e.stdout, termsafe.String(string(b)))
	}
	if len(failed) > 0 {
		return fmt.Errorf("%w with %s", errDoctorFailed, strings.Join(failed, ", "))
	}
	return nil
}
