package agent

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// Connecting a model: the bundled OpenAI-compatible provider plugin
// (examples/openai-provider) pointed at a server from a preset list, the
// key saved where provider keys are saved (ProviderKeys).

// OpenAIProvider is the bundled provider plugin's name.
const OpenAIProvider = "openai-provider"

// openAIProviderRef is the provider ref its models are under.
const openAIProviderRef = "plugin/" + OpenAIProvider + "/openai"

// The variables of the bundled plugin Connect sets (its manifest declares them).
const (
	varBaseURL = "OPENAI_BASE_URL"
	varKey     = "OPENAI_API_KEY"
	varKeyFile = "OPENAI_API_KEY_FILE"
	varModels  = "OPENAI_MODELS"
	varFetch   = "OPENAI_FETCH_MODELS"
	varPrefix  = "OPENAI_DISPLAY_PREFIX"
)

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
	// Pricing names the price list its models are priced from ("deepseek";
	// "" none known: internal/core/pricing has no other vendor's list yet).
	Pricing string
	// LocalPort is the port a local server listens on (11434, 1234); 0 for
	// remote servers.
	LocalPort int
	// Balance: the server answers GET /user/balance (DeepSeek).
	Balance bool
	// KeyURL is where the vendor hands out keys ("" none).
	KeyURL string
}

// presets are the servers Connect knows, DeepSeek first. Base URLs are the
// vendors' documented OpenAI-compatible endpoints.
var presets = []Preset{
	{ID: "deepseek", Name: "DeepSeek", BaseURL: "https://api.deepseek.com", KeyNeeded: true, ModelsPath: "/models",
		Pricing: "deepseek", Balance: true, KeyURL: "https://platform.deepseek.com/api_keys"},
	{ID: "openai", Name: "OpenAI", BaseURL: "https://api.openai.com/v1", KeyNeeded: true, ModelsPath: "/models",
		KeyURL: "https://platform.openai.com/api-keys"},
	{ID: "ollama", Name: "Ollama", BaseURL: "http://127.0.0.1:11434/v1", ModelsPath: "/models", LocalPort: 11434},
	{ID: "lmstudio", Name: "LM Studio", BaseURL: "http://127.0.0.1:1234/v1", ModelsPath: "/models", LocalPort: 1234},
	{ID: "openrouter", Name: "OpenRouter", BaseURL: "https://openrouter.ai/api/v1", KeyNeeded: true, ModelsPath: "/models",
		KeyURL: "https://openrouter.ai/keys"},
	{ID: "siliconflow", Name: "SiliconFlow", BaseURL: "https://api.siliconflow.cn/v1", KeyNeeded: true, ModelsPath: "/models",
		KeyURL: "https://cloud.siliconflow.cn/account/ak"},
	{ID: "moonshot", Name: "Moonshot", BaseURL: "https://api.moonshot.cn/v1", KeyNeeded: true, ModelsPath: "/models",
		KeyURL: "https://platform.moonshot.cn/console/api-keys"},
	{ID: "dashscope", Name: "DashScope (Qwen)", BaseURL: "https://dashscope.aliyuncs.com/compatible-mode/v1", KeyNeeded: true, ModelsPath: "/models"},
	{ID: "zhipu", Name: "Zhipu (GLM)", BaseURL: "https://open.bigmodel.cn/api/paas/v4", KeyNeeded: true, ModelsPath: "/models"},
	{ID: "custom", Name: "Custom (OpenAI-compatible)", ModelsPath: "/models"},
}

// Presets lists the presets, DeepSeek first, "custom" last.
func Presets() []Preset { return slices.Clone(presets) }

// PresetByID finds a preset by its ID.
func PresetByID(id string) (Preset, bool) {
	for _, p := range presets {
		if p.ID == id {
			return p, true
		}
	}
	return Preset{}, false
}

// LocalServer is a server DetectLocal found.
type LocalServer struct {
	Preset  string // the preset's ID
	BaseURL string
	Models  []string
}

// detectTimeout bounds each local probe: a local server answers its model
// list in milliseconds; a port nobody listens on refuses at once.
const detectTimeout = 800 * time.Millisecond

// DetectLocal asks the local presets' ports (Ollama :11434, LM Studio
// :1234) for their models, each with a short timeout, at once; the ones
// that answered are returned in the presets' order.
func DetectLocal(ctx context.Context) []LocalServer {
	found := make([]*LocalServer, len(presets))
	var wg sync.WaitGroup
	for i, p := range presets {
		if p.LocalPort == 0 {
			continue
		}
		wg.Go(func() {
			pctx, cancel := context.WithTimeout(ctx, detectTimeout)
			defer cancel()
			if models, err := listModels(pctx, p.BaseURL, p.ModelsPath, ""); err == nil {
				found[i] = &LocalServer{Preset: p.ID, BaseURL: p.BaseURL, Models: models}
			}
		})
	}
	wg.Wait()
	var out []LocalServer
	for _, f := range found {
		if f != nil {
			out = append(out, *f)
		}
	}
	return out
}

// testTimeout bounds TestConnection when ctx has no deadline of its own.
const testTimeout = 15 * time.Second

// TestConnection lists the models of the OpenAI-compatible server at
// baseURL with key ("" none). Failures are errors in words: "the key was
// refused (401)", "cannot find host api.example.com", "nothing answers at
// 127.0.0.1:11434", "… is not an OpenAI-compatible server (…)".
func TestConnection(ctx context.Context, baseURL, key string) ([]string, error) {
	base, err := checkBaseURL(baseURL)
	if err != nil {
		return nil, err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, testTimeout)
		defer cancel()
	}
	return listModels(ctx, base, "/models", key)
}

// checkBaseURL is the base URL as the plugin wants it (http or https, no
// query, no trailing slash), or an error in words.
func checkBaseURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", errors.New("enter the server's address (its base URL, such as https://api.deepseek.com)")
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an http or https address", raw)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", errors.New("the address must not carry a query, a fragment or a user name (the key goes in the key field)")
	}
	return strings.TrimRight(raw, "/"), nil
}

// client is the HTTP client of the connection tests and the balance: no
// proxy surprises beyond the environment's, and redirects are not followed
// with the key to another host (net/http drops Authorization on a host
// change).
var client = &http.Client{}

// listModels is GET base+path with the key, read as an OpenAI model list.
func listModels(ctx context.Context, base, path, key string) ([]string, error) {
	body, err := getJSON(ctx, base+path, key)
	if err != nil {
		return nil, err
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
		Models []struct { // Ollama's own /api/tags shape, if a user points at it
			Name string `json:"name"`
		} `json:"models"`
	}
	if err := json.Unmarshal(body, &list); err != nil || (list.Data == nil && list.Models == nil) {
		return nil, fmt.Errorf("%s did not answer like an OpenAI-compatible server (no model list at %s)", hostOf(base), path)
	}
	out := []string{}
	for _, m := range list.Data {
		if m.ID != "" {
			out = append(out, m.ID)
		}
	}
	for _, m := range list.Models {
		if m.Name != "" {
			out = append(out, m.Name)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// maxBody bounds what is read of an answer (a model list of thousands of
// entries is a few hundred kilobytes).
const maxBody = 8 << 20

// getJSON GETs address with the key and returns the body of a 2xx answer;
// every failure is an error in words, without the key.
func getJSON(ctx context.Context, address, key string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, address, nil)
	if err != nil {
		return nil, fmt.Errorf("%q is not an address: %w", address, err)
	}
	req.Header.Set("Accept", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, netWords(req.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return nil, fmt.Errorf("%s stopped answering: %w", hostOf(address), err)
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized:
		if key == "" {
			return nil, errors.New("the server wants an API key (401)")
		}
		return nil, errors.New("the key was refused (401)")
	case resp.StatusCode == http.StatusForbidden:
		return nil, errors.New("the key is not allowed to do this (403)")
	case resp.StatusCode == http.StatusNotFound:
		return nil, fmt.Errorf("%s has nothing at %s (404): is the address right? Most OpenAI-compatible servers end in /v1", hostOf(address), req.URL.Path)
	case resp.StatusCode == http.StatusPaymentRequired:
		return nil, errors.New("the account has no balance left (402)")
	case resp.StatusCode == http.StatusTooManyRequests:
		return nil, errors.New("the server is rate-limiting this key (429); try again in a moment")
	case resp.StatusCode/100 != 2:
		return nil, fmt.Errorf("the server answered %s", resp.Status)
	}
	return body, nil
}

// netWords says what a failed request met, in words.
func netWords(u *url.URL, err error) error {
	host := u.Host
	var dns *net.DNSError
	var certErr *tls.CertificateVerificationError
	switch {
	case errors.Is(err, context.Canceled):
		return errors.New("cancelled")
	case errors.As(err, &dns) && dns.IsNotFound:
		return fmt.Errorf("cannot find host %s (check the address and the network)", u.Hostname())
	case errors.As(err, &dns):
		return fmt.Errorf("cannot look up %s: %v", u.Hostname(), dns.Err)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("nothing answers at %s (is the server running?)", host)
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return fmt.Errorf("%s did not answer in time", host)
	case errors.As(err, &certErr):
		return fmt.Errorf("the secure connection to %s failed: its certificate is not trusted", host)
	}
	return fmt.Errorf("cannot reach %s: %w", host, err)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func hostOf(address string) string {
	if u, err := url.Parse(address); err == nil && u.Host != "" {
		return u.Host
	}
	return "the server"
}

// Connected is what Connect did.
type Connected struct {
	Plugin string // the provider plugin it configured (OpenAIProvider)
	Linked bool   // the bundled plugin was linked because it was not installed
	Where  string // where the key is saved, in words ("" no key)
	// Models are the models the plugin will offer: the given ones, or
	// fetched from the server at each start when none were given (nil).
	Models []string
	// Provider is the plugin's provider ref models are under
	// ("plugin/openai-provider/openai"): a menu id is Provider+"/"+model.
	Provider string
}

// Connect configures the bundled provider plugin for preset (an ID of
// Presets) at baseURL ("" the preset's) with key: links the bundled plugin
// when it is not installed, saves OPENAI_BASE_URL, OPENAI_API_KEY, and
// OPENAI_MODELS (models given) or OPENAI_FETCH_MODELS=1 (none given). An
// empty key keeps the key saved for the same address (so a dialog need
// never show a saved key back), and clears it for a local server or
// another address (a key is never sent to a server it was not given for).
// It needs no running core (the CLI); a running core restarts the plugin
// with Core.Connect.
func Connect(ctx context.Context, layout Layout, preset, baseURL, key string, models []string) (Connected, error) {
	return connect(ctx, layout, OpenProviderKeys(layout, nil, nil), preset, baseURL, key, models)
}

func connect(_ context.Context, layout Layout, keys *ProviderKeys, preset, baseURL, key string, models []string) (Connected, error) {
	p, ok := PresetByID(preset)
	if !ok {
		return Connected{}, fmt.Errorf("no preset %q (presets: %s)", preset, presetIDs())
	}
	if baseURL == "" {
		baseURL = p.BaseURL
	}
	base, err := checkBaseURL(baseURL)
	if err != nil {
		return Connected{}, err
	}
	key = strings.TrimSpace(key)
	if strings.ContainsAny(key, " \t\r\n") {
		return Connected{}, errors.New("the key contains blanks: paste it again")
	}
	linked, err := linkBundled(layout)
	if err != nil {
		return Connected{}, err
	}
	if key == "" && p.LocalPort == 0 {
		key, err = keptKey(keys, base)
		if err != nil {
			return Connected{}, err
		}
	}
	if key == "" && p.KeyNeeded {
		return Connected{}, fmt.Errorf("%s needs an API key", p.Name)
	}
	var clean []string
	for _, m := range models {
		if m = strings.TrimSpace(m); m != "" && !slices.Contains(clean, m) {
			clean = append(clean, m)
		}
	}
	set := map[string]string{varBaseURL: base, varKey: key, varKeyFile: "", varModels: strings.Join(clean, ","), varFetch: "1", varPrefix: ""}
	if len(clean) > 0 {
		set[varFetch] = ""
	}
	if p.ID != "custom" {
		set[varPrefix] = p.Name
	}
	if err := keys.Save(OpenAIProvider, set); err != nil {
		return Connected{}, fmt.Errorf("save the connection: %w", err)
	}
	out := Connected{Plugin: OpenAIProvider, Linked: linked, Models: clean, Provider: openAIProviderRef}
	if key != "" {
		out.Where = keys.Where()
	}
	return out, nil
}

// keptKey is the key saved for the plugin when the saved address is base.
func keptKey(keys *ProviderKeys, base string) (string, error) {
	saved, ok, err := keys.store.Get(OpenAIProvider, varBaseURL)
	if err != nil || !ok || strings.TrimRight(saved, "/") != base {
		return "", err
	}
	key, _, err := keys.store.Get(OpenAIProvider, varKey)
	return key, err
}

func presetIDs() string {
	ids := make([]string, len(presets))
	for i, p := range presets {
		ids[i] = p.ID
	}
	return strings.Join(ids, ", ")
}

// Connect is Connect on the core's data directory and key store, then
// the plugins restarted so the model menu lists the new models. A restart
// that cannot happen now (a turn is running) wraps ErrSavedNotRestarted:
// the connection is saved and used at the next start.
func (c *Core) Connect(ctx context.Context, preset, baseURL, key string, models []string) (Connected, error) {
	out, err := connect(ctx, c.cfg.Layout, c.keys, preset, baseURL, key, models)
	if err != nil {
		return Connected{}, err
	}
	if err := c.guarded(OpPluginSet, func() error { return c.reloadAfter(ctx) }); err != nil {
		return out, fmt.Errorf("%w: %v", ErrSavedNotRestarted, err)
	}
	return out, nil
}

// BundledDirEnv names a folder holding the bundled plugins' folders; it
// wins over the places next to the binary (tests, unusual layouts).
const BundledDirEnv = "REASONIX_BUNDLED_PLUGINS"

// BundledPluginDir finds the bundled plugin name's folder: $REASONIX_BUNDLED_PLUGINS,
// else next to the binary — an installed package's
// ../share/reasonix-desktop/examples (/usr/bin → /usr/share), a build's
// ../examples (bin/reasonix-desktop in the source tree) or ./examples. A
// folder counts when it holds the manifest and the built sidecar. "" when
// none does.
func BundledPluginDir(name string) string {
	var roots []string
	if d := os.Getenv(BundledDirEnv); d != "" {
		roots = append(roots, d)
	}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		dir := filepath.Dir(exe)
		roots = append(roots, filepath.Join(dir, "..", "share", "reasonix-desktop", "examples"),
			filepath.Join(dir, "..", "examples"), filepath.Join(dir, "examples"))
	}
	bin := name
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	for _, r := range roots {
		d := filepath.Join(r, name)
		if fileExists(filepath.Join(d, ManifestFile)) && fileExists(filepath.Join(d, "bin", bin)) {
			if abs, err := filepath.Abs(d); err == nil {
				return abs
			}
			return d
		}
	}
	return ""
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// ErrNotBundled: the binary ships no copy of the bundled provider.
var ErrNotBundled = errors.New(OpenAIProvider + " is not installed and this build ships no copy next to the binary: install it with `reasonix-desktop plugin install <folder of examples/openai-provider>`")

// bundledMark, in the data directory, records that the first start linked
// the bundled provider: a user who removes it later does not get it back.
const bundledMark = ".bundled-provider-linked"

// LinkBundledProvider is the first start's step: it links the bundled
// OpenAI-compatible provider once per data directory, when no plugin of
// that name is installed and the binary ships it. It is harmless without
// a key: with no address, no key and no models the plugin starts, reaches
// no server and offers no model until Connect configures it. linked
// reports whether it linked it now; a binary that ships no copy returns
// ErrNotBundled (a start may ignore it).
func LinkBundledProvider(layout Layout) (linked bool, err error) {
	mark := filepath.Join(layout.Root, bundledMark)
	if fileExists(mark) {
		return false, nil
	}
	linked, err = linkBundled(layout)
	if err != nil {
		return false, err
	}
	if werr := os.WriteFile(mark, []byte("the first start linked the bundled openai-provider (or found one installed)\n"), 0o600); werr != nil {
		return linked, fmt.Errorf("record the first start: %w", werr)
	}
	return linked, nil
}

// linkBundled links the bundled provider unless one is installed.
func linkBundled(layout Layout) (bool, error) {
	if err := layout.EnsureDirs(); err != nil {
		return false, fmt.Errorf("prepare the data directory: %w", err)
	}
	st, err := plugin.OpenStore(layout)
	if err != nil {
		return false, fmt.Errorf("open the plugin store: %w", err)
	}
	if _, ok := st.Get(OpenAIProvider); ok {
		return false, nil
	}
	dir := BundledPluginDir(OpenAIProvider)
	if dir == "" {
		return false, ErrNotBundled
	}
	plan, err := plugin.Preview(st, dir, plugin.InstallOptions{Link: true, Name: OpenAIProvider})
	if err != nil {
		return false, fmt.Errorf("link the bundled %s: %w", OpenAIProvider, err)
	}
	if _, err := plugin.Install(st, layout, plan); err != nil {
		return false, fmt.Errorf("link the bundled %s: %w", OpenAIProvider, err)
	}
	return true, nil
}
