package main

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// providerRef is the one provider ref every model of this plugin shares; it
// matches the manifest's provides entry (namespace openai-provider, id openai).
const providerRef = "plugin/openai-provider/openai"

// defaultBaseURL is used when OPENAI_BASE_URL is unset.
const defaultBaseURL = "https://api.openai.com/v1"

// Environment variables (documented in README.md).
const (
	envBaseURL       = "OPENAI_BASE_URL"
	envAPIKey        = "OPENAI_API_KEY"
	envAPIKeyFile    = "OPENAI_API_KEY_FILE"
	envModels        = "OPENAI_MODELS"
	envFetchModels   = "OPENAI_FETCH_MODELS"
	envDisplayPrefix = "OPENAI_DISPLAY_PREFIX"
)

// config is the sidecar's whole configuration, read once at startup.
type config struct {
	baseURL string // without a trailing slash
	// apiKey goes only into the Authorization header of requests to baseURL.
	// It is never logged and never put in a descriptor or a chunk.
	apiKey string
	models []modelSpec
	fetch  bool
	prefix string
}

// modelSpec is one OPENAI_MODELS entry: a model name and its settings.
type modelSpec struct {
	Name          string
	ContextWindow int64
	In, Out       float64 // price per million input / output tokens
	Cache         float64 // price per million cache-hit input tokens
	Currency      string
	Reasoning     bool
	Vision        bool
	// RoundTrip sends the assistant's reasoning_content back to the model
	// (DeepSeek thinking mode with tool calls wants it; most servers reject it).
	RoundTrip bool
	Efforts   []string
}

// loadConfig reads the configuration through getenv and readFile (os.Getenv
// and os.ReadFile outside tests). Errors name the variable, never the key.
func loadConfig(getenv func(string) string, readFile func(string) ([]byte, error)) (config, error) {
	var c config
	base, err := parseBaseURL(getenv(envBaseURL))
	if err != nil {
		return config{}, err
	}
	c.baseURL = base
	if c.apiKey, err = loadKey(getenv, readFile); err != nil {
		return config{}, err
	}
	if c.models, err = parseModels(getenv(envModels)); err != nil {
		return config{}, err
	}
	if c.fetch, err = parseBool(envFetchModels, getenv(envFetchModels)); err != nil {
		return config{}, err
	}
	c.prefix = strings.TrimSpace(getenv(envDisplayPrefix))
	return c, nil
}

// parseBaseURL checks OPENAI_BASE_URL. The value is not echoed in errors: a
// URL may carry credentials in its userinfo or query.
func parseBaseURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return defaultBaseURL, nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%s must be an http or https URL such as %s", envBaseURL, defaultBaseURL)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("%s must not have a query or fragment", envBaseURL)
	}
	return strings.TrimRight(raw, "/"), nil
}

// loadKey returns the API key from OPENAI_API_KEY or OPENAI_API_KEY_FILE;
// an empty key is fine (local servers need none).
func loadKey(getenv func(string) string, readFile func(string) ([]byte, error)) (string, error) {
	key, file := strings.TrimSpace(getenv(envAPIKey)), strings.TrimSpace(getenv(envAPIKeyFile))
	if key != "" && file != "" {
		return "", fmt.Errorf("set only one of %s and %s", envAPIKey, envAPIKeyFile)
	}
	name := envAPIKey
	if file != "" {
		name = envAPIKeyFile
		// runtime.env values reach us without a shell to expand "~".
		if rest, ok := strings.CutPrefix(file, "~/"); ok && getenv("HOME") != "" {
			file = filepath.Join(getenv("HOME"), rest)
		}
		// Errors leave the path out: a user who pasted the key itself into
		// this variable must not see it printed back.
		b, err := readFile(file)
		if err != nil {
			return "", fmt.Errorf("%s: read the key file: %w", envAPIKeyFile, withoutPath(err))
		}
		key = strings.TrimSpace(string(b))
		if key == "" {
			return "", fmt.Errorf("%s: the key file is empty", envAPIKeyFile)
		}
	}
	// A key with control characters or blanks would break (or inject into)
	// the Authorization header.
	if strings.IndexFunc(key, func(r rune) bool { return unicode.IsControl(r) || unicode.IsSpace(r) }) >= 0 {
		return "", fmt.Errorf("%s: the key contains blanks or control characters", name)
	}
	return key, nil
}

// withoutPath drops the path of an *fs.PathError, keeping its cause ("no
// such file or directory", "permission denied").
func withoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return errors.New("unreadable")
}

func parseBool(name, v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "0", "false", "no", "off":
		return false, nil
	case "1", "true", "yes", "on":
		return true, nil
	}
	return false, fmt.Errorf("%s must be 1 or 0", name)
}

// parseModels parses OPENAI_MODELS: comma-separated entries
// name[:ctx=N][:in=X][:out=Y][:cache=Z][:currency=C][:reasoning][:vision]
// [:roundtrip][:efforts=a|b]. Model names may contain colons (Ollama tags
// such as llama3.1:8b): segments before the first setting belong to the name.
func parseModels(v string) ([]modelSpec, error) {
	var out []modelSpec
	seen := map[string]bool{}
	for i, entry := range strings.Split(v, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		m, err := parseModel(entry)
		if err != nil {
			return nil, fmt.Errorf("%s entry %d (%q): %w", envModels, i+1, entry, err)
		}
		if seen[m.Name] {
			return nil, fmt.Errorf("%s entry %d: model %q is listed twice", envModels, i+1, m.Name)
		}
		seen[m.Name] = true
		out = append(out, m)
	}
	return out, nil
}

func parseModel(entry string) (modelSpec, error) {
	segs := strings.Split(entry, ":")
	n := 1
	for n < len(segs) && !isSetting(segs[n]) {
		n++
	}
	m := modelSpec{Name: strings.TrimSpace(strings.Join(segs[:n], ":"))}
	if m.Name == "" {
		return modelSpec{}, errors.New("the model name is empty")
	}
	set := map[string]bool{}
	for _, seg := range segs[n:] {
		key, val, hasVal := strings.Cut(strings.TrimSpace(seg), "=")
		key = strings.ToLower(strings.TrimSpace(key))
		val = strings.TrimSpace(val)
		if set[key] {
			return modelSpec{}, fmt.Errorf("%s is set twice", key)
		}
		set[key] = true
		if flag := flags[key]; flag != nil {
			if hasVal {
				return modelSpec{}, fmt.Errorf("%s takes no value", key)
			}
			flag(&m)
			continue
		}
		if !hasVal {
			return modelSpec{}, fmt.Errorf("unknown setting %q (want ctx=, in=, out=, cache=, currency=, efforts=, reasoning, vision or roundtrip)", key)
		}
		if err := setValue(&m, key, val); err != nil {
			return modelSpec{}, err
		}
	}
	if m.Currency == "" && (m.In > 0 || m.Out > 0 || m.Cache > 0) {
		m.Currency = "USD"
	}
	return m, nil
}

// flags are the settings without a value.
var flags = map[string]func(*modelSpec){
	"reasoning": func(m *modelSpec) { m.Reasoning = true },
	"vision":    func(m *modelSpec) { m.Vision = true },
	"roundtrip": func(m *modelSpec) { m.Reasoning, m.RoundTrip = true, true },
}

var valueKeys = []string{"ctx", "in", "out", "cache", "currency", "efforts"}

// isSetting reports whether a segment is a setting rather than part of the
// model name. Anything with '=' counts, so a typo fails loudly instead of
// becoming part of the name.
func isSetting(seg string) bool {
	seg = strings.ToLower(strings.TrimSpace(seg))
	return strings.Contains(seg, "=") || flags[seg] != nil
}

func setValue(m *modelSpec, key, val string) error {
	if val == "" {
		return fmt.Errorf("%s needs a value", key)
	}
	price := func(dst *float64) error {
		f, err := strconv.ParseFloat(val, 64)
		if err != nil || f < 0 || math.IsNaN(f) || f > 1e9 {
			return fmt.Errorf("%s=%s: want a price per million tokens such as 0.27", key, val)
		}
		*dst = f
		return nil
	}
	switch key {
	case "ctx":
		n, err := parseTokens(val)
		if err != nil {
			return fmt.Errorf("ctx=%s: %w", val, err)
		}
		m.ContextWindow = n
	case "in":
		return price(&m.In)
	case "out":
		return price(&m.Out)
	case "cache":
		return price(&m.Cache)
	case "currency":
		if len(val) > 8 || strings.IndexFunc(val, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
			return fmt.Errorf("currency=%s: want a currency code such as USD or CNY", val)
		}
		m.Currency = strings.ToUpper(val)
	case "efforts":
		for e := range strings.SplitSeq(val, "|") {
			if e = strings.TrimSpace(e); e != "" {
				m.Efforts = append(m.Efforts, e)
			}
		}
	default:
		return fmt.Errorf("unknown setting %q (want one of %s)", key, strings.Join(valueKeys, ", "))
	}
	return nil
}

// parseTokens accepts 131072, 128k or 1m.
func parseTokens(v string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(strings.ToLower(v), "k"):
		mult, v = 1024, v[:len(v)-1]
	case strings.HasSuffix(strings.ToLower(v), "m"):
		mult, v = 1024*1024, v[:len(v)-1]
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 || n > 1<<40/mult {
		return 0, errors.New("want a positive token count such as 131072 or 128k")
	}
	return n * mult, nil
}

// descriptor is the catalog entry of m. It carries no endpoint and no key.
func (m modelSpec) descriptor(prefix string) protocol.ProviderDescriptor {
	name := m.Name
	if prefix != "" {
		name = prefix + " " + m.Name
	}
	return protocol.ProviderDescriptor{
		Ref:                providerRef,
		Model:              m.Name,
		DisplayName:        name,
		ContextWindow:      m.ContextWindow,
		InputPerMillion:    m.In,
		OutputPerMillion:   m.Out,
		CacheHitPerMillion: m.Cache,
		PricingCurrency:    m.Currency,
		Tools:              true,
		Reasoning:          m.Reasoning,
		ReasoningRoundTrip: m.RoundTrip,
		Vision:             m.Vision,
		Efforts:            m.Efforts,
	}
}

// mergeCatalog lists the configured models first (the user's order), then
// the server's other models with default settings.
func mergeCatalog(configured []modelSpec, fetched []string) []modelSpec {
	out := append([]modelSpec(nil), configured...)
	seen := map[string]bool{}
	for _, m := range configured {
		seen[m.Name] = true
	}
	for _, name := range fetched {
		if name != "" && !seen[name] {
			seen[name] = true
			out = append(out, modelSpec{Name: name})
		}
	}
	return out
}
