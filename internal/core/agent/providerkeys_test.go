package agent_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/secrets"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// keyedProvider installs a provider plugin declaring the variables it reads
// (runtime.env keys with empty values) next to one it sets itself.
func (e *env) keyedProvider(t *testing.T, name string) {
	bin := testutil.Binary(t, "internal/testing/testplugins/misbehave")
	e.install(t, testutil.PluginDir(t, name, bin, map[string]any{
		"provides": []map[string]any{{"kind": "provider", "id": "mock"}},
		"runtime": map[string]any{"capabilities": []string{"providers"},
			"env": map[string]any{"MISBEHAVE_PROVIDER": "1", "MOCK_API_KEY": "", "MOCK_BASE_URL": "", "REASONIX_PLUGIN_NAME": ""}},
	}))
}

func TestProviderKeysListSaveAndEnv(t *testing.T) {
	e := newEnv(t)
	e.keyedProvider(t, "keyed")
	e.install(t, testutil.PluginDir(t, "notprovider", testutil.Binary(t, "internal/testing/testplugins/misbehave"), map[string]any{
		"runtime": map[string]any{"env": map[string]any{"X_API_KEY": ""}}}))
	t.Setenv("MOCK_BASE_URL", "http://inherited.example/v1")
	t.Setenv("MOCK_API_KEY", "")
	store := secrets.Open(secrets.Options{Dir: e.layout.Root, Mode: secrets.ModeFile})
	k := agent.OpenProviderKeys(e.layout, store, nil)

	list, err := k.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Plugin != "keyed" {
		t.Fatalf("providers: %+v", list)
	}
	want := []agent.ProviderVar{
		{Name: "MOCK_API_KEY", Secret: true},
		{Name: "MOCK_BASE_URL", Inherited: true},
	}
	if !slices.Equal(list[0].Vars, want) {
		t.Errorf("vars %+v, want %+v", list[0].Vars, want)
	}

	const key = "keys-test-Credential-9f8e7d6c"
	if err := k.Save("keyed", map[string]string{"MOCK_API_KEY": key, "MOCK_BASE_URL": "http://saved.example/v1"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		set  map[string]string
		want string
	}{
		{"undeclared variable", map[string]string{"PATH": "/tmp"}, "does not declare PATH"},
		{"host identity", map[string]string{"REASONIX_PLUGIN_NAME": "x"}, "does not declare"},
		{"plugin not installed", map[string]string{"A": "b"}, "not installed"},
	} {
		plug := "keyed"
		if tc.name == "plugin not installed" {
			plug = "missing"
		}
		if err := k.Save(plug, tc.set); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}

	got, err := k.Get("keyed")
	if err != nil {
		t.Fatal(err)
	}
	want = []agent.ProviderVar{
		{Name: "MOCK_API_KEY", Secret: true, Saved: true}, // a secret is never read out
		{Name: "MOCK_BASE_URL", Saved: true, Value: "http://saved.example/v1"},
	}
	if !slices.Equal(got.Vars, want) {
		t.Errorf("after save %+v, want %+v", got.Vars, want)
	}

	m, err := plugin.LoadManifest(e.mustRoot(t, "keyed"))
	if err != nil {
		t.Fatal(err)
	}
	envs := k.Env("keyed", m)
	wantEnv := []string{"MOCK_API_KEY=" + key, "MOCK_BASE_URL=http://saved.example/v1"}
	if !slices.Equal(envs, wantEnv) {
		t.Errorf("env %q, want %q", envs, wantEnv)
	}
	// Clearing the base URL gives the plugin the app's own value again.
	if err := k.Save("keyed", map[string]string{"MOCK_BASE_URL": ""}); err != nil {
		t.Fatal(err)
	}
	if envs := k.Env("keyed", m); !slices.Contains(envs, "MOCK_BASE_URL=http://inherited.example/v1") {
		t.Errorf("after clearing: %q", envs)
	}
}

func (e *env) mustRoot(t *testing.T, name string) string {
	t.Helper()
	st, err := plugin.OpenStore(e.layout)
	if err != nil {
		t.Fatal(err)
	}
	rec, ok := st.Get(name)
	if !ok {
		t.Fatalf("%s not installed", name)
	}
	return rec.Root
}
