// Package providers owns plugin-provided models: the catalog aggregated from
// every active provider sidecar, the `plugin/<plugin>/<provider>/<model>`
// ids the menus show, and provider streams — open, reassembly of numbered
// chunks into ordered typed events, gap detection, cancel. A failed stream
// fails the turn; there is never a fallback to another model.
package providers
