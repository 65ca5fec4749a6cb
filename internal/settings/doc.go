// Package settings owns settings.json in the data directory: the user's
// default model and effort, the standing "always" approvals (Rule) and the
// raw hooks bus configuration that internal/host/xdev parses. It sits below
// both the agent and xdev, so that xdev reads the hooks without importing
// the agent.
//
// The file is decoded by protocol.DecodeStrict, the one strict decoder:
// invalid JSON, trailing data, a member name repeated anywhere and unknown
// fields are errors naming the file and the JSON path. Writes are atomic
// (internal/atomicfile).
package settings
