// Package protocol owns the Reasonix Extension Protocol v2 wire contract: every
// DTO, string enum, method, frozen limit and the frozen error table, plus the
// strict decoder that both the host and the SDK use to read them.
//
// DecodeStrict is the one strict decoder of the project: wire messages,
// plugin manifests and settings.json all go through it, with one policy
// for a member name repeated in an object (refused, wherever it is; see
// CheckDuplicateKeys). The wire's name rules (ValidPluginName,
// ValidActionID, ProviderOfRef) and stream chunk rules (ValidateChunk) live
// here too, so the host and the SDK apply one implementation of each.
//
// The canonical JSON schema (schema.generated.json) is generated from the Go
// types in this package by scripts/extension-protocol-gen; its hash is pinned to
// the one the Reasonix project publishes for v2, so any drift in a struct tag
// fails the build. The package imports nothing outside the standard library so
// extension authors can depend on it without pulling in the host.
package protocol

// Protocol identity as sent in extension/initialize.
const (
	ProtocolID      = "reasonix.extension.v2"
	ProtocolVersion = "2"
	ProtocolMajor   = 2
	SchemaTitle     = "Reasonix Extension Protocol v2"
	SchemaDialect   = "https://json-schema.org/draft/2020-12/schema"
	// DependencySchemaVersion is the version of the manifest dependency
	// identity (requires/provides) the host speaks; the Reasonix host sends
	// it at the top of initialize params and in the capabilities.
	DependencySchemaVersion = 1
)
