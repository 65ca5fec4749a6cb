// Package intercept owns the interception chain of one runtime generation:
// the 17 hook points and their payload DTOs, the deterministic order in
// which interceptors run, the decisions they may take at each point, the
// strategy-slot owners that get the final say, the failure policy of
// required and optional plugins, and the non-blocking fan-out of
// extension/event observations.
//
// Order: priority ascending, then plugin name, then registration order; the
// chain is frozen when it is built and calls run one after another.
package intercept
