// Command openai-provider serves models of any OpenAI-compatible chat
// completions server (OpenAI, DeepSeek, Ollama, llama.cpp, vLLM, ...) to
// Reasonix as a provider plugin. It reads its endpoint, key and model list
// from its own environment (see README.md); the key is only ever sent in the
// Authorization header of requests to the configured base URL, never over
// the plugin protocol and never to the log.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/reasonix/reasonix-desktop/sdk"
)

// fetchTimeout bounds GET {base}/models at startup (the host gives all
// plugins 30 s to start).
const fetchTimeout = 10 * time.Second

func main() { os.Exit(run()) }

func run() int {
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	cfg, err := loadConfig(os.Getenv, os.ReadFile)
	if err != nil {
		// Plain text: it ends up in the plugin manager's stderr tail.
		fmt.Fprintln(os.Stderr, "openai-provider: configuration error:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	p := newProvider(cfg, log)
	if cfg.fetch {
		names, err := p.fetchModels(ctx)
		if err != nil {
			log.Warn(envFetchModels+": could not list the server's models; using "+envModels, "cause", err.Error())
		}
		p.catalog = mergeCatalog(cfg.models, names)
	}
	if len(p.catalog) == 0 {
		log.Warn("no models: set " + envModels + " (e.g. gpt-4o-mini) or " + envFetchModels + "=1")
	}
	log.Info("openai-provider ready", "models", len(p.catalog), "hasKey", cfg.apiKey != "")
	err = sdk.Serve(ctx, &sdk.Plugin{
		Name:      "openai-provider",
		Version:   "0.1.0",
		Providers: []sdk.Provider{p},
		Logger:    log,
	})
	if err != nil && !errors.Is(err, context.Canceled) {
		log.Error("serve", "error", err.Error())
		return 1
	}
	return 0
}

// fetchModels lists the server's model ids (GET {base}/models). Its errors
// are safe to log: a status, a network cause class or a decode failure.
func (p *provider) fetchModels(ctx context.Context) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.cfg.baseURL+"/models", nil)
	if err != nil {
		return nil, errors.New("could not build the request")
	}
	req.Header.Set("Accept", "application/json")
	p.authorize(req)
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, errors.New(netCause(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 16<<20)).Decode(&list); err != nil {
		return nil, errors.New("the answer is not a model list")
	}
	names := make([]string, 0, len(list.Data))
	for _, m := range list.Data {
		names = append(names, m.ID)
	}
	return names, nil
}
