// Command policy-guard is an interceptor plugin for Reasonix: it blocks
// run_command calls that would rm -rf, and asks the user before write_file
// writes outside the session's workspace.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/sdk"
)

// toolBefore blocks a run_command that would rm -rf. The payload is the
// host's tool.before DTO: its arguments are the JSON object's text. Arguments
// that do not decode fail the call instead of letting it through, so a
// policy never fails open on a shape it did not expect.
func toolBefore(_ context.Context, call *sdk.InterceptCall) (sdk.Decision, error) {
	var tc protocol.ToolBeforePayload
	if err := call.Decode(&tc); err != nil {
		return sdk.Decision{}, err
	}
	if tc.Name != "run_command" {
		return sdk.Continue(), nil
	}
	var args struct {
		Command string `json:"command"`
	}
	if err := tc.DecodeArguments(&args); err != nil {
		return sdk.Block("policy-guard could not read the run_command arguments: " + err.Error()), nil
	}
	if removesRecursively(args.Command) {
		return sdk.Block("rm -rf is blocked by policy-guard"), nil
	}
	return sdk.Continue(), nil
}

// removesRecursively reports whether command runs rm with both the recursive
// and the force flag (rm -rf, rm -fr, rm -r -f, rm --recursive --force, ...).
func removesRecursively(command string) bool {
	fields := strings.Fields(strings.NewReplacer(";", " ; ", "&", " & ", "|", " | ", "(", " ( ", ")", " ) ").Replace(command))
	for i, f := range fields {
		if f != "rm" && !strings.HasSuffix(f, "/rm") {
			continue
		}
		recursive, force := false, false
	args:
		for _, arg := range fields[i+1:] {
			switch {
			case strings.ContainsAny(arg, ";&|()") || arg == "--":
				break args // the next command, or the end of rm's options
			case arg == "--recursive":
				recursive = true
			case arg == "--force":
				force = true
			case strings.HasPrefix(arg, "-") && !strings.HasPrefix(arg, "--"):
				recursive = recursive || strings.ContainsAny(arg, "rR")
				force = force || strings.Contains(arg, "f")
			}
		}
		if recursive && force {
			return true
		}
	}
	return false
}

func permissionDecision(ctx context.Context, call *sdk.InterceptCall) (sdk.Decision, error) {
	var p protocol.PermissionPayload
	if err := call.Decode(&p); err != nil {
		return sdk.Decision{}, err
	}
	var args struct {
		Path string `json:"path"`
	}
	if p.Name != "write_file" || p.DecodeArguments(&args) != nil || !filepath.IsAbs(args.Path) {
		return sdk.Continue(), nil
	}
	root := filepath.Clean(call.Host.Session().WorkspaceRoot)
	path := filepath.Clean(args.Path)
	if rel, err := filepath.Rel(root, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return sdk.Continue(), nil // inside the workspace
	}
	ok, err := call.Host.RequestConfirm(ctx, "policy-guard-write", "Write outside the workspace?",
		fmt.Sprintf("write_file wants to write %s, outside the workspace %s. Allow it?", path, root))
	if err != nil || !ok { // declined, dismissed, or no answer in time
		return sdk.Deny("write outside the workspace declined"), nil
	}
	return sdk.Allow("approved by the user via policy-guard"), nil
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	p := &sdk.Plugin{
		Name:    "policy-guard",
		Version: "0.1.0",
		Interceptors: map[protocol.HookPoint]sdk.InterceptFunc{
			protocol.HookToolBefore:         toolBefore,
			protocol.HookPermissionDecision: permissionDecision,
		},
	}
	if err := sdk.Serve(ctx, p); err != nil {
		log.Fatal(err)
	}
}
