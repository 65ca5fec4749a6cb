package main

import (
	"context"
	"fmt"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/termsafe"
)

// pluginUpdate previews the plugin from its recorded source again and,
// with --yes, installs it over the installed copy.
func pluginUpdate(ctx context.Context, e *pluginEnv, args []string) error {
	store, r, err := e.installed(args)
	if err != nil {
		return err
	}
	pv, err := store.PreviewUpdate(ctx, r.Name)
	if err != nil {
		return err
	}
	return confirmInstall(e, store, pv, "update")
}

// pluginMigrate rewrites a legacy manifest to v2 (the fix a linked legacy
// plugin's disabled_incompatible status names).
func pluginMigrate(_ context.Context, e *pluginEnv, args []string) error {
	if !e.toV2 {
		return usageError(i18n.T("migrate needs --to-v2 (the only target)"))
	}
	store, r, err := e.installed(args)
	if err != nil {
		return err
	}
	text, err := store.Migrate(r.Name)
	if err != nil {
		return err
	}
	fmt.Fprint(e.stdout, termsafe.String(text))
	fmt.Fprintf(e.stdout, "\n%s\n", i18n.T("Migrated %s to reasonix.io/plugin/v2 (the old manifest is %s). It takes effect at the next reload.",
		r.Name, termsafe.String(r.Root+"/reasonix-plugin.json.bak")))
	return nil
}
