package agent

import (
	"context"
)

// Connecting a model: the bundled OpenAI-compatible provider plugin
// (examples/openai-provider) pointed at a server from a preset list, the
// key saved where provider keys are saved (ProviderKeys).

// OpenAIProvider is the bundled provider plugin's name.
const OpenAIProvider = "openai-provider"

// Preset is one server a user can connect in a minute.
type Preset struct {
	ID      string // "deepseek", "openai", "ollama", "lmstudio", "openrouter", "siliconflow", "moonshot", "dashscope", "zhipu", "custom"
	Name    string // as the vendor writes it: "DeepSeek", "LM Studio"
	BaseURL string // prefilled (editable); "" for custom
	// KeyNeeded: the server refuses requests without an API key (local
	// servers do not).
	KeyNeeded bool
	// ModelsPath is appended to the base URL to list models ("/models").
	ModelsPath string
	// Pricing names the price list its models are priced from ("deepseek",
	// "openai", …; "" none known).
	Pricing string
	// LocalPort is the port a local server listens on (11434, 1234); 0 for
	// remote servers.
	LocalPort int
	// Balance: the server answers GET /user/balance (DeepSeek).
	Balance bool
	// KeyURL is where the vendor hands out keys ("" none).
	KeyURL string
}

// Presets lists the presets, DeepSeek first, "custom" last.
func Presets() []Preset { return nil }

// PresetByID finds a preset by its ID.
func PresetByID(id string) (Preset, bool) { return Preset{}, false }

// LocalServer is a server DetectLocal found.
type LocalServer struct {
	Preset  string // the preset's ID
	BaseURL string
	Models  []string
}

// DetectLocal asks the local presets' ports (Ollama :11434, LM Studio
// :1234) for their models, each with a short timeout, at once; the ones
// that answered are returned in the presets' order.
func DetectLocal(ctx context.Context) []LocalServer { return nil }

// TestConnection lists the models of the OpenAI-compatible server at
// baseURL with key ("" none). Failures are errors in words: "the key was
// refused (401)", "cannot find host api.example.com", "nothing answers at
// 127.0.0.1:11434", "… is not an OpenAI-compatible server (…)".
func TestConnection(ctx context.Context, baseURL, key string) ([]string, error) { return nil, nil }

// Connected is what Connect did.
type Connected struct {
	Plugin string // the provider plugin it configured (OpenAIProvider)
	Linked bool   // the bundled plugin was linked because it was not installed
	Where  string // where the key is saved, in words ("" no key)
	// Models are the models the plugin will offer: the given ones, or
	// fetched from the server at each start when none were given.
	Models []string
	// Provider is the plugin's provider ref models are under
	// ("plugin/openai-provider/openai"): a menu id is Provider+"/"+model.
	Provider string
}

// Connect configures the bundled provider plugin for preset (an ID of
// Presets) at baseURL ("" the preset's) with key ("" none: keeps no key):
// links the bundled plugin when it is not installed, saves OPENAI_BASE_URL,
// OPENAI_API_KEY, and OPENAI_MODELS (models given) or OPENAI_FETCH_MODELS=1
// (none given). It needs no running core (the CLI); a running core
// restarts the plugin with Core.Connect.
func Connect(ctx context.Context, layout Layout, preset, baseURL, key string, models []string) (Connected, error) {
	return Connected{}, nil
}

// Connect is Connect on the core's data directory, then the plugin
// (re)started so the model menu lists its models. A restart that cannot
// happen now wraps ErrSavedNotRestarted.
func (c *Core) Connect(ctx context.Context, preset, baseURL, key string, models []string) (Connected, error) {
	return Connected{}, nil
}

// BundledPluginDir finds the bundled plugin name's folder next to the
// binary (an installed package's share/reasonix-desktop/examples, a
// build's examples/), or "" when it is not there.
func BundledPluginDir(name string) string { return "" }

// LinkBundledProvider links the bundled OpenAI-compatible provider when
// no plugin of that name is installed and the binary ships it (first
// start). It is harmless without a key: the plugin offers no model until
// one is connected. linked reports whether it linked it now.
func LinkBundledProvider(layout Layout) (linked bool, err error) { return false, nil }
