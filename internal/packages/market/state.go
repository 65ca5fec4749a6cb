package market

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/atomicfile"
	"github.com/reasonix/reasonix-desktop/internal/foundation/jsonerr"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// The market's setting is its own file in the data directory,
// market.json ({"url": "..."}): the market a user browses is theirs to
// choose, a private one as well as the public one.

// URLEnv, when set, overrides the saved market URL (a test or a managed
// install pointing every user at a private market).
const URLEnv = "REASONIX_DESKTOP_MARKET_URL"

// Config is market.json.
type Config struct {
	URL string `json:"url,omitempty"`
}

// ConfigFile is market.json's path in layout.
func ConfigFile(layout plugin.Layout) string { return filepath.Join(layout.Root, "market.json") }

// LoadConfig reads market.json (a missing file is no market set) and
// applies URLEnv.
func LoadConfig(layout plugin.Layout) (Config, error) {
	var c Config
	data, err := os.ReadFile(ConfigFile(layout))
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return c, fmt.Errorf("market settings: %w", err)
	default:
		if err := jsonerr.Unmarshal(data, &c); err != nil {
			return c, fmt.Errorf("market settings %s: %w", ConfigFile(layout), err)
		}
	}
	if env := strings.TrimSpace(os.Getenv(URLEnv)); env != "" {
		c.URL = env
	}
	return c, nil
}

// SaveURL sets the market URL in market.json (checked first: an http,
// https or file URL; "" unsets it).
func SaveURL(layout plugin.Layout, u string) error {
	u = strings.TrimSpace(u)
	if u != "" {
		if _, err := IndexURL(u); err != nil {
			return err
		}
	}
	data, err := json.MarshalIndent(Config{URL: u}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(layout.Root, 0o700); err != nil {
		return err
	}
	if err := atomicfile.Write(ConfigFile(layout), append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("save the market URL: %w", err)
	}
	return nil
}

// An installed market package records where it came from in its store
// record: Source is "market:<id>@<version>" and Commit the content hash
// it was installed with, "sha256:<hex>" (the record's field for the
// revision a source was installed at). So every install path (the CLI, the
// window's preview) records it the same way, and `plugin update` finds it.

// OriginPrefix starts a market package's recorded source.
const OriginPrefix = "market:"

// Origin is the recorded source of version of entry id.
func Origin(id, version string) string { return OriginPrefix + id + "@" + version }

// ParseOrigin reads a recorded source; ok is false for any other source.
func ParseOrigin(source string) (id, version string, ok bool) {
	rest, found := strings.CutPrefix(source, OriginPrefix)
	if !found {
		return "", "", false
	}
	id, version, _ = strings.Cut(rest, "@")
	return id, version, ValidID(id)
}

// Update is an installed market package whose index entry changed.
type Update struct {
	Name            string // the installed plugin
	ID              string
	Installed       string // installed version
	Available       string // the index's version
	InstalledSHA256 string // hex, "" when unknown
	AvailableSHA256 string // hex, "" when the index pins none
	Reason          string // what changed, for the user
}

// Installed is what the store records of one market package.
type Installed struct {
	Name, Source, Commit string
}

// Updates compares installed packages with idx: an entry whose version or
// pinned content hash differs from what was installed is an update. A
// package whose id the index no longer lists is left out (nothing to
// update to).
func Updates(idx *Index, installed []Installed) []Update {
	var out []Update
	for _, in := range installed {
		id, ver, ok := ParseOrigin(in.Source)
		if !ok {
			continue
		}
		e, found := idx.Find(id)
		if !found {
			continue
		}
		have := strings.TrimPrefix(in.Commit, "sha256:")
		want, _ := ParseDigest(e.ContentSHA256)
		u := Update{Name: in.Name, ID: id, Installed: ver, Available: e.Version, InstalledSHA256: have, AvailableSHA256: want}
		switch {
		case e.Version != ver && olderVersion(e.Version, ver):
			// Offered all the same: the market's entry is the reviewed one
			// (a version withdrawn for a fault goes back this way).
			u.Reason = fmt.Sprintf("version %s -> %s (older: the market lists an earlier version now)", ver, e.Version)
		case e.Version != ver:
			u.Reason = fmt.Sprintf("version %s -> %s", ver, e.Version)
		case want != "" && have != "" && want != have:
			u.Reason = fmt.Sprintf("version %s re-pinned: content sha256:%.12s -> sha256:%.12s", ver, have, want)
		default:
			continue
		}
		out = append(out, u)
	}
	return out
}

// olderVersion reports whether a is an earlier dotted version than b
// ("1.9.0" < "1.10.0"; a leading v and a -pre or +build suffix are read
// past). Versions it cannot read are never older.
func olderVersion(a, b string) bool {
	pa, oka := versionParts(a)
	pb, okb := versionParts(b)
	if !oka || !okb {
		return false
	}
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		if i < len(pa) {
			x = pa[i]
		}
		if i < len(pb) {
			y = pb[i]
		}
		if x != y {
			return x < y
		}
	}
	return false
}

func versionParts(v string) ([]int, bool) {
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	if i := strings.IndexAny(v, "-+"); i >= 0 {
		v = v[:i]
	}
	var out []int
	for _, f := range strings.Split(v, ".") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			return nil, false
		}
		out = append(out, n)
	}
	return out, len(out) > 0
}
