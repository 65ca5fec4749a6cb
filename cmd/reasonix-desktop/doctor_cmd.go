package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/reasonix/reasonix-desktop/internal/host/agent"
	"github.com/reasonix/reasonix-desktop/internal/termsafe"
)

// errDoctorFailed marks a doctor report with problems (already printed).
var errDoctorFailed = errors.New("doctor found problems")

// pluginDoctor runs the core's doctor on one installed plugin (started
// alone, handshake, declaration, provider catalog, shutdown, timings) and
// prints its report: the same report the desktop's Doctor button shows. It
// succeeds only if every check passed.
func pluginDoctor(ctx context.Context, e *pluginEnv, args []string) error {
	store, r, err := e.installed(args)
	if err != nil {
		return err
	}
	report, err := store.Doctor(ctx, r.Name, agent.DoctorOptions{Workspace: e.workspace})
	if err != nil {
		return err
	}
	if e.json {
		b, err := json.MarshalIndent(report, "", "  ")
		if err != nil {
			return fmt.Errorf("doctor report: %w", err)
		}
		fmt.Fprintln(e.stdout, termsafe.String(string(b)))
	} else {
		fmt.Fprint(e.stdout, termsafe.String(report.Text()))
	}
	if !report.OK() {
		return fmt.Errorf("%w with %s", errDoctorFailed, r.Name)
	}
	return nil
}
