// Package conformance holds the host's wire-conformance suite against the
// real Reasonix host's facts: golden transcripts (testdata/*.txtar) of the
// exact bytes this host writes to a sidecar — the handshake with its
// initialized barrier, the extension/intercept and extension/event params of
// each of the 17 hook points, a replacement accepted at each point, and a
// provider stream — recorded by a raw NDJSON peer
// (internal/testing/testplugins/reasonixpeer) that shares no code with sdk/ or
// protocol/ and decodes every payload into the Reasonix DTOs with unknown
// fields rejected.
//
// The package has no non-test code; regenerate the transcripts with
// `go test ./internal/testing/conformance -update` and review the diff: a changed
// byte is a changed wire.
package conformance
