package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/foundation/secrets"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// How a provider plugin says which variables it reads: a key of its
// manifest's runtime.env with an empty value. The manifest format has no
// other place for it (the Reasonix host decodes manifests strictly and has
// no such declaration: it hands every sidecar its whole environment), and
// an empty value is what "the user fills this in" reads as. At each start
// the host gives such a variable the value the user saved in the app, else
// the one of the app's own environment (so `export OPENAI_API_KEY=…` keeps
// working although the manifest's empty value comes after it), else empty.

// ProviderVar is one variable a provider plugin reads.
type ProviderVar struct {
	Name string
	// Secret: the name looks secret (KEY, TOKEN, SECRET, PASSWORD, PASSWD,
	// CREDENTIAL): the value is masked and never read out.
	Secret bool
	Saved  bool   // a value is saved in the app
	Value  string // the saved value of a variable that is not Secret ("" for a secret)
	// Inherited: nothing is saved and the app's own environment sets it,
	// so the plugin gets that value.
	Inherited bool
}

// ProviderSetup is one installed provider plugin with what it reads.
type ProviderSetup struct {
	Plugin      string
	Version     string
	Description string
	Enabled     bool
	Providers   []string // provider refs of its manifest
	Vars        []ProviderVar
}

// ProviderKeys saves the variables provider plugins read and hands them to
// the plugins at their start. It needs no running core (the CLI uses it
// alone). Safe for concurrent use (the secrets store is).
type ProviderKeys struct {
	layout Layout
	store  *secrets.Store
	log    *slog.Logger
}

// OpenProviderKeys uses store, or (nil) the store of the data directory in
// the mode $REASONIX_CREDENTIALS_STORE says.
func OpenProviderKeys(layout Layout, store *secrets.Store, log *slog.Logger) *ProviderKeys {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if store == nil {
		store = secrets.Open(secrets.Options{Dir: layout.Root, Mode: secrets.ModeFromEnv(), Logger: log})
	}
	return &ProviderKeys{layout: layout, store: store, log: log}
}

// Where says where saved values are kept, in words for the user.
func (k *ProviderKeys) Where() string { return k.store.Where() }

// DeclaredVars are the variables a manifest declares it reads: its
// runtime.env keys with an empty value, sorted; the host's own
// REASONIX_PLUGIN_* names are never among them.
func DeclaredVars(m *plugin.Manifest) []string {
	var out []string
	for k, v := range m.Runtime.Env {
		if v == "" && !strings.HasPrefix(strings.ToUpper(k), "REASONIX_PLUGIN_") {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// secretVar is the redactor's rule for a secret-looking variable name.
func secretVar(name string) bool {
	u := strings.ToUpper(strings.ReplaceAll(strings.ToUpper(name), "TOKENIZ", ""))
	for _, w := range [...]string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL"} {
		if strings.Contains(u, w) {
			return true
		}
	}
	return false
}

func isProvider(m *plugin.Manifest) bool {
	return len(m.ProviderRefs()) > 0 || slices.Contains(m.Runtime.Capabilities, plugin.CapProviders)
}

// List returns every installed provider plugin, sorted by name, with the
// variables it declares and what is saved for each. A plugin whose manifest
// cannot be read is left out (the plugin manager shows why).
func (k *ProviderKeys) List() ([]ProviderSetup, error) {
	st, err := plugin.OpenStore(k.layout)
	if err != nil {
		return nil, fmt.Errorf("open the plugin store: %w", err)
	}
	var out []ProviderSetup
	for _, rec := range st.List() {
		m, err := plugin.LoadManifest(rec.Root)
		if err != nil || !isProvider(m) {
			continue
		}
		s, err := k.setup(rec, m)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// Get returns one installed provider plugin's setup.
func (k *ProviderKeys) Get(name string) (ProviderSetup, error) {
	rec, m, err := k.manifest(name)
	if err != nil {
		return ProviderSetup{}, err
	}
	return k.setup(rec, m)
}

func (k *ProviderKeys) manifest(name string) (plugin.Record, *plugin.Manifest, error) {
	st, err := plugin.OpenStore(k.layout)
	if err != nil {
		return plugin.Record{}, nil, fmt.Errorf("open the plugin store: %w", err)
	}
	rec, ok := st.Get(name)
	if !ok {
		return plugin.Record{}, nil, fmt.Errorf("plugin %q is not installed", name)
	}
	m, err := plugin.LoadManifest(rec.Root)
	if err != nil {
		return plugin.Record{}, nil, fmt.Errorf("%s: %w", name, err)
	}
	return rec, m, nil
}

func (k *ProviderKeys) setup(rec plugin.Record, m *plugin.Manifest) (ProviderSetup, error) {
	s := ProviderSetup{Plugin: rec.Name, Version: redact.String(m.Version), Description: redact.String(m.Description),
		Enabled: rec.Enabled, Providers: m.ProviderRefs()}
	for _, name := range DeclaredVars(m) {
		v := ProviderVar{Name: name, Secret: secretVar(name)}
		val, ok, err := k.store.Get(rec.Name, name)
		if err != nil {
			return ProviderSetup{}, fmt.Errorf("%s %s: %w", rec.Name, name, err)
		}
		v.Saved = ok
		if ok && !v.Secret {
			v.Value = redact.String(val)
		}
		if !ok {
			v.Inherited = os.Getenv(name) != ""
		}
		s.Vars = append(s.Vars, v)
	}
	return s, nil
}

// Save saves set (variable → value; an empty value clears it) for plugin,
// after checking that it declares every variable named. Values are not
// checked further: the plugin says at its start what it cannot use.
func (k *ProviderKeys) Save(name string, set map[string]string) error {
	_, m, err := k.manifest(name)
	if err != nil {
		return err
	}
	declared := DeclaredVars(m)
	names := make([]string, 0, len(set))
	for n := range set {
		if !slices.Contains(declared, n) {
			return fmt.Errorf("%s does not declare %s (it reads %s)", name, n, orNone(declared))
		}
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if set[n] == "" {
			err = k.store.Delete(name, n)
		} else {
			err = k.store.Set(name, n, set[n])
		}
		if err != nil {
			return fmt.Errorf("%s %s: %w", name, n, err)
		}
	}
	return nil
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "no variables"
	}
	return strings.Join(names, ", ")
}

// Env is the host's start hook: the entries to add after plugin's manifest
// env (see the top of this file). A value that cannot be read is logged
// (the variable, never a value) and left out.
func (k *ProviderKeys) Env(name string, m *plugin.Manifest) []string {
	if m == nil {
		return nil
	}
	var out []string
	for _, v := range DeclaredVars(m) {
		val, ok, err := k.store.Get(name, v)
		if err != nil {
			k.log.Warn("a saved plugin variable could not be read", "plugin", name, "variable", v, "error", redact.String(err.Error()))
		}
		if !ok {
			val = os.Getenv(v)
		}
		if val != "" {
			out = append(out, v+"="+val)
		}
	}
	return out
}

// ProviderSetups lists the installed provider plugins and their variables.
func (c *Core) ProviderSetups() ([]ProviderSetup, error) { return c.keys.List() }

// ProviderKeysWhere says where saved values are kept.
func (c *Core) ProviderKeysWhere() string { return c.keys.Where() }

// ErrSavedNotRestarted: the values are saved, but the plugin could not be
// restarted now; it gets them at its next start.
var ErrSavedNotRestarted = errors.New("saved; the plugin gets the values at its next start")

// SaveProviderVars saves set for plugin (an empty value clears a variable)
// and restarts the plugin so its sidecar starts with them. A restart that
// cannot happen now (a turn is running, the plugin is disabled) is an
// error wrapping ErrSavedNotRestarted: the values are saved.
func (c *Core) SaveProviderVars(ctx context.Context, name string, set map[string]string) error {
	if err := c.keys.Save(name, set); err != nil {
		return err
	}
	rec, err := c.store().get(name)
	if err != nil {
		return err
	}
	if !rec.Enabled {
		return fmt.Errorf("%w (%s is disabled)", ErrSavedNotRestarted, name)
	}
	if err := c.RestartPlugin(ctx, name); err != nil {
		return fmt.Errorf("%w: %v", ErrSavedNotRestarted, err)
	}
	return nil
}
