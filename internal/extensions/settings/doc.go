// Package settings owns settings.json in the data directory: the user's
// default model and effort, the standing "always" approvals (Rule) and the
// raw hooks bus configuration that internal/extensions/xdev parses. It sits below
// both the agent and xdev, so that xdev reads the hooks without importing
// the agent.
//
// The file is decoded by protocol.DecodeStrict, the one strict decoder:
// invalid JSON, trailing data, a member name repeated anywhere and unknown
// fields are errors naming the file and the JSON path. Writes are atomic
// (internal/foundation/atomicfile).
//
// The app opens the file with Load, which never fails: a broken file (not
// JSON, a wrong type, a directory, unreadable) is reported as a Problem
// naming the file and the line and column or the field, the app runs on
// the defaults and the file is never overwritten until the user fixes it
// or Reset replaces it (keeping a backup next to it). An unknown top-level
// field and an empty file are warnings, not a broken file.
package settings
