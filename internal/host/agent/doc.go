// Package agent owns the agent core both front ends drive: sessions and
// their atomic persistence, the turn loop that fires every hook point where
// DESIGN "Agent turn" says, the built-in workspace tools and their
// permission policy, compaction, and the wiring of plugins' providers and
// UI surfaces to a front end (events out, commands in).
package agent
