package agent

import (
	"slices"
	"sync"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/packages/compat"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// The compatibility report (internal/packages/compat) on the core's side:
// the install preview carries it and puts its text in what the user
// authorizes, the manifest view (`plugin show`) and PluginInfo (the plugin
// manager) carry it, so both front ends show the same grade and lines and a
// package that only half-works never installs unseen.

// compatReport is pkg's report with its plugin text redacted, as every
// front end shows it.
func compatReport(pkg plugin.Package) compat.Report {
	r := compat.Check(pkg)
	r.Mapped = slices.Clone(r.Mapped)
	r.Lines = slices.Clone(r.Lines)
	for i := range r.Lines {
		r.Lines[i].Where = redact.String(r.Lines[i].Where)
		r.Lines[i].Text = redact.String(r.Lines[i].Text)
	}
	return r
}

// compatCache keeps the reports of the loaded packages, by name, for the
// slice they were made from: Check reads the package's files, and the
// plugin manager asks for Plugins at every refresh.
type compatCache struct {
	mu      sync.Mutex
	from    []plugin.Package
	reports map[string]compat.Report
}

// compatOf is the report of the loaded package name, if it is loaded (a
// disabled plugin is not).
func (c *Core) compatOf(name string) (compat.Report, bool) {
	pkgs := c.packages()
	cc := &c.pkg.compat
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.reports == nil || !samePackages(cc.from, pkgs) {
		cc.from, cc.reports = pkgs, map[string]compat.Report{}
	}
	if r, ok := cc.reports[name]; ok {
		return r, true
	}
	for _, p := range pkgs {
		if p.Name == name {
			r := compatReport(p)
			cc.reports[name] = r
			return r, true
		}
	}
	return compat.Report{}, false
}

// withCompat fills each info's report from the loaded packages.
func (c *Core) withCompat(infos []PluginInfo) []PluginInfo {
	for i := range infos {
		if r, ok := c.compatOf(infos[i].Name); ok {
			infos[i].Compat = &r
		}
	}
	return infos
}
