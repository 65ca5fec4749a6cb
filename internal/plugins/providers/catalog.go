package providers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// CatalogTimeout bounds one extension/provider/catalog call.
const CatalogTimeout = 10 * time.Second

// Client is what the catalog and streams need of a sidecar client.
type Client interface {
	Name() string
	Call(ctx context.Context, method string, params, result any) error
	State() sidecar.State
}

// Catalog aggregates the models of every provider sidecar. Each client is
// asked once (one fetch in flight per plugin), the answer is cached for that
// client, and a crashed client's entries are dropped.
type Catalog struct {
	log     *slog.Logger
	timeout time.Duration

	mu      sync.Mutex
	entries map[Client]*catalogEntry
}

type catalogEntry struct {
	done   chan struct{}
	models []Model
	err    error
}

// NewCatalog makes an empty catalog.
func NewCatalog(log *slog.Logger) *Catalog { return NewCatalogWithTimeout(log, CatalogTimeout) }

// NewCatalogWithTimeout makes an empty catalog with another fetch timeout
// (tests).
func NewCatalogWithTimeout(log *slog.Logger, timeout time.Duration) *Catalog {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if timeout <= 0 {
		timeout = CatalogTimeout
	}
	return &Catalog{log: log, timeout: timeout, entries: map[Client]*catalogEntry{}}
}

// Models returns the models of the given provider clients, sorted by id, and
// one error per plugin whose catalog could not be fetched.
func (c *Catalog) Models(ctx context.Context, clients []Client) ([]Model, []error) {
	entries := make([]*catalogEntry, 0, len(clients))
	c.mu.Lock()
	live := map[Client]bool{}
	for _, cl := range clients {
		if cl.State() != sidecar.StateActive {
			continue
		}
		live[cl] = true
		e, ok := c.entries[cl]
		if !ok {
			e = &catalogEntry{done: make(chan struct{})}
			c.entries[cl] = e
			go c.fetch(cl, e)
		}
		entries = append(entries, e)
	}
	for cl := range c.entries { // clients of old generations or crashed ones
		if !live[cl] {
			delete(c.entries, cl)
		}
	}
	c.mu.Unlock()

	var models []Model
	var errs []error
	for _, e := range entries {
		select {
		case <-e.done:
		case <-ctx.Done():
			return models, append(errs, ctx.Err())
		}
		models = append(models, e.models...)
		if e.err != nil {
			errs = append(errs, e.err)
		}
	}
	sort.Slice(models, func(i, j int) bool { return models[i].ID < models[j].ID })
	return models, errs
}

// Invalidate forgets a client's cached catalog (the next Models asks again).
func (c *Catalog) Invalidate(cl Client) {
	c.mu.Lock()
	delete(c.entries, cl)
	c.mu.Unlock()
}

func (c *Catalog) fetch(cl Client, e *catalogEntry) {
	defer close(e.done)
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	var res protocol.ProviderCatalogResult
	if err := cl.Call(ctx, protocol.MethodProviderCatalog, protocol.ProviderCatalogParams{}, &res); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			// Say so: "not in the catalog" would send the user looking for
			// a model that may well be there.
			e.err = protocol.Errorf(protocol.ReasonProviderInterrupted,
				"catalog of %s timed out: no answer to %s within %s", cl.Name(), protocol.MethodProviderCatalog, c.timeout)
		} else {
			e.err = fmt.Errorf("catalog of %s: %s", cl.Name(), redact.String(err.Error()))
		}
		// A failed fetch is not cached: the next Models asks again.
		c.mu.Lock()
		if c.entries[cl] == e {
			delete(c.entries, cl)
		}
		c.mu.Unlock()
		return
	}
	for _, d := range res.Providers {
		m, ok := modelFrom(cl.Name(), d)
		if !ok {
			c.log.Warn("catalog entry skipped: outside the plugin's namespace or without a model",
				"plugin", cl.Name(), "ref", redact.String(d.Ref))
			continue
		}
		m.DisplayName = redact.String(m.DisplayName)
		e.models = append(e.models, m)
	}
}
