// Package gate is the contract between the agent core
// (internal/core/agent) and the extensions that are not v2 plugins: the
// shell hooks bus and xdev v1 executables (internal/extensions/xdev). It holds
// the tool-gate and extension-set interfaces, the plain data they pass
// (calls, verdicts, results, tools, commands, status for the plugin
// manager) and the declarations of the host's built-in tools, so that xdev
// can avoid their names without importing agent.
//
// It sits below both and imports neither: only protocol, for the tool
// schema offered to a model. agent keeps its old names as aliases.
package gate
