// Command actionecho is a test plugin for the core's command layer: its
// one UI action, "echo", answers with the arguments it received
// (key=value, sorted), so a test sees what reached the plugin.
package main

import (
	"context"
	"log"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"

	"github.com/reasonix/reasonix-desktop/sdk"
)

func echo(_ context.Context, a sdk.ActionContext) (string, error) {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(a.Args)) {
		parts = append(parts, k+"="+a.Args[k])
	}
	return "args: " + strings.Join(parts, ","), nil
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	p := &sdk.Plugin{Name: "actionecho", Version: "0.0.1",
		Actions: []sdk.Action{{ID: "echo", Label: "Echo the arguments", Handler: echo}}}
	if err := sdk.Serve(ctx, p); err != nil {
		log.Fatal(err)
	}
}
