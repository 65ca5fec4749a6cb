//go:build nogui

package main

import (
	"context"
	"fmt"
	"io"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

// runGUI in a build without the window (-tags nogui): the CLI alone, built
// with CGO off, e.g. for darwin from Linux or a Windows server. Every other
// command works.
func runGUI(_ context.Context, _ []string, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "reasonix-desktop:", i18n.T("this build has no window (built with -tags nogui); use chat --headless, models, plugin or doctor"))
	return 2
}
