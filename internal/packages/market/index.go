package market

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/jsonerr"
)

// Kinds of market packages. Only KindPlugin installs here; the others
// are listed so a search shows the whole market.
const (
	KindSkill  = "skill"
	KindPlugin = "plugin"
	KindMCP    = "mcp"
	KindTheme  = "theme"
)

// Index is a market's index document.
type Index struct {
	// SchemaVersion is the index format; this client reads 1.
	SchemaVersion int     `json:"schemaVersion"`
	Name          string  `json:"name,omitempty"`
	GeneratedAt   string  `json:"generatedAt,omitempty"`
	Packages      []Entry `json:"packages"`
	// URL is where the index was read from (not part of the document):
	// relative sources resolve against it.
	URL string `json:"-"`
}

// Entry is one approved package version in the index.
type Entry struct {
	ID          string   `json:"id"`
	Kind        string   `json:"kind"`
	Name        string   `json:"name"`
	Version     string   `json:"version"`
	Summary     string   `json:"summary,omitempty"`
	Description string   `json:"description,omitempty"`
	Author      string   `json:"author,omitempty"`
	License     string   `json:"license,omitempty"`
	Repository  string   `json:"repository,omitempty"`
	Tags        []string `json:"tags,omitempty"`
	// Source is the fixed source of this version: an archive (.tar.gz,
	// .tgz or .zip) by URL, absolute or relative to the index, or a git
	// source pinned to a commit (a GitHub tree URL with the full commit
	// id, as the real market asks of plugins).
	Source string `json:"source"`
	// ContentSHA256 is the digest the reviewer pinned (Digest of the
	// package's files), hex, optionally "sha256:"-prefixed; empty for a
	// version approved without one.
	ContentSHA256 string `json:"contentSha256,omitempty"`
	Votes         int    `json:"votes,omitempty"`
	Installs      int    `json:"installs,omitempty"`
	UpdatedAt     string `json:"updatedAt,omitempty"`
}

// IDPattern is what a market id looks like: no slash, so `plugin install
// ID` never reads as owner/repo or a path.
var IDPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,127}$`)

// ValidID reports whether id could name a market entry.
func ValidID(id string) bool { return IDPattern.MatchString(id) && !strings.Contains(id, "..") }

// MaxIndexBytes caps the index document.
const MaxIndexBytes = 16 << 20

// IndexURL is the index document's URL for a market URL: the URL itself
// when it names a .json file, else index.json under it.
func IndexURL(market string) (string, error) {
	market = strings.TrimSpace(market)
	if market == "" {
		return "", errors.New("no market URL is set (set one with `reasonix-desktop plugin market set URL`, or pass --market URL)")
	}
	u, err := url.Parse(market)
	if err != nil {
		return "", fmt.Errorf("market URL %q: %w", market, err)
	}
	switch u.Scheme {
	case "http", "https", "file":
	default:
		return "", fmt.Errorf("market URL %q: want an http, https or file URL", market)
	}
	if strings.HasSuffix(u.Path, ".json") {
		return u.String(), nil
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/index.json"
	return u.String(), nil
}

// Client reads a market. The zero value uses DefaultTimeout and no
// client of its own.
type Client struct {
	// HTTP is the client for http(s) URLs (nil: a client with Timeout).
	HTTP *http.Client
	// Timeout bounds each request when HTTP is nil.
	Timeout time.Duration
	// Cache, when set, keeps the indexes read over HTTP with their ETag,
	// so reading one again asks the server whether it changed
	// (If-None-Match) instead of fetching it whole: a Discover view
	// searches the same index again and again. Last-Modified is not
	// used: its one-second grain would hide an index rewritten within
	// the second it was read.
	Cache *Cache
}

// Cache is a Client's cache of indexes (safe for concurrent use). An
// index is always revalidated, never served stale: a changed index is
// seen at once (the update check depends on it).
type Cache struct {
	mu sync.Mutex
	m  map[string]cachedIndex
}

type cachedIndex struct {
	etag string
	data []byte
}

// get reads the index at u, revalidating a cached copy.
func (ca *Cache) get(ctx context.Context, c *Client, u string) ([]byte, error) {
	ca.mu.Lock()
	old, have := ca.m[u]
	ca.mu.Unlock()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	if have && old.etag != "" {
		req.Header.Set("If-None-Match", old.etag)
	}
	resp, err := c.httpClient().Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotModified && have:
		return old.data, nil
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxIndexBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", u, err)
	}
	if len(data) > MaxIndexBytes {
		return nil, fmt.Errorf("%s is over the %d-byte cap", u, MaxIndexBytes)
	}
	entry := cachedIndex{etag: resp.Header.Get("ETag"), data: data}
	ca.mu.Lock()
	defer ca.mu.Unlock()
	if ca.m == nil {
		ca.m = map[string]cachedIndex{}
	}
	if entry.etag != "" {
		ca.m[u] = entry
	} else {
		delete(ca.m, u)
	}
	return data, nil
}

// DefaultTimeout bounds one request to the market: an index or a
// package archive.
const DefaultTimeout = 2 * time.Minute

func (c *Client) httpClient() *http.Client {
	if c != nil && c.HTTP != nil {
		return c.HTTP
	}
	t := DefaultTimeout
	if c != nil && c.Timeout > 0 {
		t = c.Timeout
	}
	return &http.Client{Timeout: t}
}

// Index fetches and decodes the index of the market at market (see
// IndexURL).
func (c *Client) Index(ctx context.Context, market string) (*Index, error) {
	u, err := IndexURL(market)
	if err != nil {
		return nil, err
	}
	var data []byte
	if c != nil && c.Cache != nil && (strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")) {
		data, err = c.Cache.get(ctx, c, u)
	} else {
		data, err = c.get(ctx, u, MaxIndexBytes)
	}
	if err != nil {
		return nil, fmt.Errorf("market index: %w", err)
	}
	idx, err := ParseIndex(data)
	if err != nil {
		return nil, fmt.Errorf("market index %s: %w", u, err)
	}
	idx.URL = u
	return idx, nil
}

// ParseIndex decodes an index document and checks its entries: each has a
// valid id (unique), a kind, a name, a version and a source, and a pinned
// hash that is a sha256.
func ParseIndex(data []byte) (*Index, error) {
	var idx Index
	if err := jsonerr.Unmarshal(data, &idx); err != nil {
		return nil, fmt.Errorf("not a market index: %w", err)
	}
	if idx.SchemaVersion != 1 {
		return nil, fmt.Errorf("schemaVersion %d: this client reads version 1", idx.SchemaVersion)
	}
	seen := map[string]bool{}
	for i, e := range idx.Packages {
		where := fmt.Sprintf("packages[%d]", i)
		switch {
		case !ValidID(e.ID):
			return nil, fmt.Errorf("%s: id %q is not a market id (%s)", where, e.ID, IDPattern)
		case seen[e.ID]:
			return nil, fmt.Errorf("%s: id %q is listed twice", where, e.ID)
		case e.Kind == "":
			return nil, fmt.Errorf("%s (%s): no kind", where, e.ID)
		case e.Name == "" || e.Version == "" || e.Source == "":
			return nil, fmt.Errorf("%s (%s): name, version and source are required", where, e.ID)
		}
		if e.ContentSHA256 != "" {
			if _, err := ParseDigest(e.ContentSHA256); err != nil {
				return nil, fmt.Errorf("%s (%s): contentSha256: %w", where, e.ID, err)
			}
		}
		seen[e.ID] = true
	}
	return &idx, nil
}

// Find returns the entry id.
func (idx *Index) Find(id string) (Entry, bool) {
	for _, e := range idx.Packages {
		if e.ID == id {
			return e, true
		}
	}
	return Entry{}, false
}

// Search returns the entries matching every word of query (in the id,
// name, summary, description, author or tags, case-insensitive) and, when
// kind is set, of that kind. An empty query matches everything. The
// best first: a word that is the id or the name, then one found in the
// name, then the most installed, the most voted, by id.
func (idx *Index) Search(query, kind string) []Entry {
	words := strings.Fields(strings.ToLower(query))
	type hit struct {
		e     Entry
		score int
	}
	var hits []hit
	for _, e := range idx.Packages {
		if kind != "" && e.Kind != kind {
			continue
		}
		hay := strings.ToLower(strings.Join(append([]string{e.ID, e.Name, e.Summary, e.Description, e.Author}, e.Tags...), "\n"))
		name := strings.ToLower(e.Name)
		score, all := 0, true
		for _, w := range words {
			switch {
			case w == e.ID || w == name:
				score += 4
			case strings.Contains(name, w) || strings.Contains(e.ID, w):
				score += 2
			case strings.Contains(hay, w):
				score++
			default:
				all = false
			}
		}
		if all {
			hits = append(hits, hit{e, score})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(b.e.Installs, a.e.Installs),
			cmp.Compare(b.e.Votes, a.e.Votes), cmp.Compare(a.e.ID, b.e.ID))
	})
	out := make([]Entry, len(hits))
	for i, h := range hits {
		out[i] = h.e
	}
	return out
}

// ResolveSource is e's source as an absolute URL: a relative source is
// read against the index's URL (a private market serves its archives
// beside its index). A market on the network may name only network
// sources: a file:// URL or a path would have this machine install its
// own files (a local repository, a folder) on a remote index's say.
func (idx *Index) ResolveSource(e Entry) (string, error) {
	src := strings.TrimSpace(e.Source)
	if IsArchive(src) && !strings.Contains(src, "://") && idx.URL != "" {
		base, err := url.Parse(idx.URL)
		if err != nil {
			return "", err
		}
		ref, err := url.Parse(src)
		if err != nil {
			return "", fmt.Errorf("%s: source %q: %w", e.ID, src, err)
		}
		src = base.ResolveReference(ref).String()
	}
	if strings.HasPrefix(idx.URL, "http://") || strings.HasPrefix(idx.URL, "https://") {
		remote := false
		for _, p := range []string{"https://", "http://", "ssh://", "git://", "git@"} {
			remote = remote || strings.HasPrefix(src, p)
		}
		if g, ok := strings.CutPrefix(src, "git:"); ok && !strings.HasPrefix(g, "//") && !strings.HasPrefix(g, "file:") && !strings.HasPrefix(g, "/") {
			remote = true
		}
		if !remote {
			return "", fmt.Errorf("market package %s: source %q is not a network source; a market served over the network may not name files of this machine", e.ID, src)
		}
	}
	return src, nil
}

// IsArchive reports whether a source names a package archive rather than
// a git source.
func IsArchive(src string) bool {
	p := src
	if u, err := url.Parse(src); err == nil && u.Path != "" {
		p = u.Path
	}
	p = strings.ToLower(p)
	return strings.HasSuffix(p, ".tar.gz") || strings.HasSuffix(p, ".tgz") || strings.HasSuffix(p, ".zip")
}

// get reads an http(s) or file URL, at most limit bytes.
func (c *Client) get(ctx context.Context, rawURL string, limit int64) ([]byte, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	var body io.ReadCloser
	switch u.Scheme {
	case "file":
		p := u.Path
		if len(p) > 2 && p[0] == '/' && p[2] == ':' {
			p = p[1:] // file:///C:/market on Windows
		}
		f, err := os.Open(filepath.FromSlash(p))
		if err != nil {
			return nil, err
		}
		body = f
	case "http", "https":
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/json, application/octet-stream;q=0.9, */*;q=0.5")
		resp, err := c.httpClient().Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return nil, fmt.Errorf("GET %s: %s", rawURL, resp.Status)
		}
		if resp.ContentLength > limit {
			resp.Body.Close()
			return nil, fmt.Errorf("GET %s: %d bytes, over the %d-byte cap", rawURL, resp.ContentLength, limit)
		}
		body = resp.Body
	default:
		return nil, fmt.Errorf("%s: want an http, https or file URL", rawURL)
	}
	defer body.Close()
	data, err := io.ReadAll(io.LimitReader(body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", rawURL, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is over the %d-byte cap", rawURL, limit)
	}
	return data, nil
}
